package io.tributary.tables;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.google.protobuf.Message;
import com.google.protobuf.ProtocolMessageEnum;
import com.google.protobuf.UnknownFieldSet;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.logs.v1.SeverityNumber;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.OtlpDecoder;
import io.tributary.otlp.Signal;
import io.tributary.otlp.json.OtlpJsonParser;
import io.tributary.otlp.json.OtlpJsonToWire;
import io.tributary.otlp.json.OtlpJsonWriter;
import io.tributary.schema.SchemaFlavor;
import io.tributary.tables.logs.LogsReader;
import io.tributary.tables.metrics.MetricsReader;
import io.tributary.tables.traces.TracesReader;
import io.tributary.testing.oracle.RandomOtlp;
import io.tributary.tools.loadgen.LoadShape;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * OTLP/JSON read straight into protobuf wire bytes ({@link OtlpJsonToWire}, as {@link
 * RecordTranscoder} uses it) against the message path it replaced ({@link OtlpJsonParser} through
 * {@link OtlpDecoder}, {@code toByteArray()}, the same wire reader), for traces, logs and metrics in
 * both schema flavours: the RowBinary bytes of every table of the signal are the same, and a record
 * refused by one is refused by the other with the same exception class and message.
 *
 * <p>The records: generated requests (every AnyValue kind, nesting, ids, odd numbers, NaN and
 * infinities, uint64 above 2^63, strings with escapes and every script) as the collector writes
 * them, and rewritten: snake_case keys, whitespace between all tokens, unknown keys with nested
 * values, null fields, null elements of repeated messages, enums by name, uppercase hex ids,
 * 64-bit integers as numbers and 32-bit ones as strings, characters as {@code \\u} escapes
 * (surrogate pairs too). For those the new path must not fall back to the message path, and its
 * bytes, parsed by protobuf-java, must be the message path's message. Then forms it leaves to the
 * message path (numeric strings for doubles, exponents on integers, keys given twice, escaped keys,
 * invalid UTF-8), the parser's own edge cases, and records cut short and damaged.
 */
class OtlpJsonWireDifferentialTest {

    private static final JsonFactory JSON = new JsonFactory();

    /**
     * Traces, logs and metrics: the generated requests and the odd and damaged forms are of those
     * three. Profiles' OTLP/JSON is held to their protobuf rows by {@code LoadShapeTest}.
     */
    static Stream<Arguments> signalsAndFlavours() {
        List<Arguments> out = new ArrayList<>();
        for (Signal s : List.of(Signal.TRACES, Signal.LOGS, Signal.METRICS)) {
            for (SchemaFlavor f : List.of(SchemaFlavor.MAP, SchemaFlavor.JSON)) { // the wire readers' flavours
                out.add(Arguments.of(s, f));
            }
        }
        return out.stream();
    }

    /** The two paths for one signal and flavour. */
    private static final class Paths {
        final Signal signal;
        final Message defaultInstance;
        final OtlpDecoder<Message> messages;
        final Reader reader;
        final RecordTranscoder transcoder;
        final RecordRows oldRows;
        final RecordRows newRows;
        final OtlpJsonToWire wire;

        @FunctionalInterface
        interface Reader {
            int transcode(byte[] value, RecordRows rows) throws Exception;
        }

        Paths(Signal signal, SchemaFlavor flavor) {
            this.signal = signal;
            TableLayouts layouts = TableLayouts.canonical(flavor);
            switch (signal) {
                case TRACES: {
                    defaultInstance = ExportTraceServiceRequest.getDefaultInstance();
                    TracesReader r = new TracesReader(layouts.traces());
                    reader = r::transcode;
                    break;
                }
                case LOGS: {
                    defaultInstance = ExportLogsServiceRequest.getDefaultInstance();
                    LogsReader r = new LogsReader(layouts.logs());
                    reader = r::transcode;
                    break;
                }
                default: {
                    defaultInstance = ExportMetricsServiceRequest.getDefaultInstance();
                    MetricsReader r = new MetricsReader(layouts);
                    reader = r::transcode;
                }
            }
            messages = new OtlpDecoder<>(Encoding.OTLP_JSON, defaultInstance);
            transcoder = RecordTranscoder.of(signal, Encoding.OTLP_JSON, layouts);
            oldRows = new RecordRows(layouts);
            newRows = new RecordRows(layouts);
            wire = new OtlpJsonToWire(defaultInstance.getDescriptorForType());
        }

