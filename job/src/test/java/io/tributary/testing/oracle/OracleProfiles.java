package io.tributary.testing.oracle;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.Message;
import com.google.protobuf.WireFormat;
import io.tributary.otlp.profiles.ExportProfilesServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.tributary.otlp.profiles.Function;
import io.tributary.otlp.profiles.KeyValueAndUnit;
import io.tributary.otlp.profiles.Line;
import io.tributary.otlp.profiles.Link;
import io.tributary.otlp.profiles.Location;
import io.tributary.otlp.profiles.Mapping;
import io.tributary.otlp.profiles.Profile;
import io.tributary.otlp.profiles.ProfilesDictionary;
import io.tributary.otlp.profiles.ResourceProfiles;
import io.tributary.otlp.profiles.Sample;
import io.tributary.otlp.profiles.ScopeProfiles;
import io.tributary.otlp.profiles.Stack;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.schema.SchemaFlavor;
import io.tributary.schema.TableLayout;
import io.tributary.schema.TableSchema;
import io.tributary.tables.AnyValues;
import io.tributary.tables.Attributes;
import io.tributary.tables.Hex;
import net.jpountz.xxhash.StreamingXXHash64;
import net.jpountz.xxhash.XXHashFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.tributary.schema.Columns.attributes;
import static io.tributary.schema.Columns.dateTime64Nanos;
import static io.tributary.schema.Columns.int64;
import static io.tributary.schema.Columns.lowCardinalityString;
import static io.tributary.schema.Columns.string;
import static io.tributary.schema.Columns.uint64;
import static io.tributary.schema.Columns.written;

/**
 * The oracle of the profiles wire path: the contrib exporter's {@code pushProfilesData} written
 * again over protobuf-java messages, with Java strings and maps and lz4-java's XXH64 (another
 * implementation than the wire path's), for the differential tests. The version rules of the wire
 * path hold here too: a profiles message with a field protobuf-java did not know (an unknown field,
 * or a known one of another wire type), a Sample with attribute indexes but neither values nor
 * timestamps, or unpacked values (v1.9's link_index), refuse the record.
 */
public final class OracleProfiles {

    private static final String ZSTD = "CODEC(ZSTD(1))";
    private static final XXHashFactory XXHASH = XXHashFactory.safeInstance();

    private final TableLayout<Row> layout = TableLayout.canonical(schema(), "otel_profiles");

    /** One row: the exporter's batch.Append arguments. */
    static final class Row {
        long time;
        String profileId;
        String sampleType;
        String sampleUnit;
        String serviceName;
        Attributes resourceAttributes;
        String scopeName;
        String scopeVersion;
        Map<String, String> profileAttributes;
        Map<String, String> sampleAttributes;
        long hash;
        List<Long> addresses = new ArrayList<>();
        List<String> functionNames = new ArrayList<>();
        List<String> fileNames = new ArrayList<>();
        List<Integer> lineNumbers = new ArrayList<>();
        List<String> mappingFileNames = new ArrayList<>();
        List<Long> values;
        List<Long> timestamps;
        long duration;
        long period;
        String periodType;
        String periodUnit;
        String traceId;
        String spanId;
    }

