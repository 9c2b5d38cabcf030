package io.tributary.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.tributary.TributaryJob;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.deadletter.DeadLetterSerializer;
import io.tributary.encoding.Encodings;
import io.tributary.encoding.RecordHeaders;
import io.tributary.encoding.jaeger.model.JaegerModel;
import io.tributary.encoding.zipkin.ZipkinFixtures;
import io.tributary.schema.TableEngine;
import io.tributary.testing.RealServices;
import io.tributary.topology.SchemaManager;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import zipkin2.codec.SpanBytesEncoder;

/**
 * The log-line encodings ({@code raw}, {@code text_<charset>}, {@code json}) and header extraction
 * on the real services, chosen per topic with {@code kafka.encodings.logs}: every column of every
 * row equals what the job writes for the OTLP request the collector's kafkareceiver builds from the
 * same record ({@code internal/unmarshaler/raw_unmarshaler.go}, {@code text_logs_unmarshaler.go},
 * {@code json_logs_unmarshaler.go}; headers: {@code kafka_receiver.go}, PutStr of {@code
 * kafka.header.<name>} on every resource), produced as OTLP to a second run. The observed time the
 * receiver sets (now) is compared apart: within the run for text and json, none for raw.
 */
class EncodingsITCase {

    @RegisterExtension
    static final MiniClusterExtension FLINK = RealServices.miniCluster(2);

    private record Sent(byte[] value, Object[][] headers) {}