        byte[] oldPath(byte[] json) throws Exception {
            try {
                reader.transcode(messages.decode(json).toByteArray(), oldRows);
                return framed(oldRows);
            } finally {
                oldRows.clear();
            }
        }

        byte[] newPath(byte[] json) throws Exception {
            try {
                transcoder.transcode(json, newRows);
                return framed(newRows);
            } finally {
                newRows.clear();
            }
        }

        /** Row count and RowBinary bytes of each of the signal's tables. */
        byte[] framed(RecordRows rows) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            for (OtelTable t : OtelTable.values()) {
                if (t.signal() == signal) {
                    byte[] b = rows.writer(t).toByteArray();
                    out.writeInt(rows.rows(t));
                    out.writeInt(b.length);
                    out.write(b);
                }
            }
            return bytes.toByteArray();
        }

        /**
         * Both paths give the same rows or the same refusal; returns whether the record was read.
         */
        boolean same(byte[] json, String what) {
            byte[] expected = null;
            Exception expectedError = null;
            try {
                expected = oldPath(json);
            } catch (Exception e) {
                expectedError = e;
            }
            byte[] actual = null;
            Exception actualError = null;
            try {
                actual = newPath(json);
            } catch (Exception e) {
                actualError = e;
            }
            if (expectedError != null) {
                assertThat(actualError).as("%s: refused as the message path refuses it (%s)", what, expectedError)
                        .isNotNull();
                assertThat(actualError.getClass()).as(what).isEqualTo(expectedError.getClass());
                assertThat(actualError.getMessage()).as(what).isEqualTo(expectedError.getMessage());
                return false;
            }
            assertThat(actualError).as("%s: read as the message path reads it", what).isNull();
            assertThat(actual).as("%s: the message path's rows", what).isEqualTo(expected);
            return true;
        }

        /**
         * The streaming reader takes the record itself, and its bytes are the message path's
         * message to protobuf-java.
         */
        void streamed(byte[] json, String what) throws Exception {
            assertThat(same(json, what)).as("%s: read", what).isTrue();
            byte[] b = wire.toWire(json);
            assertThat(b).as("%s: read without the message path: %s", what, new String(json, StandardCharsets.UTF_8))
                    .isNotNull();
            Message parsed = defaultInstance.getParserForType().parseFrom(b).toBuilder()
                    .setUnknownFields(UnknownFieldSet.getDefaultInstance()).build();
            assertThat(parsed).as(what).isEqualTo(OtlpJsonParser.parse(json, defaultInstance));
        }

        Message generate(RandomOtlp gen) {
            switch (signal) {
                case TRACES:
                    return gen.traces();
                case LOGS:
                    return gen.logs();
                default:
                    return gen.metrics();
            }
        }

