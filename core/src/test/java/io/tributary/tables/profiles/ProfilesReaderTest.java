package io.tributary.tables.profiles;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.ResourceProfiles;
import io.opentelemetry.proto.profiles.v1development.Sample;
import io.opentelemetry.proto.profiles.v1development.ScopeProfiles;
import io.opentelemetry.proto.profiles.v1development.ValueType;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.Signal;
import io.tributary.otlp.json.OtlpJsonWriter;
import io.tributary.schema.SchemaFlavor;
import io.tributary.tables.OtelTable;
import io.tributary.tables.RecordRows;
import io.tributary.tables.RecordTranscoder;
import io.tributary.tables.TableLayouts;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

class ProfilesReaderTest {

    private static final TableLayouts LAYOUTS = TableLayouts.canonical(SchemaFlavor.MAP);

    /** The RowBinary rows of {@code record} in {@code encoding}. */
    private static byte[] rows(Encoding encoding, byte[] record) throws Exception {
        RecordRows rows = new RecordRows(LAYOUTS);
        RecordTranscoder.of(Signal.PROFILES, encoding, LAYOUTS).transcode(record, rows);
        assertThat(rows.rows(OtelTable.PROFILES)).isEqualTo(1);
        byte[][] out = new byte[1][];
        rows.emit(e -> out[0] = Arrays.copyOf(e.data, e.length), "", 0, 0);
        return out[0];
    }

    /**
     * OTLP/JSON read into wire bytes ends in a padding field no OTLP message has: the profiles
     * reader, which refuses fields of other proto versions, skips that one.
     */
    @Test
    void otlpJsonGivesTheRowsOfTheSameProtobuf() throws Exception {
        ValueType cpu = ValueType.newBuilder().setTypeStrindex(1).setUnitStrindex(2).build();
        ExportProfilesServiceRequest request = ExportProfilesServiceRequest.newBuilder()
                .setDictionary(ProfilesDictionary.newBuilder().addStringTable("").addStringTable("cpu").addStringTable("nanoseconds"))
                .addResourceProfiles(ResourceProfiles.newBuilder().addScopeProfiles(ScopeProfiles.newBuilder()
                        .addProfiles(Profile.newBuilder().setSampleType(cpu).setTimeUnixNano(1_764_460_800_000_000_000L)
                                .setProfileId(ByteString.copyFrom(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}))
                                .addSamples(Sample.newBuilder().addValues(10_000_000L)))))
                .build();
        byte[] proto = rows(Encoding.OTLP_PROTO, request.toByteArray());
        assertThat(rows(Encoding.OTLP_JSON, OtlpJsonWriter.write(request))).isEqualTo(proto);
        assertThat(rows(Encoding.AUTO, OtlpJsonWriter.write(request))).isEqualTo(proto);
    }
}