    /** The rows of every sample of {@code record}, in RowBinary; throws where the exporter's reading fails. */
    public byte[] rows(byte[] record, ExportProfilesServiceRequest req) throws IOException {
        checkSamplesPacked(record);
        ProfilesDictionary dic = req.getDictionary();
        strict(dic);
        dic.getMappingTableList().forEach(OracleProfiles::strict);
        dic.getFunctionTableList().forEach(OracleProfiles::strict);
        dic.getStackTableList().forEach(OracleProfiles::strict);
        dic.getAttributeTableList().forEach(OracleProfiles::strict);
        for (Location l : dic.getLocationTableList()) {
            strict(l);
            l.getLinesList().forEach(OracleProfiles::strict);
        }
        for (Link l : dic.getLinkTableList()) {
            strict(l);
            Hex.checkLength(l.getTraceId(), 16, "trace id");
            Hex.checkLength(l.getSpanId(), 8, "span id");
        }
        RowBinaryWriter out = new RowBinaryWriter(1024);
        for (ResourceProfiles rp : req.getResourceProfilesList()) {
            List<KeyValue> resAttrs = rp.getResource().getAttributesList();
            for (ScopeProfiles sp : rp.getScopeProfilesList()) {
                for (Profile p : sp.getProfilesList()) {
                    strict(p);
                    strict(p.getSampleType());
                    strict(p.getPeriodType());
                    Hex.checkLength(p.getProfileId(), 16, "profile id");
                    Map<String, String> profileAttrs = resolveAttributes(dic, p.getAttributeIndicesList());
                    for (Sample s : p.getSamplesList()) {
                        strict(s);
                        if (s.getAttributeIndicesCount() > 0 && s.getValuesCount() == 0 && s.getTimestampsUnixNanoCount() == 0) {
                            throw new IllegalArgumentException("a v1.9 sample");
                        }
                        Row r = new Row();
                        r.time = p.getTimeUnixNano();
                        r.profileId = Hex.idOrEmpty(p.getProfileId(), 16, "profile id");
                        r.sampleType = stringAt(dic, p.getSampleType().getTypeStrindex());
                        r.sampleUnit = stringAt(dic, p.getSampleType().getUnitStrindex());
                        r.serviceName = Attributes.serviceName(resAttrs);
                        r.resourceAttributes = Attributes.of(resAttrs);
                        r.scopeName = sp.getScope().getName();
                        r.scopeVersion = sp.getScope().getVersion();
                        r.profileAttributes = profileAttrs;
                        r.sampleAttributes = resolveAttributes(dic, s.getAttributeIndicesList());
                        resolveStack(dic, s.getStackIndex(), r);
                        r.values = s.getValuesList();
                        r.timestamps = s.getTimestampsUnixNanoList();
                        r.duration = p.getDurationNano();
                        r.period = p.getPeriod();
                        r.periodType = stringAt(dic, p.getPeriodType().getTypeStrindex());
                        r.periodUnit = stringAt(dic, p.getPeriodType().getUnitStrindex());
                        int link = s.getLinkIndex();
                        if (link <= 0 || link >= dic.getLinkTableCount()) {
                            r.traceId = r.spanId = "";
                        } else {
                            r.traceId = Hex.idOrEmpty(dic.getLinkTable(link).getTraceId(), 16, "trace id");
                            r.spanId = Hex.idOrEmpty(dic.getLinkTable(link).getSpanId(), 8, "span id");
                        }
                        layout.writeRow(r, out);
                    }
                }
            }
        }
        return out.toByteArray();
    }

    private static void strict(Message m) {
        if (!m.getUnknownFields().asMap().isEmpty()) {
            throw new IllegalArgumentException(m.getDescriptorForType().getName() + " of another version");
        }
    }

    private static String stringAt(ProfilesDictionary dic, int i) {
        return i < 0 || i >= dic.getStringTableCount() ? "" : dic.getStringTable(i);
    }