        byte[] loadgen(LoadShape shape, long time) {
            switch (signal) {
                case TRACES:
                    return OtlpJsonWriter.write(shape.next(time));
                case LOGS:
                    return OtlpJsonWriter.write(shape.nextLogs(time));
                default:
                    return OtlpJsonWriter.write(shape.nextMetrics(time));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("signalsAndFlavours")
    void generatedRequestsInEveryCommonFormAreStreamedToTheMessagePathsRows(Signal signal, SchemaFlavor flavor)
            throws Exception {
        Paths p = new Paths(signal, flavor);
        int streamed = 0;
        for (long seed = 0; seed < 400; seed++) {
            RandomOtlp gen = new RandomOtlp(seed);
            Message req = p.generate(gen);
            byte[] json = OtlpJsonWriter.write(req);
            // a request the message path refuses as JSON (none is expected) is still held to its refusal
            boolean read = p.same(json, "seed " + seed);
            if (read) {
                streamed++;
                p.streamed(json, "seed " + seed + " as the collector writes it");
            }
            SplittableRandom r = new SplittableRandom(seed);
            for (int v = 0; v < 3; v++) {
                byte[] varied = vary(json, r, false);
                if (read) {
                    p.streamed(varied, "seed " + seed + " variant " + v);
                } else {
                    p.same(varied, "seed " + seed + " variant " + v);
                }
            }
        }
        LoadShape shape = new LoadShape(3, 100);
        for (int i = 0; i < 20; i++) {
            p.streamed(p.loadgen(shape, 1_764_460_800_000_000_000L + i * 1_000_000L), "loadgen record " + i);
        }
        assertThat(streamed).as("generated requests the message path reads").isGreaterThan(380);
    }

    @ParameterizedTest
    @MethodSource("signalsAndFlavours")
    void formsLeftToTheMessagePathGiveItsRows(Signal signal, SchemaFlavor flavor) throws Exception {
        Paths p = new Paths(signal, flavor);
        for (long seed = 0; seed < 200; seed++) {
            byte[] json = OtlpJsonWriter.write(p.generate(new RandomOtlp(seed)));
            SplittableRandom r = new SplittableRandom(seed * 31);
            for (int v = 0; v < 3; v++) {
                p.same(vary(json, r, true), "seed " + seed + " odd variant " + v);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("signalsAndFlavours")
    void damagedRecordsAreRefusedAsTheMessagePathRefusesThem(Signal signal, SchemaFlavor flavor) {
        Paths p = new Paths(signal, flavor);
        SplittableRandom r = new SplittableRandom(11);
        int refused = 0;
        for (long seed = 0; seed < 150; seed++) {
            byte[] json = OtlpJsonWriter.write(p.generate(new RandomOtlp(seed)));
            for (int k = 0; k < 4; k++) {
                byte[] cut = java.util.Arrays.copyOf(json, r.nextInt(json.length));
                refused += p.same(cut, "seed " + seed + " cut at " + cut.length) ? 0 : 1;
                byte[] damaged = json.clone();
                int at = r.nextInt(json.length);
                byte[] junk = {'{', '}', '[', ']', '"', ',', ':', '\\', 'n', '0', '-', ' ', (byte) 0xC3, (byte) 0xFF, 0, 'e'};
                damaged[at] = junk[r.nextInt(junk.length)];
                refused += p.same(damaged, "seed " + seed + " damaged at " + at) ? 0 : 1;
            }
        }
        assertThat(refused).as("records refused").isGreaterThan(300);
    }

    /** Hand-made records: the parser's own edge cases and more, for each signal. */
    @ParameterizedTest
    @MethodSource("signalsAndFlavours")
    void oddRecordsGiveTheMessagePathsAnswer(Signal signal, SchemaFlavor flavor) throws Exception {
        Paths p = new Paths(signal, flavor);
        for (String item : items(signal)) {
            for (String field : ODD_FIELDS) {
                String json = envelope(signal, "{" + item + field + "}");
                p.same(json.getBytes(StandardCharsets.UTF_8), field);
            }
        }
        for (String whole : ODD_RECORDS) {
            p.same(whole.getBytes(StandardCharsets.UTF_8), whole);
        }
        // invalid UTF-8 (the message path puts U+FFFD in its place), a BOM, NUL bytes
        String base = envelope(signal, "{" + items(signal).get(0) + "\"name\":\"x\"}");
        byte[][] raw = {
            base.replace("\"x\"", "\"a\u00FFb\"").getBytes(StandardCharsets.ISO_8859_1),
            base.replace("\"x\"", "\"\u00ED\u00A0\u0080\"").getBytes(StandardCharsets.ISO_8859_1),
            base.replace("\"x\"", "\"\u00C0\u0080\"").getBytes(StandardCharsets.ISO_8859_1),
            base.replace("\"x\"", "\"\u00F4\u0090\u0080\u0080\"").getBytes(StandardCharsets.ISO_8859_1),
            ("\uFEFF" + base).getBytes(StandardCharsets.UTF_8),
            base.replace("\"x\"", "\"a\u0000\"").getBytes(StandardCharsets.UTF_8),
            base.replace("\"x\"", "\"\u00E2\u0082\"").getBytes(StandardCharsets.ISO_8859_1),
        };
        for (byte[] b : raw) {
            p.same(b, new String(b, StandardCharsets.ISO_8859_1));
        }
        // the streamed forms among them
        for (String field : STREAMED_FIELDS) {
            String json = envelope(signal, "{" + items(signal).get(0) + field + "}");
            p.streamed(json.getBytes(StandardCharsets.UTF_8), field);
        }
        // nesting: streamed below its limit, left to the message path (and Jackson's limit) above it
        for (int levels : new int[] {10, 200, 230, 240, 260, 5000}) {
            String kv = "{\"key\":\"k\",\"value\":{\"kvlistValue\":{\"values\":[";
            String json = envelope(signal, "{" + items(signal).get(0) + "\"attributes\":[" + kv.repeat(levels)
                    + "]}}}".repeat(levels) + "]}");
            p.same(json.getBytes(StandardCharsets.UTF_8), "nesting " + levels);
            String unknown = envelope(signal, "{\"x\":" + "[".repeat(levels * 4) + "]".repeat(levels * 4) + "}");
            p.same(unknown.getBytes(StandardCharsets.UTF_8), "unknown nesting " + levels * 4);
        }
    }

    /** Fields the streaming reader takes (the record must not fall back to the message path). */
    private static final List<String> STREAMED_FIELDS = List.of(
            "\"name\":\"a\\ud800b\\udc00c\\ud83d\\ude00d\\u00e9\\u0000\\/\\b\\f\\n\\r\\t\\\"\\\\\"",
            "\"name\":\"\\uD800\\uD800\\uDC00\\uDBFF\"",
            "\"traceId\":\"0102030405060708090A0B0C0D0E0FfF\",\"spanId\":\"ABCDEFabcdef0123\"",
            "\"traceId\":\"\",\"spanId\":\"\"",
            "\"attributes\":[{\"key\":\"u\",\"value\":{\"intValue\":9223372036854775807}}]",
            "\"attributes\":[{\"key\":\"i\",\"value\":{\"intValue\":-9223372036854775808}},{\"key\":\"j\",\"value\":{\"intValue\":\"-0\"}}]",
            "\"attributes\":[{\"key\":\"d\",\"value\":{\"doubleValue\":\"NaN\"}},{\"value\":{\"doubleValue\":\"-Infinity\"}},{\"value\":{\"doubleValue\":-0}},{\"value\":{\"doubleValue\":5e-324}},{\"value\":{\"doubleValue\":1.7976931348623157e308}},{\"value\":{\"doubleValue\":0.30000000000000004}},{\"value\":{\"doubleValue\":123456789012345678901234567890}},{\"value\":{\"doubleValue\":1E+2}}]",
            "\"attributes\":[{\"key\":\"b\",\"value\":{\"bytesValue\":\"AAEC/w==\"}},{\"value\":{\"bytesValue\":\"AAEC_w\"}},{\"value\":{\"bytesValue\":\"\"}}]",
            "\"attributes\":[null,{\"key\":null,\"value\":null},{\"key\":\"x\",\"value\":{\"arrayValue\":{\"values\":[null,{}]}}}]",
            "\"attributes\":[{\"key\":\"o\",\"value\":{\"stringValue\":\"s\",\"intValue\":\"0\"}},{\"key\":\"p\",\"value\":{\"kvlistValue\":{},\"boolValue\":false}}]",
            "\"name\":\"first\",\"name\":\"second\",\"droppedAttributesCount\":\"4294967295\"",
            " \"unknown\" : { \"a\" : [ 1 , -2.5e-3 , true , false , null , \"\\u00e9\" , { } , [ ] ] } , \"name\" : \"x\" ",
            "\"flags\":4294967295,\"traceState\":\"\"");

    /** Fields of any item, most refused or left to the message path. */
    private static final List<String> ODD_FIELDS = List.of(
            "\"traceId\":\"abc\"",
            "\"spanId\":\"zzzzzzzzzzzzzzzz\"",
            "\"spanId\":\"\uFF10\uFF11eee19b7ec3c1b1\"",
            "\"name\":{\"a\":\"b\"}",
            "\"status\":\"ok\"",
            "\"kind\":\"SPAN_KIND_SERVR\"",
            "\"kind\":\"SPAN_KIND_SERVER\",\"severityNumber\":\"SEVERITY_NUMBER_WARN\"",
            "\"kind\":\"2\",\"severityNumber\":\" 13\"",
            "\"attributes\":[{\"key\":\"b\",\"value\":{\"bytesValue\":\"A\"}}]",
            "\"attributes\":[{\"key\":\"b\",\"value\":{\"bytesValue\":\"AB==\"}}]",
            "\"attributes\":[{\"key\":\"b\",\"value\":{\"bytesValue\":\"A+_B\"}}]",
            "\"attributes\":[{\"key\":\"b\",\"value\":{\"boolValue\":\"true\"}}]",
            "\"attributes\":[{\"key\":\"b\",\"value\":{\"doubleValue\":\" 1.5 \"}}]",
            "\"attributes\":[{\"key\":\"b\",\"value\":{\"doubleValue\":\"1e3\"}}]",
            "\"attributes\":[{\"key\":\"b\",\"value\":{\"doubleValue\":1e400}}]",
            "\"attributes\":[{\"key\":\"b\",\"value\":{\"doubleValue\":01}}]",
            "\"attributes\":[{\"key\":\"b\",\"value\":{\"intValue\":\"9223372036854775808\"}}]",
            "\"attributes\":[{\"key\":\"b\",\"value\":{\"intValue\":-9223372036854775809}}]",
            "\"attributes\":[{\"key\":\"b\",\"value\":{\"intValue\":1.0}}]",
            "\"attributes\":[{\"key\":\"b\",\"value\":{\"intValue\":\"+12\"}}]",
            "\"attributes\":[{\"key\":\"b\",\"value\":{\"kvlistValue\":{\"values\":[]},\"kvlistValue\":{}}}]",
            "\"attributes\":[{\"key\":\"b\",\"value\":{\"arrayValue\":{\"values\":[{\"intValue\":1}]},\"stringValue\":\"s\",\"arrayValue\":{}}}]",
            "\"attributes\":[{\"key\":\"b\",\"value\":{\"stringValue\":\"s\"},\"value\":{\"intValue\":3}}]",
            "\"attributes\":[{\"key\":\"b\",\"value\":{\"stringValue\":[\"s\"]}}]",
            "\"attributes\":[1]",
            "\"attributes\":{}",
            "\"attributes\":[{\"key\":\"b\",\"value\":{\"stringValue\":\"a\tb\"}}]",
            "\"attributes\":[{\"key\":\"b\",\"value\":{\"stringValue\":\"\\x\"}}]",
            "\"attributes\":[{\"key\":\"b\",\"value\":{\"stringValue\":\"\\u12\"}}]",
            "\"startTimeUnixNano\":\"18446744073709551616\"",
            "\"startTimeUnixNano\":\"18446744073709551615\",\"endTimeUnixNano\":18446744073709551615",
            "\"startTimeUnixNano\":-1",
            "\"startTimeUnixNano\":\"-1\"",
            "\"startTimeUnixNano\":1.5",
            "\"startTimeUnixNano\":1e999999999",
            "\"startTimeUnixNano\":\"\"",
            "\"startTimeUnixNano\":\" 1e3 \",\"endTimeUnixNano\":\"+0012\",\"droppedAttributesCount\":\"4294967295\",\"flags\":\"0\"",
            "\"startTimeUnixNano\":\"0000000000000000000001\"",
            "\"droppedAttributesCount\":4294967296",
            "\"droppedAttributesCount\":-1",
            "\"droppedAttributesCount\":\"-2147483648\"",
            "\"\\u006eame\":\"escaped key\"",
            "\"name\":\"x\",",
            "\"name\" \"x\"",
            "\"name\":\"x\"}",
            "\"name\":tru",
            "\"name\":nul",
            "\"name\":null",
            "\"status\":{\"code\":\"STATUS_CODE_ERROR\",\"message\":\"m\"},\"status\":{\"code\":1}",
            "\"status\":null,\"status\":{\"code\":1}",
            "\"events\":[{\"timeUnixNano\":\"1\",\"name\":\"e\"},null],\"links\":[{\"traceId\":\"0102030405060708090a0b0c0d0e0f10\",\"spanId\":\"0102030405060708\"}]",
            "\"body\":{\"kvlistValue\":{\"values\":[{\"key\":\"a\",\"value\":{\"doubleValue\":1.25}}]}},\"observedTimeUnixNano\":\"5\"",
            "\"body\":{\"stringValue\":\"x\"},\"body\":{\"intValue\":\"1\"}",
            "\"gauge\":{\"dataPoints\":[{\"asDouble\":0.1,\"timeUnixNano\":\"1\"},{\"asInt\":\"-5\"},{\"asDouble\":\"NaN\",\"asInt\":7}]}",
            "\"sum\":{\"aggregationTemporality\":\"AGGREGATION_TEMPORALITY_DELTA\",\"isMonotonic\":true,\"dataPoints\":[{\"asInt\":9007199254740993}]}",
            "\"histogram\":{\"aggregationTemporality\":2,\"dataPoints\":[{\"count\":\"3\",\"sum\":1.5,\"min\":-1,\"max\":null,\"bucketCounts\":[\"1\",2,\"0\"],\"explicitBounds\":[0.5,1,1e1]}]}",
            "\"histogram\":{\"dataPoints\":[{\"bucketCounts\":[null]}]}",
            "\"histogram\":{\"dataPoints\":[{\"explicitBounds\":[\"1\"]}]}",
            "\"exponentialHistogram\":{\"dataPoints\":[{\"scale\":-3,\"zeroCount\":\"2\",\"positive\":{\"offset\":-2,\"bucketCounts\":[1,\"2\"]},\"negative\":{\"offset\":5},\"zeroThreshold\":1e-9}]}",
            "\"summary\":{\"dataPoints\":[{\"quantileValues\":[{\"quantile\":0.99,\"value\":\"Infinity\"},null],\"sum\":3}]}",
            "\"gauge\":{\"dataPoints\":[{\"exemplars\":[{\"traceId\":\"0102030405060708090a0b0c0d0e0f10\",\"spanId\":\"0102030405060708\",\"asDouble\":2,\"filteredAttributes\":[{\"key\":\"f\",\"value\":{\"stringValue\":\"v\"}}]}]}]}",
            "\"gauge\":{},\"sum\":{\"dataPoints\":[{}]}",
            "\"sum\":{\"dataPoints\":[{}]},\"gauge\":{\"dataPoints\":[{}]}",
            "\"gauge\":{\"dataPoints\":[{}]},\"gauge\":{\"dataPoints\":[{}]}");

    private static final List<String> ODD_RECORDS = List.of(
            "", " ", "{", "}", "[]", "null", "{} {}", "{}", " {} \n", "{}x", "{\"resourceSpans\":[",
            "{\"resourceSpans\":{\"a\":1}}", "{\"resourceLogs\":[null]}", "{\"resourceMetrics\":[null,{}]}",
            "{\"resourceSpans\":[null,{}]}", "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{},{\"links\":[{},{\"spanId\":\"01\"}]}]}]}]}",
            "{\"a\":1,}", "{\"a\" 1}", "{'a':1}", "{\"a\":[1,]}", "{\"a\":-}", "{\"a\":1.}", "{\"a\":.5}", "{\"a\":+1}",
            "{\"a\":\"\\uZZZZ\"}", "{\"a\":NaN}", "{\"a\":1}/**/", "\t{\r\n}\t");

    /** A key and a resource/scope around one item object of the signal. */
    private static String envelope(Signal signal, String item) {
        switch (signal) {
            case TRACES:
                return "{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":"
                        + "{\"stringValue\":\"svc\"}}]},\"scopeSpans\":[{\"scope\":{\"name\":\"s\"},\"spans\":[" + item + "]}]}]}";
            case LOGS:
                return "{\"resourceLogs\":[{\"resource\":{},\"scopeLogs\":[{\"scope\":{\"name\":\"s\"},\"logRecords\":["
                        + item + "]}]}]}";
            default:
                return "{\"resourceMetrics\":[{\"resource\":{},\"scopeMetrics\":[{\"scope\":{\"name\":\"s\"},\"metrics\":["
                        + item + "]}]}]}";
        }
    }

    /** Prefixes of an item object that give it a row: a metric needs data. */
    private static List<String> items(Signal signal) {
        if (signal == Signal.METRICS) {
            return List.of("\"name\":\"m\",\"gauge\":{\"dataPoints\":[{\"asDouble\":1}]},",
                    "\"sum\":{\"dataPoints\":[{\"asInt\":\"1\"}]},");
        }
        return List.of("\"severityText\":\"INFO\",", "");
    }

    // ---- rewriting collector JSON in other valid forms

    private static final Set<String> ENUM_KEYS = Set.of("kind", "code", "severityNumber", "aggregationTemporality");
    private static final Set<String> HEX_KEYS = Set.of("traceId", "spanId", "parentSpanId");
    private static final Set<String> INT64_KEYS = Set.of("timeUnixNano", "startTimeUnixNano", "endTimeUnixNano",
            "observedTimeUnixNano", "intValue", "asInt", "count", "zeroCount", "bucketCounts");
    private static final Set<String> DOUBLE_KEYS = Set.of("doubleValue", "asDouble", "sum", "min", "max",
            "explicitBounds", "quantile", "value", "zeroThreshold");
    private static final Set<String> REPEATED_MESSAGE_KEYS = Set.of("resourceSpans", "scopeSpans", "spans",
            "resourceLogs", "scopeLogs", "logRecords", "resourceMetrics", "scopeMetrics", "metrics", "dataPoints",
            "exemplars", "attributes", "events", "links", "values", "quantileValues", "filteredAttributes", "metadata");
    private static final List<String> NULLABLE = List.of("name", "attributes", "resource", "scope", "schemaUrl",
            "droppedAttributesCount", "traceId", "spanId", "status", "body", "intValue", "flags", "sum", "unit",
            "exemplars", "positive");

    /** One open object or array of the rewritten JSON. */
    private static final class Level {
        final boolean object;
        final String key;
        int members;

        Level(boolean object, String key) {
            this.object = object;
            this.key = key;
        }
    }

    /**
     * {@code json} in another form that reads as the same request. With {@code odd}, also forms the
     * streaming reader leaves to the message path.
     */
    static byte[] vary(byte[] json, SplittableRandom r, boolean odd) throws IOException {
        StringBuilder out = new StringBuilder();
        List<Level> stack = new ArrayList<>();
        String key = null;
        boolean snake = r.nextBoolean();
        boolean spaces = r.nextBoolean();
        try (JsonParser p = JSON.createParser(json)) {
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                Level top = stack.isEmpty() ? null : stack.get(stack.size() - 1);
                boolean inArray = top != null && !top.object;
                if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                    if (t == JsonToken.END_OBJECT && r.nextInt(6) == 0) {
                        member(out, top, NULLABLE.get(r.nextInt(NULLABLE.size())), snake, spaces, r);
                        out.append("null");
                    }
                    ws(out, spaces, r);
                    out.append(t == JsonToken.END_OBJECT ? '}' : ']');
                    stack.remove(stack.size() - 1);
                    continue;
                }
                if (t == JsonToken.FIELD_NAME) {
                    if (r.nextInt(8) == 0) {
                        member(out, top, "unknown" + r.nextInt(5), snake, spaces, r);
                        randomValue(out, r, 0);
                    }
                    key = p.currentName();
                    member(out, top, key, snake, spaces, r);
                    if (odd && r.nextInt(40) == 0) {
                        // an escaped key: the message path reads it, the streaming reader leaves it
                        out.setLength(out.lastIndexOf("\""));
                        out.setLength(out.lastIndexOf("\"") + 1);
                        out.append("\\u").append(String.format("%04x", (int) (snake ? snake(key) : key).charAt(0)))
                                .append((snake ? snake(key) : key).substring(1)).append("\":");
                    }
                    continue;
                }
                String valueKey = inArray ? top.key : key;
                if (inArray) {
                    if (top.members++ > 0) {
                        out.append(',');
                    }
                    if (top.members == 1 && REPEATED_MESSAGE_KEYS.contains(valueKey) && t == JsonToken.START_OBJECT
                            && r.nextInt(15) == 0) {
                        out.append("null,");
                    }
                }
                ws(out, spaces, r);
                switch (t) {
                    case START_OBJECT:
                        out.append('{');
                        stack.add(new Level(true, valueKey));
                        break;
                    case START_ARRAY:
                        out.append('[');
                        stack.add(new Level(false, valueKey));
                        break;
                    case VALUE_STRING: {
                        String s = p.getText();
                        if (HEX_KEYS.contains(valueKey) && r.nextInt(3) == 0) {
                            out.append('"').append(s.toUpperCase(java.util.Locale.ROOT)).append('"');
                        } else if (INT64_KEYS.contains(valueKey) && s.matches("-?[1-9][0-9]{0,19}|0") && r.nextInt(3) == 0) {
                            out.append(s);
                        } else if (odd && INT64_KEYS.contains(valueKey) && s.matches("[0-9]+") && r.nextInt(4) == 0) {
                            out.append(s).append(".0");
                        } else {
                            // ids, numbers, enum names and base64 with escapes in them are left to the message path
                            boolean text = !(HEX_KEYS.contains(valueKey) || INT64_KEYS.contains(valueKey)
                                    || DOUBLE_KEYS.contains(valueKey) || ENUM_KEYS.contains(valueKey)
                                    || "bytesValue".equals(valueKey));
                            string(out, s, text || odd ? r : null);
                        }
                        break;
                    }
                    case VALUE_NUMBER_INT:
                    case VALUE_NUMBER_FLOAT: {
                        String s = p.getText();
                        String name = t == JsonToken.VALUE_NUMBER_INT && ENUM_KEYS.contains(valueKey)
                                ? enumName(valueKey, p.getIntValue()) : null;
                        if (name != null && r.nextBoolean()) {
                            out.append('"').append(name).append('"');
                        } else if (odd && DOUBLE_KEYS.contains(valueKey) && r.nextInt(3) == 0) {
                            out.append('"').append(s).append('"');
                        } else if (!odd && t == JsonToken.VALUE_NUMBER_INT && !DOUBLE_KEYS.contains(valueKey)
                                && name == null && r.nextInt(3) == 0) {
                            out.append('"').append(s).append('"');
                        } else if (DOUBLE_KEYS.contains(valueKey) && t == JsonToken.VALUE_NUMBER_FLOAT && r.nextInt(4) == 0) {
                            // the same double written with an exponent
                            out.append(new java.math.BigDecimal(s).toString().replace("E", r.nextBoolean() ? "e" : "E"));
                        } else {
                            out.append(s);
                        }
                        break;
                    }
                    default:
                        out.append(p.getText());
                }
            }
        }
        ws(out, spaces, r);
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void member(StringBuilder out, Level top, String key, boolean snake, boolean spaces,
            SplittableRandom r) {
        if (top.members++ > 0) {
            out.append(',');
        }
        ws(out, spaces, r);
        out.append('"').append(snake ? snake(key) : key).append('"');
        ws(out, spaces, r);
        out.append(':');
        ws(out, spaces, r);
    }

    private static String snake(String camel) {
        StringBuilder b = new StringBuilder();
        for (char c : camel.toCharArray()) {
            if (c >= 'A' && c <= 'Z') {
                b.append('_').append((char) (c - 'A' + 'a'));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    private static String enumName(String key, int number) {
        ProtocolMessageEnum e;
        if ("kind".equals(key)) {
            e = Span.SpanKind.forNumber(number);
        } else if ("code".equals(key)) {
            e = Status.StatusCode.forNumber(number);
        } else if ("severityNumber".equals(key)) {
            e = SeverityNumber.forNumber(number);
        } else if ("aggregationTemporality".equals(key)) {
            e = AggregationTemporality.forNumber(number);
        } else {
            return null;
        }
        return e == null ? null : e.getValueDescriptor().getName();
    }

    private static void ws(StringBuilder out, boolean spaces, SplittableRandom r) {
        if (spaces) {
            for (int i = r.nextInt(3); i > 0; i--) {
                out.append(" \t\r\n".charAt(r.nextInt(4)));
            }
        }
    }

    /** {@code s} as a JSON string, some characters escaped that need not be unless {@code r} is null. */
    private static void string(StringBuilder out, String s, SplittableRandom r) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || r != null && r.nextInt(10) == 0) {
                out.append(String.format(r != null && r.nextBoolean() ? "\\u%04x" : "\\u%04X", (int) c));
                if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
                    // a pair is escaped whole: half of it raw would not be UTF-8
                    out.append(String.format("\\u%04x", (int) s.charAt(++i)));
                }
            } else if (c == '/' && r != null && r.nextBoolean()) {
                out.append("\\/");
            } else {
                out.append(c);
            }
        }
        out.append('"');
    }

    private static void randomValue(StringBuilder out, SplittableRandom r, int depth) {
        switch (r.nextInt(depth > 2 ? 6 : 8)) {
            case 0:
                out.append("null");
                break;
            case 1:
                out.append(r.nextBoolean());
                break;
            case 2:
                out.append(new String[] {"0", "-1", "12.5e-3", "1E+300", "123456789012345678901234567890"}[r.nextInt(5)]);
                break;
            case 3:
                string(out, "x\u00e9\uD83D\uDE00\n", r);
                break;
            case 4:
                out.append("\"\"");
                break;
            case 5:
                out.append("{}");
                break;
            case 6: {
                out.append('[');
                for (int i = r.nextInt(3); i > 0; i--) {
                    randomValue(out, r, depth + 1);
                    out.append(i > 1 ? "," : "");
                }
                out.append(']');
                break;
            }
            default: {
                out.append('{');
                for (int i = r.nextInt(3); i > 0; i--) {
                    out.append("\"k").append(i).append("\" : ");
                    randomValue(out, r, depth + 1);
                    out.append(i > 1 ? "," : "");
                }
                out.append('}');
            }
        }
    }
}
