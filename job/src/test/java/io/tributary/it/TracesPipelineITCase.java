package io.tributary.it;

import static io.tributary.testing.Otlp.arr;
import static io.tributary.testing.Otlp.b;
import static io.tributary.testing.Otlp.d;
import static io.tributary.testing.Otlp.i;
import static io.tributary.testing.Otlp.kv;
import static io.tributary.testing.Otlp.map;
import static io.tributary.testing.Otlp.str;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import io.opentelemetry.proto.trace.v1.TracesData;
import io.tributary.TributaryJob;
import io.tributary.clickhouse.ClickHouseClient;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.otlp.json.OtlpJsonWriter;
import io.tributary.schema.TableEngine;
import io.tributary.testing.RealServices;
import io.tributary.topology.SchemaManager;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Traces end to end on the real services: OTLP records (protobuf and JSON mixed, several
 * resources and scopes, events, links, every attribute value type, unicode) produced to Kafka,
 * the job run on a MiniCluster in bounded mode with checkpoints, then every column of every row
 * read back from ClickHouse and compared with values the test derives from what it produced.
 */
class TracesPipelineITCase {

    @RegisterExtension
    static final MiniClusterExtension FLINK = RealServices.miniCluster(4);

    private static final HexFormat HEX = HexFormat.of();

    /** One attribute value and the string the exporter stores for it. */
    record Attr(String key, AnyValue value, String expected) {}

    /** What one span must look like in otel_traces. */
    record Expected(
            long timestamp, String traceId, String spanId, String parentSpanId, String traceState,
            String spanName, String spanKind, String serviceName, List<List<String>> resourceAttributes,
            String scopeName, String scopeVersion, List<List<String>> spanAttributes, String duration,
            String statusCode, String statusMessage, List<Long> eventTimes, List<String> eventNames,
            List<List<List<String>>> eventAttributes, List<String> linkTraceIds, List<String> linkSpanIds,
            List<String> linkTraceStates, List<List<List<String>>> linkAttributes) {}

    private final SplittableRandom random = new SplittableRandom(20261130);
    private final Map<String, Expected> expected = new HashMap<>();