    private static Map<String, String> resolveAttributes(ProfilesDictionary dic, List<Integer> indices) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int idx : indices) {
            if (idx < 0 || idx >= dic.getAttributeTableCount()) {
                throw new IllegalArgumentException("attribute index " + idx + " out of bounds");
            }
            KeyValueAndUnit kv = dic.getAttributeTable(idx);
            int key = kv.getKeyStrindex();
            if (key < 0 || key >= dic.getStringTableCount()) {
                throw new IllegalArgumentException("key string index " + key + " out of bounds");
            }
            m.put(dic.getStringTable(key), AnyValues.asString(kv.getValue()));
        }
        TreeMap<String, String> sorted = new TreeMap<>(AnyValues::compareUtf8);
        sorted.putAll(m);
        return sorted;
    }

    private static void resolveStack(ProfilesDictionary dic, int stack, Row r) {
        if (stack < 0 || stack >= dic.getStackTableCount()) {
            r.hash = 0;
            return;
        }
        StreamingXXHash64 h = XXHASH.newStreamingHash64(0);
        for (int loc : dic.getStackTable(stack).getLocationIndicesList()) {
            if (loc < 0 || loc >= dic.getLocationTableCount()) {
                continue;
            }
            Location l = dic.getLocationTable(loc);
            int m = l.getMappingIndex();
            String mapping = m >= 0 && m < dic.getMappingTableCount() ? stringAt(dic, dic.getMappingTable(m).getFilenameStrindex()) : "";
            if (l.getLinesCount() == 0) {
                frame(r, h, l.getAddress(), "", "", 0, mapping);
                continue;
            }
            for (Line line : l.getLinesList()) {
                int f = line.getFunctionIndex();
                Function fn = f >= 0 && f < dic.getFunctionTableCount() ? dic.getFunctionTable(f) : null;
                frame(r, h, l.getAddress(), fn == null ? "" : stringAt(dic, fn.getNameStrindex()),
                        fn == null ? "" : stringAt(dic, fn.getFilenameStrindex()), (int) line.getLine(), mapping);
            }
        }
        r.hash = h.getValue();
    }

    private static void frame(Row r, StreamingXXHash64 h, long address, String fn, String file, int line, String mapping) {
        r.addresses.add(address);
        r.functionNames.add(fn);
        r.fileNames.add(file);
        r.lineNumbers.add(line);
        r.mappingFileNames.add(mapping);
        byte[] f = (fn + "\0" + file + "\0").getBytes(StandardCharsets.UTF_8);
        h.update(f, 0, f.length);
    }

    /** Walks the record's bytes to every Sample: an unpacked {@code values} field is v1.9's link_index. */
    private static void checkSamplesPacked(byte[] record) throws IOException {
        walk(CodedInputStream.newInstance(record), new int[] {1, 2, 2, 2}, 0);
    }

    private static void walk(CodedInputStream in, int[] path, int depth) throws IOException {
        while (!in.isAtEnd()) {
            int tag = in.readTag();
            int field = WireFormat.getTagFieldNumber(tag);
            int type = WireFormat.getTagWireType(tag);
            if (depth == path.length) {
                if (field == 4 && type == WireFormat.WIRETYPE_VARINT) {
                    throw new IllegalArgumentException("a v1.9 link_index");
                }
                in.skipField(tag);
            } else if (field == path[depth] && type == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                ByteString b = in.readBytes();
                walk(b.newCodedInput(), path, depth + 1);
            } else {
                in.skipField(tag);
            }
        }
    }

    private static TableSchema<Row> schema() {
        String strings = "Array(LowCardinality(String))";
        String map = "Map(LowCardinality(String), String)";
        return TableSchema.<Row>builder()
                .column(dateTime64Nanos("Timestamp", "", r -> r.time))
                .column(string("ProfileId", ZSTD, r -> r.profileId))
                .column(lowCardinalityString("SampleType", ZSTD, r -> r.sampleType))
                .column(lowCardinalityString("SampleUnit", ZSTD, r -> r.sampleUnit))
                .column(lowCardinalityString("ServiceName", ZSTD, r -> r.serviceName))
                .columns(attributes("ResourceAttributes", ZSTD, SchemaFlavor.MAP, r -> r.resourceAttributes))
                .column(string("ScopeName", ZSTD, r -> r.scopeName))
                .column(string("ScopeVersion", ZSTD, r -> r.scopeVersion))
                .column(written("ProfileAttributes", map, ZSTD, (r, out) -> writeMap(r.profileAttributes, out)))
                .column(written("SampleAttributes", map, ZSTD, (r, out) -> writeMap(r.sampleAttributes, out)))
                .column(uint64("StackHash", ZSTD, r -> r.hash))
                .column(written("Addresses", "Array(UInt64)", ZSTD, (r, out) -> writeLongs(r.addresses, out)))
                .column(written("FunctionNames", strings, ZSTD, (r, out) -> writeStrings(r.functionNames, out)))
                .column(written("FileNames", strings, ZSTD, (r, out) -> writeStrings(r.fileNames, out)))
                .column(written("LineNumbers", "Array(Int32)", ZSTD, (r, out) -> {
                    out.writeArrayLength(r.lineNumbers.size());
                    r.lineNumbers.forEach(out::writeInt32);
                }))
                .column(written("MappingFileNames", strings, ZSTD, (r, out) -> writeStrings(r.mappingFileNames, out)))
                .column(written("Values", "Array(Int64)", ZSTD, (r, out) -> writeLongs(r.values, out)))
                .column(written("TimestampsUnixNano", "Array(UInt64)", ZSTD, (r, out) -> writeLongs(r.timestamps, out)))
                .column(uint64("DurationNano", ZSTD, r -> r.duration))
                .column(int64("Period", ZSTD, r -> r.period))
                .column(lowCardinalityString("PeriodType", ZSTD, r -> r.periodType))
                .column(lowCardinalityString("PeriodUnit", ZSTD, r -> r.periodUnit))
                .column(string("TraceId", ZSTD, r -> r.traceId))
                .column(string("SpanId", ZSTD, r -> r.spanId))
                .partitionBy("tuple()").orderBy("tuple()").settings("")
                .build();
    }

    private static void writeMap(Map<String, String> m, RowBinaryWriter out) {
        out.writeMapSize(m.size());
        m.forEach((k, v) -> {
            out.writeString(k);
            out.writeString(v);
        });
    }

    private static void writeLongs(List<Long> l, RowBinaryWriter out) {
        out.writeArrayLength(l.size());
        l.forEach(out::writeInt64);
    }

    private static void writeStrings(List<String> l, RowBinaryWriter out) {
        out.writeArrayLength(l.size());
        l.forEach(out::writeString);
    }
}