    @Test
    void logLinesAndHeadersLandAsTheirOtlpRequestsDo() throws Exception {
        String p = RealServices.uniqueName("it_enc");
        String raw = p + "_raw", text = p + "_text", json = p + "_json", otlpLogs = p + "_otlp_logs", spans = p + "_spans";
        String expectLogs = p + "_expect_logs", expectSpans = p + "_expect_spans", dlq = p + "_dlq";
        for (String t : List.of(raw, text, json, otlpLogs, spans, expectLogs, expectSpans, dlq)) {
            RealServices.createTopic(t, 1);
        }
        Object[][] tenant = {{"tenant", "acme"}, {"env", "prod"}, {"tenant", "second value ignored"}};
        Object[][] none = {{"unrelated", "x"}};
        byte[] latin = {'c', 'a', 'f', (byte) 0xE9, ' ', (byte) 0x80, '5'}; // windows-1252: "café €5"
        produce(raw, List.of(new Sent(new byte[] {0, 1, (byte) 0xFF}, tenant), new Sent("plain".getBytes(StandardCharsets.UTF_8), none)));
        produce(text, List.of(new Sent(latin, tenant)));
        produce(json, List.of(
                new Sent("{\"msg\":\"hi\",\"n\":42,\"ok\":true,\"a\":[1.5,\"x\"],\"o\":{\"k\":null},\"d\":1,\"d\":2}"
                        .getBytes(StandardCharsets.UTF_8), tenant),
                new Sent("[\"not an object\"]".getBytes(StandardCharsets.UTF_8), tenant),
                new Sent("null".getBytes(StandardCharsets.UTF_8), none)));
        ExportLogsServiceRequest otlp = ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
                        .setResource(Resource.newBuilder().addAttributes(str("service.name", "api")).addAttributes(str("kafka.header.env", "old")))
                        .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(LogRecord.newBuilder().setTimeUnixNano(1_700_000_000_000_000_000L)
                                .setBody(AnyValue.newBuilder().setStringValue("otlp")))))
                .addResourceLogs(ResourceLogs.newBuilder().addScopeLogs(ScopeLogs.newBuilder().addLogRecords(LogRecord.newBuilder()
                        .setTimeUnixNano(1_700_000_000_000_000_001L).setBody(AnyValue.newBuilder().setStringValue("second resource"))))).build();
        produce(otlpLogs, List.of(new Sent(otlp.toByteArray(), tenant)));
        ExportTraceServiceRequest traces = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                .setResource(Resource.newBuilder().addAttributes(str("service.name", "checkout")))
                .addScopeSpans(ScopeSpans.newBuilder().addSpans(Span.newBuilder().setName("GET /")
                        .setTraceId(ByteString.copyFrom(new byte[16])).setSpanId(ByteString.copyFrom(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}))
                        .setStartTimeUnixNano(1_700_000_000_000_000_000L).setEndTimeUnixNano(1_700_000_000_500_000_000L)))).build();
        // a header that is not UTF-8: every OTLP string of the job reads it with U+FFFD (docs/encodings.md)
        byte[] notUtf8 = {'a', (byte) 0xFF};
        produce(spans, List.of(new Sent(traces.toByteArray(), new Object[][] {{"tenant", notUtf8}, {"env", null}})));

        long before = System.currentTimeMillis() * 1_000_000L;
        run(p, raw + "," + text + "," + json + "," + otlpLogs, spans,
                raw + ":raw," + text + ":text_windows-1252,^" + p + "_js.n$:json,otlp_proto", dlq);
        long after = System.currentTimeMillis() * 1_000_000L;

        // what the receiver builds from each record, with the headers on every resource, as OTLP
        List<byte[]> expected = new ArrayList<>();
        expected.add(logs(LogRecord.newBuilder().setBody(AnyValue.newBuilder()
                .setBytesValue(ByteString.copyFrom(new byte[] {0, 1, (byte) 0xFF}))), true));
        expected.add(logs(LogRecord.newBuilder().setBody(AnyValue.newBuilder()
                .setBytesValue(ByteString.copyFromUtf8("plain"))), false));
        expected.add(logs(LogRecord.newBuilder().setBody(AnyValue.newBuilder().setStringValue("café €5")), true));
        expected.add(logs(LogRecord.newBuilder().setBody(AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder()
                .addValues(kv("msg", AnyValue.newBuilder().setStringValue("hi")))
                .addValues(kv("n", AnyValue.newBuilder().setDoubleValue(42)))
                .addValues(kv("ok", AnyValue.newBuilder().setBoolValue(true)))
                .addValues(kv("a", AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder()
                        .addValues(AnyValue.newBuilder().setDoubleValue(1.5)).addValues(AnyValue.newBuilder().setStringValue("x")))))
                .addValues(kv("o", AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder().addValues(kv("k", AnyValue.newBuilder())))))
                .addValues(kv("d", AnyValue.newBuilder().setDoubleValue(2))))), true));
        expected.add(logs(LogRecord.newBuilder().setBody(AnyValue.newBuilder()
                .setKvlistValue(KeyValueList.getDefaultInstance())), false));
        ExportLogsServiceRequest.Builder o = otlp.toBuilder();
        o.getResourceLogsBuilder(0).setResource(Resource.newBuilder().addAttributes(str("service.name", "api"))
                .addAttributes(str("kafka.header.tenant", "acme")).addAttributes(str("kafka.header.env", "prod")));
        o.getResourceLogsBuilder(1).setResource(Resource.newBuilder()
                .addAttributes(str("kafka.header.tenant", "acme")).addAttributes(str("kafka.header.env", "prod")));
        expected.add(o.build().toByteArray());
        RealServices.produce(expectLogs, expected);
        ExportTraceServiceRequest.Builder t = traces.toBuilder();
        // protobuf-java writes no string that is not UTF-8: "a~", then its '~' made the header's 0xFF
        t.getResourceSpansBuilder(0).getResourceBuilder().addAttributes(str("kafka.header.tenant", "a~"))
                .addAttributes(str("kafka.header.env", ""));
        byte[] expectedSpan = t.build().toByteArray();
        int at = indexOf(expectedSpan, new byte[] {0x0A, 2, 'a', '~'});
        assertThat(at).isPositive();
        expectedSpan[at + 3] = (byte) 0xFF;
        RealServices.produce(expectSpans, List.of(expectedSpan));
        run(p + "_expect", expectLogs, expectSpans, "otlp_proto", dlq);

        String except = " EXCEPT (Timestamp, TimestampTime)";
        assertThat(rows(p, "otel_logs", except)).as("every column but the observed time, each log record")
                .hasSize(7).isEqualTo(rows(p + "_expect", "otel_logs", except));
        assertThat(rows(p, "otel_traces", "")).as("every column of the span").hasSize(1).isEqualTo(rows(p + "_expect", "otel_traces", ""));
        // the time: none for raw (the receiver sets none), now for text and json, the record's own for OTLP
        String times = RealServices.clickHouse().query("SELECT toUnixTimestamp64Nano(Timestamp), Body FROM `" + p
                + "`.otel_logs ORDER BY Body FORMAT TSV");
        for (String line : times.split("\n")) {
            String[] f = line.split("\t", 2);
            long ns = Long.parseLong(f[0]);
            if (f[1].equals("AAH/") || f[1].equals("cGxhaW4=")) {
                assertThat(ns).as("raw: " + f[1]).isZero();
            } else if (f[1].equals("otlp") || f[1].equals("second resource")) {
                assertThat(ns).as(f[1]).isBetween(1_700_000_000_000_000_000L, 1_700_000_000_000_000_001L);
            } else {
                assertThat(ns).as("observed now: " + f[1]).isBetween(before, after);
            }
        }
        assertThat(RealServices.clickHouse().query("SELECT hex(ResourceAttributes['kafka.header.tenant']),"
                + " ResourceAttributes['kafka.header.env'] FROM `" + p + "`.otel_traces FORMAT TSV"))
                .as("a header that is not UTF-8: U+FFFD for the invalid byte, as any OTLP string; one without value: ''")
                .isEqualTo("61EFBFBD\t\n");
        List<ConsumerRecord<byte[], byte[]>> letters = RealServices.consumeAll(dlq);
        assertThat(letters).as("the array document, once").hasSize(1);
        assertThat(RealServices.header(letters.get(0), DeadLetterSerializer.ERROR_MESSAGE))
                .contains("invalid JSON log record: the document is an array, not an object");
        assertThat(new String(letters.get(0).value(), StandardCharsets.UTF_8)).isEqualTo("[\"not an object\"]");
        RealServices.dropDatabases(p, p + "_expect");
    }

    /**
     * Zipkin v2 spans written by the zipkin2 library in JSON and proto3, per topic in {@code
     * kafka.encodings.traces}: every column of every span equals what the job writes for the OTLP
     * request the collector's zipkinv2 translator makes of them ({@link ZipkinFixtures#expected}).
     */
    @Test
    void zipkinSpansLandAsTheCollectorTranslatesThem() throws Exception {
        String p = RealServices.uniqueName("it_zipkin");
        String json = p + "_json", proto = p + "_proto", expect = p + "_expect", dlq = p + "_dlq", logs = p + "_logs";
        for (String t : List.of(json, proto, expect, dlq, logs)) {
            RealServices.createTopic(t, 1);
        }
        RealServices.produce(json, List.of(SpanBytesEncoder.JSON_V2.encodeList(ZipkinFixtures.spans()),
                "[{\"traceId\":\"1\",\"id\":\"0\"}]".getBytes(StandardCharsets.UTF_8)));
        RealServices.produce(proto, List.of(SpanBytesEncoder.PROTO3.encodeList(ZipkinFixtures.spans())));
        byte[] otlp = ZipkinFixtures.expected().toByteArray();
        RealServices.produce(expect, List.of(otlp, otlp));
        runTraces(p, json + "," + proto, json + ":zipkin_json," + proto + ":zipkin_proto", logs, dlq);
        runTraces(p + "_expect", expect, "otlp_proto", logs, dlq);
        assertThat(rows(p, "otel_traces", "")).as("every column of every span, both encodings").hasSize(6)
                .isEqualTo(rows(p + "_expect", "otel_traces", ""));
        List<ConsumerRecord<byte[], byte[]>> letters = RealServices.consumeAll(dlq);
        assertThat(letters).hasSize(1);
        assertThat(RealServices.header(letters.get(0), DeadLetterSerializer.ERROR_MESSAGE)).contains("valid span id required");

        // v1 thrift, as the zipkin2 library writes it: the rows of the request the v1 translator makes
        // (held to the collector's rules in ZipkinThriftTest)
        String thrift = p + "_thrift", expectThrift = p + "_expect_thrift";
        RealServices.createTopic(thrift, 1);
        RealServices.createTopic(expectThrift, 1);
        byte[] v1 = SpanBytesEncoder.THRIFT.encodeList(ZipkinFixtures.spans());
        RealServices.produce(thrift, List.of(v1));
        RealServices.produce(expectThrift, List.of(Encodings.decoder("zipkin_thrift", io.tributary.otlp.Signal.TRACES)
                .decode(v1, RecordHeaders.NONE)));
        runTraces(p + "_thrift", thrift, "zipkin_thrift", logs, dlq);
        runTraces(p + "_expect_thrift", expectThrift, "otlp_proto", logs, dlq);
        List<String> v1Rows = rows(p + "_thrift", "otel_traces", "");
        assertThat(v1Rows).hasSize(3).isEqualTo(rows(p + "_expect_thrift", "otel_traces", ""));
        assertThat(String.join("\n", v1Rows)).contains("frontend", "get /api");
        RealServices.dropDatabases(p, p + "_expect", p + "_thrift", p + "_expect_thrift");
    }

    /**
     * Jaeger spans built with the Jaeger model classes, in protobuf and Jaeger's JSON: every column
     * equals what the job writes for the OTLP request the translation makes of the record (the
     * translation itself is held to the collector's rules in {@code JaegerEncodingTest}); a record
     * that is not a span is a dead letter.
     */
    @Test
    void jaegerSpansLandAsTheirOtlpDoes() throws Exception {
        String p = RealServices.uniqueName("it_jaeger");
        String proto = p + "_proto", json = p + "_json", expect = p + "_expect", dlq = p + "_dlq", logs = p + "_logs";
        for (String t : List.of(proto, json, expect, dlq, logs)) {
            RealServices.createTopic(t, 1);
        }
        JaegerModel.Span span = JaegerModel.Span.newBuilder()
                .setTraceId(ByteString.copyFrom(new byte[] {0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9}))
                .setSpanId(ByteString.copyFrom(new byte[] {1, 1, 1, 1, 1, 1, 1, 1}))
                .setOperationName("HTTP GET /cart")
                .addReferences(JaegerModel.SpanRef.newBuilder().setTraceId(ByteString.copyFrom(new byte[] {0, 0, 0, 0, 0, 0, 0, 1, 2, 3,
                        4, 5, 6, 7, 8, 9})).setSpanId(ByteString.copyFrom(new byte[] {2, 2, 2, 2, 2, 2, 2, 2})))
                .setStartTime(com.google.protobuf.Timestamp.newBuilder().setSeconds(1_764_000_000L).setNanos(123_000))
                .setDuration(com.google.protobuf.Duration.newBuilder().setNanos(2_500_000))
                .addTags(JaegerModel.KeyValue.newBuilder().setKey("span.kind").setVStr("server"))
                .addTags(JaegerModel.KeyValue.newBuilder().setKey("http.status_code").setVType(JaegerModel.ValueType.INT64).setVInt64(503))
                .addTags(JaegerModel.KeyValue.newBuilder().setKey("retry").setVType(JaegerModel.ValueType.BOOL).setVBool(true))
                .addLogs(JaegerModel.Log.newBuilder().setTimestamp(com.google.protobuf.Timestamp.newBuilder().setSeconds(1_764_000_000L))
                        .addFields(JaegerModel.KeyValue.newBuilder().setKey("event").setVStr("cache miss")))
                .setProcess(JaegerModel.Process.newBuilder().setServiceName("cart")
                        .addTags(JaegerModel.KeyValue.newBuilder().setKey("hostname").setVStr("cart-7")))
                .build();
        RealServices.produce(proto, List.of(span.toByteArray(), "not a span".getBytes(StandardCharsets.UTF_8)));
        RealServices.produce(json, List.of(com.google.protobuf.util.JsonFormat.printer().print(span).getBytes(StandardCharsets.UTF_8)));
        byte[] otlp = Encodings.decoder("jaeger_proto", io.tributary.otlp.Signal.TRACES).decode(span.toByteArray(), RecordHeaders.NONE);
        RealServices.produce(expect, List.of(otlp, otlp));
        runTraces(p, proto + "," + json, proto + ":jaeger_proto," + json + ":jaeger_json", logs, dlq);
        runTraces(p + "_expect", expect, "otlp_proto", logs, dlq);
        List<String> rows = rows(p, "otel_traces", "");
        assertThat(rows).as("every column, both encodings").hasSize(2).isEqualTo(rows(p + "_expect", "otel_traces", ""));
        assertThat(rows.get(0)).contains("cart", "HTTP GET /cart", "Server", "Error", "host.name", "cache miss");
        assertThat(RealServices.consumeAll(dlq)).hasSize(1);
        RealServices.dropDatabases(p, p + "_expect");
    }

    private static void runTraces(String db, String topics, String encodings, String logs, String dlq) throws Exception {
        TributaryConfig config = TributaryConfig.fromArgs(new String[] {
            "--signals", "traces",
            "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
            "--kafka.topics.traces", topics,
            "--kafka.topics.logs", logs,
            "--kafka.encodings.traces", encodings,
            "--kafka.group-id", db,
            "--kafka.bounded", "true",
            "--kafka.starting-offsets", "earliest",
            "--dlq.topic", dlq,
            "--parallelism", "1",
            "--clickhouse.url", RealServices.clickHouseUrl(),
            "--clickhouse.database", db,
            "--checkpoint.interval", "1h"
        });
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
        TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), config);
    }

    /** One record in one resource (with the headers' attributes when it had them) and one scope. */
    private static byte[] logs(LogRecord.Builder r, boolean headers) {
        Resource.Builder res = Resource.newBuilder();
        if (headers) {
            res.addAttributes(str("kafka.header.tenant", "acme")).addAttributes(str("kafka.header.env", "prod"));
        }
        return ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder().setResource(res)
                .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(r))).build().toByteArray();
    }

    private static int indexOf(byte[] b, byte[] what) {
        outer:
        for (int i = 0; i + what.length <= b.length; i++) {
            for (int j = 0; j < what.length; j++) {
                if (b[i + j] != what[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static List<String> rows(String db, String table, String except) throws Exception {
        List<String> out = new ArrayList<>(List.of(RealServices.clickHouse()
                .query("SELECT *" + except + " FROM `" + db + "`.`" + table + "` FORMAT TSV").split("\n")));
        out.removeIf(String::isEmpty);
        out.sort(null);
        return out;
    }

    private static KeyValue str(String k, String v) {
        return KeyValue.newBuilder().setKey(k).setValue(AnyValue.newBuilder().setStringValue(v)).build();
    }

    private static KeyValue kv(String k, AnyValue.Builder v) {
        return KeyValue.newBuilder().setKey(k).setValue(v).build();
    }

    private static void produce(String topic, List<Sent> records) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, RealServices.kafkaBootstrap());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            for (Sent s : records) {
                ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(topic, 0, null, s.value());
                for (Object[] h : s.headers()) {
                    byte[] v = h[1] instanceof String str ? str.getBytes(StandardCharsets.UTF_8) : (byte[]) h[1];
                    r.headers().add((String) h[0], v);
                }
                producer.send(r).get();
            }
        }
    }

    private static void run(String db, String logTopics, String traceTopics, String logEncodings, String dlq) throws Exception {
        TributaryConfig config = TributaryConfig.fromArgs(new String[] {
            "--signals", "traces,logs",
            "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
            "--kafka.topics.traces", traceTopics,
            "--kafka.topics.logs", logTopics,
            "--kafka.encodings.logs", logEncodings,
            "--kafka.encodings.traces", "otlp_proto",
            "--kafka.header-extraction.headers", "tenant,env,absent",
            "--kafka.group-id", db,
            "--kafka.bounded", "true",
            "--kafka.starting-offsets", "earliest",
            "--dlq.topic", dlq,
            "--parallelism", "1",
            "--clickhouse.url", RealServices.clickHouseUrl(),
            "--clickhouse.database", db,
            "--checkpoint.interval", "1h"
        });
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
        TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), config);
    }
}
