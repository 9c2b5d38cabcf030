package io.tributary.tables.profiles;

import io.tributary.otlp.InvalidProtobufException;
import io.tributary.otlp.proto.ProtoReader;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.schema.TableLayout;
import io.tributary.tables.OtelTable;
import io.tributary.tables.RecordRows;
import io.tributary.tables.WireEnvelope;
import io.tributary.tables.WireValues;
import io.tributary.tables.WireValues.IntList;

/**
 * Turns an OTLP profiles record ({@code ExportProfilesServiceRequest} or {@code ProfilesData},
 * protobuf, {@link ProfilesVersion#READS}) into {@code otel_profiles} rows in RowBinary, one per
 * sample, without building protobuf messages: the request's dictionary is indexed once, then each
 * sample's row is written with its lookups resolved ({@link SampleView}). The same rows as
 * protobuf-java parsing and the exporter's semantics give, the same failures. Not thread-safe: one
 * per task.
 */
public final class ProfilesReader {

    private final TableLayout<SampleView> layout;
    private final ProtoReader root = new ProtoReader();
    private final SampleView view;
    private final IntList resourceProfiles = new IntList();
    private final IntList resources = new IntList();
    private final IntList scopeProfiles = new IntList();
    private final IntList scopes = new IntList();
    private final IntList profiles = new IntList();
    private final IntList samples = new IntList();

    /** @param layout how the profiles table is written */
    public ProfilesReader(TableLayout<SampleView> layout) {
        this.layout = layout;
        this.view = new SampleView(new WireValues());
    }

    /**
     * Appends one row per sample of the record in {@code value} to {@code rows}; returns the
     * number of rows. When it throws, {@code rows} may hold partial rows: the caller discards them.
     */
    public int transcode(byte[] value, RecordRows rows) throws InvalidProtobufException {
        RowBinaryWriter out = rows.writer(OtelTable.PROFILES);
        SampleView v = view;
        v.setBuffer(value);
        v.dict.clear();
        v.dict.bound(rows);
        resourceProfiles.clear();
        ProtoReader r0 = root.reset(value, 0, value.length);
        // the dictionary first, wherever it stands: every sample looks into it
        while (r0.next()) {
            if (r0.is(1, ProtoReader.LEN)) {
                r0.readBytes();
                resourceProfiles.add(r0.start(), r0.length());
            } else if (r0.is(2, ProtoReader.LEN)) {
                r0.readBytes();
                v.dict.read(r0.child());
            } else {
                r0.skip(); // the envelope is the same in every version (and OTLP/JSON's reader pads here)
            }
        }
        int n = 0;
        for (int i = 0; i < resourceProfiles.size(); i += 2) {
            n += resourceProfiles(r0.child(resourceProfiles.get(i), resourceProfiles.get(i + 1)), out, rows);
        }
        return n;
    }

    private int resourceProfiles(ProtoReader r1, RowBinaryWriter out, RecordRows rows) throws InvalidProtobufException {
        resources.clear();
        scopeProfiles.clear();
        while (r1.next()) {
            if (r1.is(1, ProtoReader.LEN)) {
                r1.readBytes();
                resources.add(r1.start(), r1.length());
            } else if (r1.is(2, ProtoReader.LEN)) {
                r1.readBytes();
                scopeProfiles.add(r1.start(), r1.length());
            } else {
                r1.skip(); // schema_url (not stored)
            }
        }
        WireEnvelope.resource(r1, resources, view.resourceAttributes);
        view.renderServiceName();
        int n = 0;
        for (int i = 0; i < scopeProfiles.size(); i += 2) {
            n += scopeProfiles(r1.child(scopeProfiles.get(i), scopeProfiles.get(i + 1)), out, rows);
        }
        return n;
    }

    private int scopeProfiles(ProtoReader r2, RowBinaryWriter out, RecordRows rows) throws InvalidProtobufException {
        scopes.clear();
        profiles.clear();
        while (r2.next()) {
            if (r2.is(1, ProtoReader.LEN)) {
                r2.readBytes();
                scopes.add(r2.start(), r2.length());
            } else if (r2.is(2, ProtoReader.LEN)) {
                r2.readBytes();
                profiles.add(r2.start(), r2.length());
            } else {
                r2.skip(); // schema_url (not stored)
            }
        }
        WireEnvelope.scope(r2, scopes, view.scope, null);
        int n = 0;
        for (int i = 0; i < profiles.size(); i += 2) {
            n += profile(r2.child(profiles.get(i), profiles.get(i + 1)), out, rows);
        }
        return n;
    }

