package io.tributary.udf;

import static io.tributary.udf.ProfilesRequests.DURATION;
import static io.tributary.udf.ProfilesRequests.HANDLE_ADDRESS;
import static io.tributary.udf.ProfilesRequests.KERNEL_ADDRESS;
import static io.tributary.udf.ProfilesRequests.MAIN_ADDRESS;
import static io.tributary.udf.ProfilesRequests.PERIOD;
import static io.tributary.udf.ProfilesRequests.PROFILE_ID_HEX;
import static io.tributary.udf.ProfilesRequests.SPAN_ID_HEX;
import static io.tributary.udf.ProfilesRequests.TIME;
import static io.tributary.udf.ProfilesRequests.TRACE_ID_HEX;
import static io.tributary.udf.ProfilesRequests.VALUE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.otlp.Signal;
import io.tributary.otlp.json.OtlpJsonWriter;

import net.jpountz.xxhash.XXHashFactory;
import org.apache.flink.api.common.functions.util.ListCollector;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.conversion.DataStructureConverter;
import org.apache.flink.table.data.conversion.DataStructureConverters;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * {@code OTLP_PROFILE_SAMPLES} over {@link ProfilesRequests#request()}, column by column against
 * what the contrib exporter's {@code exporter_profiles.go} writes for it: one row per sample, the
 * profile's time, dictionary lookups resolved, the stack leaf first with a frame per line of a
 * location (inline frames in the order of their lines, the location's address and mapping repeated
 * for each), {@code StackHash} the XXH64 (seed 0, here from lz4-java's implementation) of each
 * frame's function and file name each followed by a zero byte, link index 0 no link, attributes
 * through the attribute table by {@code AsString}, ids lowercase hex.
 */
class OtlpProfileSamplesTest {

    private static final OtlpRowType TYPE = OtlpRowType.of(Signal.PROFILES);

    /** The rows the function emits for {@code record}, as external rows (Instant, Long[], Map, ...). */
    private static List<Row> rows(byte[] record, String encoding) {
        OtlpProfileSamples f = new OtlpProfileSamples();
        List<RowData> out = new ArrayList<>();
        f.setCollector(new ListCollector<>(out));
        if (encoding == null) {
            f.eval(record);
        } else {
            f.eval(record, encoding);
        }
        return external(out);
    }

    @SuppressWarnings("unchecked")
    private static List<Row> external(List<RowData> rows) {
        DataStructureConverter<Object, Object> c = DataStructureConverters.getConverter(TYPE.dataType());
        c.open(OtlpProfileSamplesTest.class.getClassLoader());
        List<Row> out = new ArrayList<>();
        rows.forEach(r -> out.add((Row) c.toExternal(r)));
        return out;
    }

    /** A column's value; an array as a list. */
    private static Object get(Row r, String column) {
        int i = TYPE.names().indexOf(column);
        assertThat(i).as(column + " is a column").isNotNegative();
        Object v = r.getField(i);
        return v instanceof Object[] ? Arrays.asList((Object[]) v) : v;
    }

    /** XXH64, seed 0, of the frames' names as the exporter feeds them: function, 0, file, 0 per frame. */
    private static long stackHash(String... functionAndFile) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (String s : functionAndFile) {
            b.writeBytes(s.getBytes(StandardCharsets.UTF_8));
            b.write(0);
        }
        byte[] bytes = b.toByteArray();
        return XXHashFactory.safeInstance().hash64().hash(bytes, 0, bytes.length, 0);
    }

    private static Map<String, String> map(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void oneRowPerSampleWithTheExportersValues() {
        List<Row> rows = rows(ProfilesRequests.request().toByteArray(), null);
        assertThat(rows).hasSize(2);
        for (Row r : rows) { // the profile's, resource's and scope's columns, the same in both rows
            assertThat(get(r, "Timestamp")).isEqualTo(Instant.ofEpochSecond(0, TIME));
            assertThat(get(r, "ProfileId")).isEqualTo(PROFILE_ID_HEX);
            assertThat(get(r, "SampleType")).isEqualTo("cpu");
            assertThat(get(r, "SampleUnit")).isEqualTo("nanoseconds");
            assertThat(get(r, "ServiceName")).isEqualTo("checkout");
            assertThat(get(r, "ResourceAttributes")).isEqualTo(map("host.name", "node-1", "service.name", "checkout"));
            assertThat(get(r, "ScopeName")).isEqualTo("otel-ebpf-profiler");
            assertThat(get(r, "ScopeVersion")).isEqualTo("v0.0.202547");
            assertThat(get(r, "ProfileAttributes")).isEqualTo(map("profiler.name", "ebpf"));
            assertThat(get(r, "DurationNano")).isEqualTo(DURATION);
            assertThat(get(r, "Period")).isEqualTo(PERIOD);
            assertThat(get(r, "PeriodType")).isEqualTo("cpu");
            assertThat(get(r, "PeriodUnit")).isEqualTo("nanoseconds");
        }

        // sample 1: stack [location 2, location 1]; location 2's two lines are two frames, in order
        Row s1 = rows.get(0);
        assertThat(get(s1, "FunctionNames")).isEqualTo(List.of("parseQuery", "handle", "main"));
        assertThat(get(s1, "FileNames")).isEqualTo(List.of("query.go", "server.go", "main.go"));
        assertThat(get(s1, "LineNumbers")).isEqualTo(List.of(7, 42, 10));
        assertThat(get(s1, "Addresses")).isEqualTo(List.of(HANDLE_ADDRESS, HANDLE_ADDRESS, MAIN_ADDRESS));
        assertThat(get(s1, "MappingFileNames"))
                .isEqualTo(List.of("/usr/bin/checkout", "/usr/bin/checkout", "/usr/bin/checkout"));
        assertThat(get(s1, "StackHash")).isEqualTo(stackHash("parseQuery", "query.go", "handle", "server.go", "main", "main.go"));
        assertThat(get(s1, "Values")).isEqualTo(List.of(VALUE, VALUE, VALUE));
        assertThat(get(s1, "TimestampsUnixNano")).isEqualTo(List.of(TIME + 1_000_000, TIME + 2_000_000, TIME + 3_000_000));
        assertThat(get(s1, "SampleAttributes")).isEqualTo(map("cpu.id", "3", "thread.name", "worker-1"));
        assertThat(get(s1, "TraceId")).isEqualTo(TRACE_ID_HEX);
        assertThat(get(s1, "SpanId")).isEqualTo(SPAN_ID_HEX);

        // sample 2: a kernel frame without lines (one frame, empty names, line 0, mapping 0's "") on top
        Row s2 = rows.get(1);
        assertThat(get(s2, "FunctionNames")).isEqualTo(List.of("", "parseQuery", "handle", "main"));
        assertThat(get(s2, "FileNames")).isEqualTo(List.of("", "query.go", "server.go", "main.go"));
        assertThat(get(s2, "LineNumbers")).isEqualTo(List.of(0, 7, 42, 10));
        assertThat(get(s2, "Addresses")).isEqualTo(List.of(KERNEL_ADDRESS, HANDLE_ADDRESS, HANDLE_ADDRESS, MAIN_ADDRESS));
        assertThat(Long.toUnsignedString((Long) ((List<?>) get(s2, "Addresses")).get(0), 16)).isEqualTo("ffffffff81001234");
        assertThat(get(s2, "MappingFileNames"))
                .isEqualTo(List.of("", "/usr/bin/checkout", "/usr/bin/checkout", "/usr/bin/checkout"));
        assertThat(get(s2, "StackHash"))
                .isEqualTo(stackHash("", "", "parseQuery", "query.go", "handle", "server.go", "main", "main.go"));
        assertThat(get(s2, "Values")).isEqualTo(List.of(VALUE));
        assertThat(get(s2, "TimestampsUnixNano")).isEqualTo(List.of(TIME + 4_000_000));
        assertThat(get(s2, "SampleAttributes")).isEqualTo(map("sampling.ratio", "0.25", "thread.name", "worker-2"));
        assertThat(get(s2, "TraceId")).isEqualTo("");
        assertThat(get(s2, "SpanId")).isEqualTo("");
    }

    @Test
    void everyColumnOfTheTableIsARowField() {
        assertThat(TYPE.names()).containsExactly("Timestamp", "ProfileId", "SampleType", "SampleUnit", "ServiceName",
                "ResourceAttributes", "ScopeName", "ScopeVersion", "ProfileAttributes", "SampleAttributes", "StackHash",
                "Addresses", "FunctionNames", "FileNames", "LineNumbers", "MappingFileNames", "Values",
                "TimestampsUnixNano", "DurationNano", "Period", "PeriodType", "PeriodUnit", "TraceId", "SpanId");
        Row r = rows(ProfilesRequests.request().toByteArray(), null).get(0);
        for (int i = 0; i < TYPE.names().size(); i++) {
            assertThat(r.getField(i)).as(TYPE.names().get(i)).isNotNull();
        }
    }

    @Test
    void otlpJsonGivesTheSameRows() {
        byte[] json = OtlpJsonWriter.write(ProfilesRequests.request());
        assertThat(new String(json, StandardCharsets.UTF_8)).contains("\"profileId\":\"" + PROFILE_ID_HEX + "\"");
        List<Row> fromProto = rows(ProfilesRequests.request().toByteArray(), null);
        assertThat(rows(json, null)).isEqualTo(fromProto);
        assertThat(rows(json, "otlp_json")).isEqualTo(fromProto);
        OtlpProfileSamples f = new OtlpProfileSamples();
        List<RowData> out = new ArrayList<>();
        f.setCollector(new ListCollector<>(out));
        f.eval(new String(json, StandardCharsets.UTF_8));
        assertThat(external(out)).isEqualTo(fromProto);
    }

    @Test
    void anUndecodableRecordOrAnEncodingProfilesLackGivesNoRows() {
        assertThat(rows(new byte[] {0x0a, 0x7f, 0x01, 0x02}, null)).isEmpty();
        assertThat(rows(ProfilesRequests.request().toByteArray(), "zipkin_json")).isEmpty();
        assertThat(rows(null, null)).isEmpty();
        assertThatThrownBy(() -> new OtlpRecords(Signal.PROFILES, "zipkin_json")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theOtlpFormatReadsTheDeclaredColumns() throws Exception {
        var declared = DataTypes.ROW(
                DataTypes.FIELD("FunctionNames", DataTypes.ARRAY(DataTypes.STRING())),
                DataTypes.FIELD("Values", DataTypes.ARRAY(DataTypes.BIGINT())),
                DataTypes.FIELD("Timestamp", DataTypes.TIMESTAMP_LTZ(9)),
                DataTypes.FIELD("TraceId", DataTypes.STRING()));
        int[] projection = OtlpFormatFactory.projection(Signal.PROFILES, declared);
        List<RowData> rows = new OtlpRecords(Signal.PROFILES).decode(ProfilesRequests.request().toByteArray(), projection);
        assertThat(rows).hasSize(2);
        DataStructureConverter<Object, Object> c = DataStructureConverters.getConverter(declared);
        c.open(getClass().getClassLoader());
        Row r = (Row) c.toExternal(rows.get(0));
        assertThat((Object[]) r.getField(0)).containsExactly("parseQuery", "handle", "main");
        assertThat((Object[]) r.getField(1)).containsExactly(VALUE, VALUE, VALUE);
        assertThat(r.getField(2)).isEqualTo(Instant.ofEpochSecond(0, TIME));
        assertThat(r.getField(3)).isEqualTo(TRACE_ID_HEX);
        assertThat(OtlpFormatFactory.signal("profiles")).isEqualTo(Signal.PROFILES);
        assertThatThrownBy(() -> OtlpFormatFactory.signal("profile")).isInstanceOf(ValidationException.class)
                .hasMessage("otlp.signal: must be traces, logs, metrics or profiles, not 'profile'");
        assertThatThrownBy(() -> OtlpFormatFactory.projection(Signal.PROFILES,
                DataTypes.ROW(DataTypes.FIELD("LineNumbers", DataTypes.ARRAY(DataTypes.BIGINT())))))
                .isInstanceOf(ValidationException.class)
                .hasMessage("format 'otlp' ('otlp.signal' = 'profiles'): 'LineNumbers' is ARRAY<INT>, not ARRAY<BIGINT>");
    }

    @Test
    void aProjectionSkipsTheOtherColumns() throws Exception {
        OtlpRecords records = new OtlpRecords(Signal.PROFILES);
        int[] all = IntStream.range(0, TYPE.names().size()).toArray();
        assertThat(records.decode(ProfilesRequests.request().toByteArray(), all)).hasSize(2);
        int[] one = {TYPE.names().indexOf("SpanId")};
        List<RowData> rows = records.decode(ProfilesRequests.request().toByteArray(), one);
        assertThat(rows.get(0).getString(0).toString()).isEqualTo(SPAN_ID_HEX);
        assertThat(rows.get(1).getString(0).toString()).isEmpty();
    }
}
