package io.tributary.otlp.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.OtlpDecoder;
import io.tributary.otlp.Signal;
import io.tributary.otlp.json.OtlpJsonWriter;
import io.tributary.schema.SchemaFlavor;
import io.tributary.tables.OtelTable;
import io.tributary.tables.RecordRows;
import io.tributary.tables.RecordTranscoder;
import io.tributary.tables.TableLayouts;
import io.tributary.testing.Fuzzing;
import io.tributary.testing.oracle.OracleLogs;
import io.tributary.testing.oracle.OracleTraces;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Coverage-guided fuzzing of the OTLP/JSON reader ({@code OtlpJsonParser} behind {@link
 * OtlpDecoder}): the first byte picks the signal, the rest is the record. The reader either refuses
 * it as documented (malformed JSON, JSON that is not OTLP), and then so does the job's transcoder,
 * or it reads a request that (1) survives protobuf encoding unchanged, as the job's JSON path
 * encodes it, (2) the job's transcoder turns into exactly the rows the oracle writes for it
 * (traces, logs) or one row per point (metrics), and (3) whose collector JSON form, written by
 * {@link OtlpJsonWriter}, reads back into the same rows. The dictionary holds OTLP/JSON's keys
 * (in libFuzzer's syntax, where a backslash is written twice).
 */
class OtlpJsonFuzzTest {

    private static final Signal[] SIGNALS = {Signal.TRACES, Signal.LOGS, Signal.METRICS};
    @SuppressWarnings("unchecked")
    private static final OtlpDecoder<? extends Message>[] DECODERS = new OtlpDecoder[] {
        new OtlpDecoder<>(Encoding.OTLP_JSON, ExportTraceServiceRequest.getDefaultInstance()),
        new OtlpDecoder<>(Encoding.OTLP_JSON, ExportLogsServiceRequest.getDefaultInstance()),
        new OtlpDecoder<>(Encoding.OTLP_JSON, ExportMetricsServiceRequest.getDefaultInstance())};
    private static final TableLayouts LAYOUTS = TableLayouts.canonical(SchemaFlavor.MAP);
    private static final RecordRows ROWS = new RecordRows(LAYOUTS);
    private static final RecordTranscoder[] TRANSCODERS = {
        RecordTranscoder.of(Signal.TRACES, Encoding.OTLP_JSON, LAYOUTS),
        RecordTranscoder.of(Signal.LOGS, Encoding.OTLP_JSON, LAYOUTS),
        RecordTranscoder.of(Signal.METRICS, Encoding.OTLP_JSON, LAYOUTS)};
    private static final OracleTraces TRACES = new OracleTraces(SchemaFlavor.MAP);
    private static final OracleLogs LOGS = new OracleLogs(SchemaFlavor.MAP);

    @FuzzTest(maxDuration = Fuzzing.LONG)
    @DictionaryEntries({"\"resourceSpans\"", "\"resourceLogs\"", "\"resourceMetrics\"", "\"scopeSpans\"", "\"scopeLogs\"",
        "\"scopeMetrics\"", "\"spans\"", "\"logRecords\"", "\"metrics\"", "\"resource\"", "\"scope\"", "\"attributes\"",
        "\"key\"", "\"value\"", "\"stringValue\"", "\"intValue\"", "\"doubleValue\"", "\"boolValue\"", "\"bytesValue\"",
        "\"arrayValue\"", "\"kvlistValue\"", "\"values\"", "\"traceId\"", "\"spanId\"", "\"parentSpanId\"", "\"name\"",
        "\"kind\"", "\"startTimeUnixNano\"", "\"endTimeUnixNano\"", "\"timeUnixNano\"", "\"observedTimeUnixNano\"",
        "\"severityNumber\"", "\"severityText\"", "\"body\"", "\"flags\"", "\"events\"", "\"links\"", "\"status\"",
        "\"code\"", "\"message\"", "\"gauge\"", "\"sum\"", "\"histogram\"", "\"exponentialHistogram\"", "\"summary\"",
        "\"dataPoints\"", "\"asDouble\"", "\"asInt\"", "\"bucketCounts\"", "\"explicitBounds\"", "\"exemplars\"",
        "\"NaN\"", "\"Infinity\"", "\"-Infinity\"", "\"18446744073709551615\"", "\\\\u0000", "\\\\ud800", "null", "true"})
    void readsOtlpJsonAsTheCollectorDoesOrRefusesIt(byte[] input) throws Exception {
        if (input.length == 0) {
            return;
        }
        int s = (input[0] & 0xFF) % SIGNALS.length;
        byte[] json = Arrays.copyOfRange(input, 1, input.length);
        Message request;
        try {
            request = DECODERS[s].decode(json);
        } catch (Throwable e) {
            if (!Fuzzing.documented(e)) {
                throw Fuzzing.finding(e);
            }
            assertThat(transcode(s, json)).as("the job's transcoder refuses what the reader refuses").isNull();
            return;
        }
        // the job's JSON path encodes what it read as protobuf: strings must survive that (the
        // collector reads an unpaired surrogate escape as U+FFFD, protobuf-java would write '?')
        assertThat(request.getParserForType().parseFrom(request.toByteArray())).as("as protobuf and back").isEqualTo(request);
        Written rows = transcode(s, json);
        assertThat(rows).as("the job's JSON path reads what the reader reads").isNotNull();
        switch (SIGNALS[s]) {
            case TRACES:
                assertThat(rows.table()).as("rows of the job's JSON path")
                        .isEqualTo(TRACES.rows((ExportTraceServiceRequest) request));
                break;
            case LOGS:
                assertThat(rows.table()).as("rows of the job's JSON path").isEqualTo(LOGS.rows((ExportLogsServiceRequest) request));
                break;
            default:
                assertThat(rows.count()).as("rows of the job's JSON path").isEqualTo(Fuzzing.rows(request));
                break;
        }
        // the collector holds resource, scope and the like by value: written back, an absent one is
        // there and empty, which changes the message but none of its rows
        byte[] written = OtlpJsonWriter.write(request);
        Written again = transcode(s, written);
        assertThat(again).as("read back from %s", new String(written, StandardCharsets.UTF_8)).isNotNull();
        assertThat(again.all()).as("rows read back from %s", new String(written, StandardCharsets.UTF_8)).isEqualTo(rows.all());
    }

    /** What the transcoder wrote: the rows of the signal's table (traces, logs), of all tables, and their number. */
    private record Written(byte[] table, byte[] all, int count) {}

    /** What the job's transcoder writes for the record, or null when it refuses it. */
    private static Written transcode(int s, byte[] json) {
        try {
            TRANSCODERS[s].transcode(json, ROWS);
            OtelTable table = SIGNALS[s] == Signal.TRACES ? OtelTable.TRACES : SIGNALS[s] == Signal.LOGS ? OtelTable.LOGS : null;
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (OtelTable t : OtelTable.values()) {
                all.write(t.ordinal());
                all.writeBytes(ROWS.writer(t).toByteArray());
            }
            return new Written(table == null ? null : ROWS.writer(table).toByteArray(), all.toByteArray(), ROWS.total());
        } catch (Throwable e) {
            if (!Fuzzing.documented(e)) {
                throw Fuzzing.finding(e);
            }
            return null;
        } finally {
            ROWS.clear();
        }
    }
}
