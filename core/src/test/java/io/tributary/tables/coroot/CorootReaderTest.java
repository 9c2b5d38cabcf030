package io.tributary.tables.coroot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import io.tributary.otlp.InvalidOtlpException;
import io.tributary.rowbinary.RowBinaryReader;
import io.tributary.schema.SchemaFlavor;
import io.tributary.tables.OtelTable;
import io.tributary.tables.RecordRows;
import io.tributary.tables.RecordTranscoder;
import io.tributary.tables.TableLayouts;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.Signal;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The edges of Coroot's row rules ({@code collector/traces.go}, {@code collector/logs.go}): enum
 * numbers Go's enums do not know, negative durations, no status, no service, a scope with only a
 * version, log records of negative time, non-string bodies, flags and severities at their type's
 * ends. Every column of each row is read back from the RowBinary the job sends.
 */
class CorootReaderTest {

    private static final TableLayouts LAYOUTS = TableLayouts.canonical(SchemaFlavor.COROOT);

    private static KeyValue kv(String k, String v) {
        return KeyValue.newBuilder().setKey(k).setValue(AnyValue.newBuilder().setStringValue(v)).build();
    }

    private static List<List<Object>> rows(Signal signal, byte[] request) throws Exception {
        RecordRows rows = new RecordRows(LAYOUTS);
        RecordTranscoder.of(signal, Encoding.OTLP_PROTO, LAYOUTS).transcode(request, rows);
        OtelTable table = signal == Signal.TRACES ? OtelTable.TRACES : OtelTable.LOGS;
        byte[] b = rows.writer(table).toByteArray();
        RowBinaryReader r = new RowBinaryReader(b, 0, b.length);
        List<List<Object>> out = new ArrayList<>();
        while (r.hasMore()) {
            List<Object> row = new ArrayList<>();
            if (signal == Signal.TRACES) {
                row.add(r.readDateTime64());
                for (int i = 0; i < 7; i++) {
                    row.add(r.readString()); // TraceId .. ServiceName
                }
                row.add(map(r));
                row.add(map(r));
                row.add(r.readInt64());
                row.add(r.readString());
                row.add(r.readString());
                row.add(longs(r));
                row.add(strings(r));
                row.add(maps(r));
                row.add(strings(r));
                row.add(strings(r));
                row.add(strings(r));
                row.add(maps(r));
            } else {
                row.add(r.readDateTime64());
                row.add(r.readString());
                row.add(r.readString());
                row.add(r.readUInt32());
                row.add(r.readString());
                row.add(r.readInt32());
                row.add(r.readString());
                row.add(r.readString());
                row.add(map(r));
                row.add(map(r));
            }
            out.add(row);
        }
        return out;
    }

    private static Map<String, String> map(RowBinaryReader r) {
        Map<String, String> m = new LinkedHashMap<>();
        for (long n = r.readVarUInt(); n > 0; n--) {
            m.put(r.readString(), r.readString());
        }
        return m;
    }

    private static List<Long> longs(RowBinaryReader r) {
        List<Long> l = new ArrayList<>();
        for (long n = r.readVarUInt(); n > 0; n--) {
            l.add(r.readDateTime64());
        }
        return l;
    }

    private static List<String> strings(RowBinaryReader r) {
        List<String> l = new ArrayList<>();
        for (long n = r.readVarUInt(); n > 0; n--) {
            l.add(r.readString());
        }
        return l;
    }

    private static List<Map<String, String>> maps(RowBinaryReader r) {
        List<Map<String, String>> l = new ArrayList<>();
        for (long n = r.readVarUInt(); n > 0; n--) {
            l.add(map(r));
        }
        return l;
    }