    @Test
    void everyColumnOfEverySpanLandsAsTheExporterWritesIt() throws Exception {
        String topic = RealServices.uniqueName("it_spans");
        String database = RealServices.uniqueName("it_otel");
        RealServices.createTopic(topic, 3);

        List<byte[]> records = new ArrayList<>();
        int spans = 0;
        for (int r = 0; spans < 10_000; r++) {
            ExportTraceServiceRequest req = record(r);
            spans += req.getResourceSpansList().stream()
                    .flatMap(rs -> rs.getScopeSpansList().stream()).mapToInt(ScopeSpans::getSpansCount).sum();
            // protobuf as ExportTraceServiceRequest and as TracesData, and OTLP/JSON
            records.add(r % 3 == 0 ? OtlpJsonWriter.write(req)
                    : r % 3 == 1 ? req.toByteArray()
                    : TracesData.newBuilder().addAllResourceSpans(req.getResourceSpansList()).build().toByteArray());
        }
        assertThat(expected).hasSize(spans);
        RealServices.produce(topic, records);

        TributaryConfig config = TributaryConfig.fromArgs(new String[] {
            "--signals", "traces",
            "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
            "--kafka.topics.traces", topic,
            "--kafka.group-id", topic,
            "--kafka.bounded", "true",
            "--kafka.starting-offsets", "earliest",
            "--parallelism", "2",
            "--decode.parallelism", "3",
            "--clickhouse.url", RealServices.clickHouseUrl(),
            "--clickhouse.database", database,
            "--sink.batch.max-rows", "1500",
            "--checkpoint.interval", "500ms"
        });
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
        TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), config);

        ClickHouseClient ch = RealServices.clickHouse();
        String json = ch.query("SELECT toUnixTimestamp64Nano(Timestamp) AS ts, TraceId, SpanId, ParentSpanId, TraceState,"
                + " SpanName, SpanKind, ServiceName, CAST(ResourceAttributes, 'Array(Tuple(String, String))') AS ra,"
                + " ScopeName, ScopeVersion, CAST(SpanAttributes, 'Array(Tuple(String, String))') AS sa, Duration,"
                + " StatusCode, StatusMessage, arrayMap(x -> toUnixTimestamp64Nano(x), `Events.Timestamp`) AS et,"
                + " `Events.Name` AS en, arrayMap(m -> CAST(m, 'Array(Tuple(String, String))'), `Events.Attributes`) AS ea,"
                + " `Links.TraceId` AS lt, `Links.SpanId` AS ls, `Links.TraceState` AS lst,"
                + " arrayMap(m -> CAST(m, 'Array(Tuple(String, String))'), `Links.Attributes`) AS la"
                + " FROM `" + database + "`.otel_traces FORMAT JSONEachRow"
                + " SETTINGS output_format_json_quote_64bit_integers = 0, output_format_json_named_tuples_as_objects = 0");
        ObjectMapper mapper = new ObjectMapper();
        int rows = 0;
        for (String line : json.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            rows++;
            JsonNode n = mapper.readTree(line);
            Expected e = expected.get(n.get("SpanId").asText());
            assertThat(e).as("unexpected span %s", n.get("SpanId")).isNotNull();
            Expected actual = new Expected(
                    n.get("ts").asLong(), n.get("TraceId").asText(), n.get("SpanId").asText(),
                    n.get("ParentSpanId").asText(), n.get("TraceState").asText(), n.get("SpanName").asText(),
                    n.get("SpanKind").asText(), n.get("ServiceName").asText(), pairs(n.get("ra")),
                    n.get("ScopeName").asText(), n.get("ScopeVersion").asText(), pairs(n.get("sa")),
                    Long.toUnsignedString(n.get("Duration").asLong()), n.get("StatusCode").asText(),
                    n.get("StatusMessage").asText(), longs(n.get("et")), strings(n.get("en")), pairLists(n.get("ea")),
                    strings(n.get("lt")), strings(n.get("ls")), strings(n.get("lst")), pairLists(n.get("la")));
            assertThat(actual).as("span %s", e.spanId()).isEqualTo(e);
        }
        assertThat(rows).as("rows in otel_traces").isEqualTo(spans);
        // the lookup view saw every trace
        String traces = ch.query("SELECT uniqExact(TraceId) FROM `" + database + "`.otel_traces_trace_id_ts").strip();
        assertThat(Long.parseLong(traces)).isEqualTo(expected.values().stream()
                .map(Expected::traceId).filter(t -> !t.isEmpty()).distinct().count());
        ch.execute("DROP DATABASE `" + database + "`");
    }

    // ---- test data: what is produced, and what each span must become ----

    private ExportTraceServiceRequest record(int r) {
        ExportTraceServiceRequest.Builder req = ExportTraceServiceRequest.newBuilder();
        for (int res = 0; res < 2; res++) {
            List<Attr> resAttrs = new ArrayList<>();
            String serviceName;
            switch ((r + res) % 5) {
                case 0:
                    serviceName = "";
                    break; // no service.name at all
                case 1:
                    resAttrs.add(new Attr("service.name", i(7000 + r), Long.toString(7000 + r)));
                    serviceName = Long.toString(7000 + r);
                    break;
                default:
                    serviceName = "svc-" + (r % 7) + "-ünï";
                    resAttrs.add(new Attr("service.name", str(serviceName), serviceName));
            }
            resAttrs.add(new Attr("host.name", str("host-" + res), "host-" + res));
            resAttrs.add(new Attr("k8s.pod.uid", str("pod/" + r), "pod/" + r));
            ResourceSpans.Builder rs = ResourceSpans.newBuilder()
                    .setResource(Resource.newBuilder().addAllAttributes(kvs(resAttrs)))
                    .setSchemaUrl("https://opentelemetry.io/schemas/1.21.0");
            for (int sc = 0; sc < 2; sc++) {
                String scopeName = sc == 0 ? "io.opentelemetry.jdbc" : "";
                String scopeVersion = sc == 0 ? "2.1." + r : "";
                ScopeSpans.Builder ss = ScopeSpans.newBuilder()
                        .setScope(InstrumentationScope.newBuilder().setName(scopeName).setVersion(scopeVersion)
                                .addAttributes(kv("scope.attr", str("x"))));
                for (int k = 0; k < 25; k++) {
                    ss.addSpans(span(r, res, sc, k, serviceName, resAttrs, scopeName, scopeVersion));
                }
                rs.addScopeSpans(ss);
            }
            req.addResourceSpans(rs);
        }
        return req.build();
    }

    private Span span(int r, int res, int sc, int k, String serviceName, List<Attr> resAttrs,
            String scopeName, String scopeVersion) {
        byte[] traceId = bytes(16);
        byte[] spanId = bytes(8);
        byte[] parent = k % 4 == 0 ? new byte[0] : k % 4 == 1 ? new byte[8] : bytes(8);
        long start = 1_764_460_800_000_000_000L + (long) r * 1_000_000_000L + k * 1_000L + random.nextInt(999);
        long end = k % 10 == 9 ? start - 5 : start + random.nextLong(10_000_000_000L);
        int kind = k % 7 == 6 ? 9 : k % 6; // 9: a value outside the enum
        int status = k % 3;
        List<Attr> attrs = attributes(r, k);
        Span.Builder b = Span.newBuilder()
                .setTraceId(ByteString.copyFrom(traceId)).setSpanId(ByteString.copyFrom(spanId))
                .setParentSpanId(ByteString.copyFrom(parent))
                .setTraceState(k % 2 == 0 ? "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7" : "")
                .setName("span " + (k % 5) + " ✓").setKindValue(kind)
                .setStartTimeUnixNano(start).setEndTimeUnixNano(end)
                .addAllAttributes(kvs(attrs))
                .setStatus(Status.newBuilder().setCodeValue(status).setMessage(status == 2 ? "boom: «" + k + "»" : ""));
        List<Long> eventTimes = new ArrayList<>();
        List<String> eventNames = new ArrayList<>();
        List<List<List<String>>> eventAttrs = new ArrayList<>();
        for (int e = 0; e < k % 3; e++) {
            List<Attr> ea = List.of(new Attr("exception.type", str("IOException" + e), "IOException" + e),
                    new Attr("n", i(e), Long.toString(e)));
            b.addEvents(Span.Event.newBuilder().setTimeUnixNano(start + e).setName("event-" + e).addAllAttributes(kvs(ea)));
            eventTimes.add(start + e);
            eventNames.add("event-" + e);
            eventAttrs.add(sorted(ea));
        }
        List<String> lt = new ArrayList<>();
        List<String> ls = new ArrayList<>();
        List<String> lst = new ArrayList<>();
        List<List<List<String>>> la = new ArrayList<>();
        if (k % 4 == 3) {
            byte[] lTrace = bytes(16);
            byte[] lSpan = bytes(8);
            List<Attr> attrsL = List.of(new Attr("link.kind", str("follows"), "follows"));
            b.addLinks(Span.Link.newBuilder().setTraceId(ByteString.copyFrom(lTrace)).setSpanId(ByteString.copyFrom(lSpan))
                    .setTraceState("a=b").addAllAttributes(kvs(attrsL)));
            lt.add(HEX.formatHex(lTrace));
            ls.add(HEX.formatHex(lSpan));
            lst.add("a=b");
            la.add(sorted(attrsL));
            b.addLinks(Span.Link.newBuilder().setTraceId(ByteString.copyFrom(new byte[16])));
            lt.add("");
            ls.add("");
            lst.add("");
            la.add(List.of());
        }
        String[] kinds = {"Unspecified", "Internal", "Server", "Client", "Producer", "Consumer"};
        String[] codes = {"Unset", "Ok", "Error"};
        String spanHex = HEX.formatHex(spanId);
        expected.put(spanHex, new Expected(start, HEX.formatHex(traceId), spanHex,
                k % 4 >= 2 ? HEX.formatHex(parent) : "", b.getTraceState(), b.getName(),
                kind < kinds.length ? kinds[kind] : "", serviceName, sorted(resAttrs), scopeName, scopeVersion,
                sorted(attrs), Long.toUnsignedString(end - start), codes[status], b.getStatus().getMessage(),
                eventTimes, eventNames, eventAttrs, lt, ls, lst, la));
        return b.build();
    }

    /** Every attribute value type, with the string pdata's AsString gives for it. */
    private List<Attr> attributes(int r, int k) {
        List<Attr> a = new ArrayList<>();
        a.add(new Attr("http.route", str("/api/ünïcødé/" + k + "/日本"), "/api/ünïcødé/" + k + "/日本"));
        a.add(new Attr("emoji", str("😀 <b>&amp;</b>"), "😀 <b>&amp;</b>"));
        a.add(new Attr("ok", b(k % 2 == 0), k % 2 == 0 ? "true" : "false"));
        a.add(new Attr("count", i(-r * 1000L - k), Long.toString(-r * 1000L - k)));
        a.add(new Attr("big", i(Long.MAX_VALUE - k), Long.toString(Long.MAX_VALUE - k)));
        double[] ds = {1.5, 100.0, 1e-7, 1e21, 0.000001, 123456.789, -0.25, 1e20};
        String[] dss = {"1.5", "100", "1e-7", "1e+21", "0.000001", "123456.789", "-0.25", "100000000000000000000"};
        a.add(new Attr("ratio", d(ds[k % ds.length]), dss[k % ds.length]));
        a.add(new Attr("raw", AnyValue.newBuilder().setBytesValue(ByteString.copyFrom(new byte[] {(byte) 0xfb, (byte) 0xff, (byte) k})).build(),
                java.util.Base64.getEncoder().encodeToString(new byte[] {(byte) 0xfb, (byte) 0xff, (byte) k})));
        a.add(new Attr("list", arr(str("a\"b"), i(k), d(2.5), b(true), AnyValue.getDefaultInstance()),
                "[\"a\\\"b\"," + k + ",2.5,true,null]"));
        a.add(new Attr("map", map(kv("zeta", str("z")), kv("alpha", arr(i(1), str("ß")))),
                "{\"alpha\":[1,\"ß\"],\"zeta\":\"z\"}"));
        a.add(new Attr("empty", AnyValue.getDefaultInstance(), ""));
        a.add(new Attr("aaa.first", str("sorted first"), "sorted first"));
        return a;
    }

    // ---- helpers ----

    /** Attributes as the exporter's map holds them: key, value pairs sorted by key (bytewise). */
    private static List<List<String>> sorted(List<Attr> attrs) {
        List<List<String>> out = new ArrayList<>();
        for (Attr a : attrs) {
            out.add(List.of(a.key(), a.expected()));
        }
        out.sort((x, y) -> java.util.Arrays.compareUnsigned(
                x.get(0).getBytes(java.nio.charset.StandardCharsets.UTF_8), y.get(0).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        return out;
    }

    private static List<KeyValue> kvs(List<Attr> attrs) {
        List<KeyValue> out = new ArrayList<>();
        for (Attr a : attrs) {
            out.add(kv(a.key(), a.value()));
        }
        return out;
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        for (int j = 0; j < n; j++) {
            b[j] = (byte) random.nextInt(256);
        }
        b[0] |= 0x10;
        return b;
    }

    private static List<List<String>> pairs(JsonNode arr) {
        List<List<String>> out = new ArrayList<>();
        for (JsonNode p : arr) {
            out.add(List.of(p.get(0).asText(), p.get(1).asText()));
        }
        return out;
    }

    private static List<List<List<String>>> pairLists(JsonNode arr) {
        List<List<List<String>>> out = new ArrayList<>();
        for (JsonNode p : arr) {
            out.add(pairs(p));
        }
        return out;
    }

    private static List<String> strings(JsonNode arr) {
        List<String> out = new ArrayList<>();
        arr.forEach(x -> out.add(x.asText()));
        return out;
    }

    private static List<Long> longs(JsonNode arr) {
        List<Long> out = new ArrayList<>();
        arr.forEach(x -> out.add(x.asLong()));
        return out;
    }
}