    private int profile(ProtoReader r, RowBinaryWriter out, RecordRows rows) throws InvalidProtobufException {
        SampleView v = view;
        v.newProfile();
        samples.clear();
        while (r.next()) {
            switch (r.field()) {
                case 1:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        long t = valueType(r.child(), v.sampleType, v.sampleUnit);
                        v.sampleType = (int) (t >>> 32);
                        v.sampleUnit = (int) t;
                        continue;
                    }
                    break;
                case 2:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        samples.add(r.start(), r.length());
                        continue;
                    }
                    break;
                case 3:
                    if (r.wireType() == ProtoReader.I64) {
                        v.time = r.readFixed64();
                        continue;
                    }
                    break;
                case 4:
                    if (r.wireType() == ProtoReader.VARINT) {
                        v.durationNanos = r.readVarint();
                        continue;
                    }
                    break;
                case 5:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        long t = valueType(r.child(), v.periodType, v.periodUnit);
                        v.periodType = (int) (t >>> 32);
                        v.periodUnit = (int) t;
                        continue;
                    }
                    break;
                case 6:
                    if (r.wireType() == ProtoReader.VARINT) {
                        v.period = r.readVarint();
                        continue;
                    }
                    break;
                case 7:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        v.profileIdStart = r.start();
                        v.profileIdLength = r.length();
                        continue;
                    }
                    break;
                case 8:
                    if (r.wireType() == ProtoReader.VARINT) {
                        r.readVarint();
                        continue;
                    }
                    break;
                case 9:
                case 10:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        continue;
                    }
                    break;
                case 11:
                    if (Packed.int32s(r, v.profileAttributeIndices)) {
                        continue;
                    }
                    break;
                default:
                    break;
            }
            throw ProfilesVersion.unknownField("Profile", r);
        }
        v.profileRead(samples.size() > 0, rows);
        for (int i = 0; i < samples.size(); i += 2) {
            sample(r.child(samples.get(i), samples.get(i + 1)), rows);
            layout.writeRow(v, out);
            rows.rowAdded(OtelTable.PROFILES);
        }
        return samples.size() / 2;
    }

    /** A {@code ValueType} merged into the type and unit indexes given: both, type in the high half. */
    private static long valueType(ProtoReader r, int type, int unit) throws InvalidProtobufException {
        while (r.next()) {
            if (r.is(1, ProtoReader.VARINT)) {
                type = (int) r.readVarint();
            } else if (r.is(2, ProtoReader.VARINT)) {
                unit = (int) r.readVarint();
            } else {
                throw ProfilesVersion.unknownField("ValueType", r);
            }
        }
        return (long) type << 32 | (unit & 0xFFFFFFFFL);
    }

    private void sample(ProtoReader r, RecordRows rows) throws InvalidProtobufException {
        SampleView v = view;
        v.newSample();
        while (r.next()) {
            switch (r.field()) {
                case 1:
                    if (r.wireType() == ProtoReader.VARINT) {
                        v.stackIndex = (int) r.readVarint();
                        continue;
                    }
                    break;
                case 2:
                    if (Packed.int32s(r, v.sampleAttributeIndices)) {
                        continue;
                    }
                    break;
                case 3:
                    if (r.wireType() == ProtoReader.VARINT) {
                        v.linkIndex = (int) r.readVarint();
                        continue;
                    }
                    break;
                case 4:
                    // packed only: every proto3 writer packs them, and an unpacked one is v1.9's link_index
                    if (r.wireType() == ProtoReader.LEN && Packed.int64s(r, v.sampleValues)) {
                        continue;
                    }
                    break;
                case 5:
                    if (Packed.fixed64s(r, v.timestamps)) {
                        continue;
                    }
                    break;
                default:
                    break;
            }
            throw ProfilesVersion.unknownField("Sample", r);
        }
        if (v.sampleAttributeIndices.size() > 0 && v.sampleValues.size == 0 && v.timestamps.size == 0) {
            throw ProfilesVersion.attributesWithoutValues();
        }
        v.sampleRead(rows);
    }
}