    @Test
    void spansAtTheEdgesOfCorootsRules() throws Exception {
        ExportTraceServiceRequest req = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                .setResource(Resource.newBuilder().addAttributes(kv("b", "2")).addAttributes(kv("a", "1")))
                .addScopeSpans(ScopeSpans.newBuilder().setScope(InstrumentationScope.newBuilder().setVersion("9"))
                        .addSpans(Span.newBuilder().setKindValue(7).setName("unknown kind")
                                .setStartTimeUnixNano(2_000).setEndTimeUnixNano(1_000) // ends before it starts
                                .setStatus(Status.newBuilder().setCodeValue(5).setMessage("m"))
                                .setTraceId(ByteString.copyFrom(new byte[16])) // all zero: "" on pdata's path
                                .addEvents(Span.Event.newBuilder().setTimeUnixNano(-1L)))
                        .addSpans(Span.newBuilder().setKindValue(-1).setName("negative kind")
                                .setStartTimeUnixNano(-5L).setEndTimeUnixNano(Long.MAX_VALUE)))).build();
        List<List<Object>> rows = rows(Signal.TRACES, req.toByteArray());
        assertThat(rows).containsExactly(
                List.of(2_000L, "", "", "", "", "unknown kind", "7", "", Map.of("a", "1", "b", "2"),
                        Map.of("otel.scope.version", "9"), -1_000L, "5", "m", List.of(-1L), List.of(""), List.of(Map.of()),
                        List.of(), List.of(), List.of(), List.of()),
                List.of(-5L, "", "", "", "", "negative kind", "-1", "", Map.of("a", "1", "b", "2"),
                        Map.of("otel.scope.version", "9"), Long.MAX_VALUE + 5L, "STATUS_CODE_UNSET", "", List.of(), List.of(),
                        List.of(), List.of(), List.of(), List.of(), List.of()));
        assertThat(new ArrayList<Object>(((Map<?, ?>) rows.get(0).get(8)).keySet())).as("keys in byte order")
                .containsExactly("a", "b");
    }

    @Test
    void logRecordsAtTheEdgesOfCorootsRules() throws Exception {
        ExportLogsServiceRequest req = ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
                .setResource(Resource.newBuilder().addAttributes(kv("service.name", "svc")))
                .addScopeLogs(ScopeLogs.newBuilder()
                        .addLogRecords(LogRecord.newBuilder().setTimeUnixNano(Long.MIN_VALUE).setBody(
                                AnyValue.newBuilder().setStringValue("left out")))
                        .addLogRecords(LogRecord.newBuilder().setTimeUnixNano(7).setFlags(-1).setSeverityNumberValue(-5)
                                .setSeverityText("odd").setBody(AnyValue.newBuilder().setBytesValue(ByteString.copyFromUtf8("b"))))
                        .addLogRecords(LogRecord.newBuilder().setObservedTimeUnixNano(9).setSeverityNumberValue(Integer.MAX_VALUE)
                                .setBody(AnyValue.newBuilder().setStringValue("s"))))).build();
        assertThat(rows(Signal.LOGS, req.toByteArray())).containsExactly(
                List.of(7L, "", "", 4294967295L, "odd", -5, "svc", "", Map.of("service.name", "svc"), Map.of()),
                List.of(0L, "", "", 0L, "", Integer.MAX_VALUE, "svc", "s", Map.of("service.name", "svc"), Map.of()));
    }

    @Test
    void anIdOfAnotherLengthIsRefused() {
        byte[] req = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder().addScopeSpans(
                ScopeSpans.newBuilder().addSpans(Span.newBuilder().addLinks(Span.Link.newBuilder()
                        .setTraceId(ByteString.copyFrom(new byte[3])))))).build().toByteArray();
        assertThatThrownBy(() -> rows(Signal.TRACES, req)).isInstanceOf(InvalidOtlpException.class)
                .hasMessage("links.traceId must be 16 bytes, got 3");
    }

    /**
     * From the review: each of many small attributes nests one quoted string in 18 arrays, which
     * Coroot's rendering re-escapes at every level (143 bytes become 17 MB); 60 of them are 9 KB
     * of record. The texts of one record share its bytes bound, so it is refused once that much
     * is rendered, not after each value has taken the whole bound.
     */
    @Test
    void manySmallValuesThatGrowExponentiallyShareTheRecordsBound() {
        AnyValue v = AnyValue.newBuilder().setStringValue("\"".repeat(64)).build();
        for (int i = 0; i < 18; i++) {
            v = AnyValue.newBuilder().setArrayValue(io.opentelemetry.proto.common.v1.ArrayValue.newBuilder().addValues(v)).build();
        }
        Span.Builder span = Span.newBuilder().setName("bomb");
        for (int i = 0; i < 60; i++) {
            span.addAttributes(KeyValue.newBuilder().setKey("k" + i).setValue(v));
        }
        byte[] req = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                .addScopeSpans(ScopeSpans.newBuilder().addSpans(span))).build().toByteArray();
        assertThat(req.length).isLessThan(10_000);
        RecordRows rows = new RecordRows(LAYOUTS, new io.tributary.tables.RecordBounds(1_000_000, 64 << 20));
        assertThatThrownBy(() -> RecordTranscoder.of(Signal.TRACES, Encoding.OTLP_PROTO, LAYOUTS).transcode(req, rows))
                .isInstanceOf(io.tributary.tables.OversizedRecordException.class)
                .hasMessageContaining("decode.max-bytes-per-record");
    }
}
