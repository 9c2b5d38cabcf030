package io.tributary.tables.profiles;

import io.tributary.otlp.InvalidOtlpException;
import io.tributary.otlp.proto.ProtoReader;

/**
 * The profiles proto this job reads: {@code opentelemetry.proto.profiles.v1development} of
 * opentelemetry-proto v1.10.0 and v1.11.0 (the same bytes; what pdata reads since collector
 * v0.148.0 and the contrib exporter since it writes profiles). The signal is still in development
 * and its messages changed field numbers between releases (v1.9.0's {@code Sample} had its values
 * in field 2, where v1.10 has attribute indices), so a field of a profiles message that v1.10 does
 * not have, or has with another wire type, makes the record a dead letter rather than a wrong row
 * (one v1.9 shape, a sample with values and timestamps but no attributes or link, cannot be told
 * apart and reads as v1.10).
 */
public final class ProfilesVersion {

    /** The version named in refusals and docs. */
    public static final String READS = "opentelemetry-proto v1.10/v1.11 profiles (v1development)";

    private ProfilesVersion() {}

    private static final String[] WIRE = {"VARINT", "I64", "LEN", "SGROUP", "EGROUP", "I32"};

    /** The refusal of the field just read on {@code r}, in message {@code message}. */
    static InvalidOtlpException unknownField(String message, ProtoReader r) {
        return unknownField(message, r.field(), r.wireType());
    }

    /** The refusal of field {@code field} with wire type {@code wireType} in message {@code message}. */
    public static InvalidOtlpException unknownField(String message, int field, int wireType) {
        String hint = "";
        if (message.equals("Sample") && (field == 3 && wireType == ProtoReader.LEN || field == 4 && wireType == ProtoReader.VARINT)) {
            hint = " (a v1.9.0 Sample: values in field 2, attribute_indices in 3, link_index in 4)";
        } else if (message.equals("Sample") && field == 6 || message.equals("Profile") && field >= 12) {
            hint = " (a v1.8.0 or older profile)";
        }
        return new InvalidOtlpException("profiles record of another proto version: " + message + " field " + field
                + " with wire type " + (wireType < WIRE.length ? WIRE[wireType] : String.valueOf(wireType))
                + " is not in " + READS + hint + "; the job reads that version only");
    }

    /** The refusal of a sample that holds attribute indices but neither values nor timestamps. */
    public static InvalidOtlpException attributesWithoutValues() {
        return new InvalidOtlpException("profiles record of another proto version: a Sample with attribute_indices"
                + " but neither values nor timestamps_unix_nano is, in protobuf, a v1.9.0 Sample, whose field 2 holds"
                + " its values (in " + READS + " field 2 is attribute_indices, and a Sample must have values or"
                + " timestamps); the job reads that version only");
    }
}
