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
import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.LogsData;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.Exemplar;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogram;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.MetricsData;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.Sum;
import io.opentelemetry.proto.metrics.v1.Summary;
import io.opentelemetry.proto.metrics.v1.SummaryDataPoint;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.TracesData;
import io.tributary.TributaryJob;
import io.tributary.clickhouse.ClickHouseClient;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.otlp.json.OtlpJsonWriter;
import io.tributary.schema.TableEngine;
import io.tributary.tables.AnyValues;
import io.tributary.testing.RealServices;
import io.tributary.tools.loadgen.LoadShape;
import io.tributary.topology.SchemaManager;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Logs and metrics (and traces) end to end on the real services, in one job reading the three
 * topics at once, run twice over the same records: into {@code map} tables and into {@code json}
 * tables. Every row of every table is found by a unique {@code tid} attribute and compared column
 * by column with values the test derives from the records it produced; the JSON flavour's
 * attributes are compared with what ClickHouse makes of the exporter's JSON text.
 */
class AllSignalsPipelineITCase {

    @RegisterExtension
    static final MiniClusterExtension FLINK = RealServices.miniCluster(4);

    private static final HexFormat HEX = HexFormat.of();
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Points per metric type (and log records) to produce: at least 5,000 each. */
    private static final int PER_TABLE = 5_000;

    private static String tracesTopic;
    private static String logsTopic;
    private static String metricsTopic;
    /** Every expected span row, by tid. */
    private static final Map<String, SpanCase> SPANS = new HashMap<>();
    /** Every expected log row, by tid. */
    private static final Map<String, LogCase> LOGS = new HashMap<>();
    /** Every expected metric row, by table and tid. */
    private static final Map<String, Map<String, PointCase>> POINTS = new TreeMap<>();
    private static final List<String> DATABASES = new ArrayList<>();

    /** A span with its resource and scope. */
    record SpanCase(ResourceSpans resource, ScopeSpans scope, Span span) {}

    /** A log record with its resource and scope. */
    record LogCase(ResourceLogs resource, ScopeLogs scope, LogRecord record) {}

    /** A data point with its resource, scope and metric. */
    record PointCase(ResourceMetrics resource, ScopeMetrics scope, Metric metric, Message point) {}

    @BeforeAll
    static void produce() throws Exception {
        tracesTopic = RealServices.uniqueName("it_all_spans");
        logsTopic = RealServices.uniqueName("it_all_logs");
        metricsTopic = RealServices.uniqueName("it_all_metrics");
        RealServices.createTopic(tracesTopic, 2);
        RealServices.createTopic(logsTopic, 3);
        RealServices.createTopic(metricsTopic, 3);
        long now = 1_764_460_800_000_000_000L; // 2025-11-30T00:00:00Z

        List<byte[]> spans = new ArrayList<>();
        LoadShape traceShape = new LoadShape(7, 50);
        int sid = 0;
        for (int r = 0; r < 40; r++) {
            ExportTraceServiceRequest req = r == 0 ? oddTraces(now) : traceShape.next(now + r * 1_000_000_000L);
            ExportTraceServiceRequest.Builder tagged = req.toBuilder();
            for (ResourceSpans.Builder rs : tagged.getResourceSpansBuilderList()) {
                for (ScopeSpans.Builder ss : rs.getScopeSpansBuilderList()) {
                    for (Span.Builder sp : ss.getSpansBuilderList()) {
                        sp.addAttributes(kv("tid", str("s" + sid++)));
                    }
                }
            }
            req = tagged.build();
            for (ResourceSpans rs : req.getResourceSpansList()) {
                for (ScopeSpans ss : rs.getScopeSpansList()) {
                    for (Span sp : ss.getSpansList()) {
                        SPANS.put(tidOf(sp.getAttributesList()), new SpanCase(rs, ss, sp));
                    }
                }
            }
            spans.add(encode(req, r, TracesData.newBuilder().addAllResourceSpans(req.getResourceSpansList()).build()));
        }
        RealServices.produce(tracesTopic, spans);

        List<byte[]> logs = new ArrayList<>();
        LoadShape logShape = new LoadShape(11, 100);
        int tid = 0;
        for (int r = 0; LOGS.size() < PER_TABLE; r++) {
            ExportLogsServiceRequest req = r == 0 ? oddLogs(now) : logShape.nextLogs(now + r * 1_000_000_000L);
            ExportLogsServiceRequest.Builder tagged = req.toBuilder();
            for (ResourceLogs.Builder rl : tagged.getResourceLogsBuilderList()) {
                for (ScopeLogs.Builder sl : rl.getScopeLogsBuilderList()) {
                    for (LogRecord.Builder lr : sl.getLogRecordsBuilderList()) {
                        lr.addAttributes(kv("tid", str("l" + tid++)));
                    }
                }
            }
            req = tagged.build();
            for (ResourceLogs rl : req.getResourceLogsList()) {
                for (ScopeLogs sl : rl.getScopeLogsList()) {
                    for (LogRecord lr : sl.getLogRecordsList()) {
                        LOGS.put(tidOf(lr.getAttributesList()), new LogCase(rl, sl, lr));
                    }
                }
            }
            logs.add(encode(req, r, LogsData.newBuilder().addAllResourceLogs(req.getResourceLogsList()).build()));
        }
        RealServices.produce(logsTopic, logs);

        List<byte[]> metrics = new ArrayList<>();
        LoadShape metricShape = new LoadShape(13, 100);
        for (String t : List.of("gauge", "sum", "histogram", "exponential_histogram", "summary")) {
            POINTS.put(t, new HashMap<>());
        }
        for (int r = 0; POINTS.values().stream().anyMatch(m -> m.size() < PER_TABLE); r++) {
            ExportMetricsServiceRequest req = r == 0 ? oddMetrics(now) : metricShape.nextMetrics(now + r * 1_000_000_000L);
            req = tagPoints(req, r);
            for (ResourceMetrics rm : req.getResourceMetricsList()) {
                for (ScopeMetrics sm : rm.getScopeMetricsList()) {
                    for (Metric m : sm.getMetricsList()) {
                        for (Message p : points(m)) {
                            POINTS.get(table(m)).put(tidOf(attributesOf(p)), new PointCase(rm, sm, m, p));
                        }
                    }
                }
            }
            metrics.add(encode(req, r, MetricsData.newBuilder().addAllResourceMetrics(req.getResourceMetricsList()).build()));
        }
        RealServices.produce(metricsTopic, metrics);
    }

    @AfterAll
    static void dropDatabases() throws Exception {
        ClickHouseClient ch = RealServices.clickHouse();
        for (String db : DATABASES) {
            ch.execute("DROP DATABASE IF EXISTS `" + db + "`");
        }
    }

    /** In both INSERT formats: Native batches must land the very rows RowBinary ones do. */
    @ParameterizedTest
    @ValueSource(strings = {"rowbinary", "native"})
    void mapFlavourWritesEveryColumnAsTheExporterDoes(String format) throws Exception {
        String db = runJob("map", format);
        ClickHouseClient ch = RealServices.clickHouse();
        assertCounts(ch, db);
        compare(ch, db, "otel_traces", "SpanAttributes['tid']", spanColumns(null), SPANS);
        compare(ch, db, "otel_logs", "LogAttributes['tid']", logColumns(null), LOGS);
        for (Map.Entry<String, Map<String, PointCase>> e : POINTS.entrySet()) {
            compare(ch, db, "otel_metrics_" + e.getKey(), "Attributes['tid']", metricColumns(e.getKey(), null), e.getValue());
        }
        // a few values spelled out, so that the expectations above do not rest on AnyValues alone
        assertThat(ch.query("SELECT LogAttributes['tid'], Body, SeverityNumber, TraceFlags, TraceId, SpanId, ServiceName,"
                        + " toUnixTimestamp64Nano(Timestamp) % 1000, CAST(ResourceAttributes, 'Array(Tuple(String, String))')"
                        + " FROM `" + db + "`.otel_logs WHERE LogAttributes['tid'] IN ('l0', 'l1', 'l2', 'l3', 'l4', 'l5')"
                        + " ORDER BY LogAttributes['tid'] FORMAT TSV"))
                .isEqualTo("l0\ttime 0: observed time is used\t0\t0\t\t\t\t5\t[('a.nested','{\"x\":1,\"y\":{\"z\":\"deep\"}}'),"
                        + "('deployment.environment.name','prod'),('k8s.pod.name','pod-ü'),('zz.bytes','cmF3')]\n"
                        + "l1\tNaN\t44\t255\t\t0102030405060708\t\t6\t" + RESOURCE_L0 + "\n"
                        + "l2\t{\"a\":\"<&>\",\"b\":[1,\"two\",null]}\t0\t0\t\t\t\t8\t" + RESOURCE_L0 + "\n"
                        + "l3\tAP8=\t0\t0\t\t\t\t9\t" + RESOURCE_L0 + "\n"
                        + "l4\t\t0\t0\t\t\t\t0\t" + RESOURCE_L0 + "\n"
                        + "l5\tservice.name is an int\t0\t0\t\t\t42\t10\t[('service.name','42')]\n");
        assertThat(ch.query("SELECT toString(Value), Exemplars.SpanId, Exemplars.TraceId FROM `" + db
                        + "`.otel_metrics_gauge WHERE MetricName = 'odd.gauge' ORDER BY Attributes['tid'] FORMAT TSV"))
                .isEqualTo("nan\t[]\t[]\n0\t[]\t[]\n9223372036854776000\t['0000000000000000','0909090909090909']\t"
                        + "['00000000000000000000000000000000','01010101010101010202020202020202']\n-inf\t[]\t[]\n");
    }

    private static final String RESOURCE_L0 = "[('a.nested','{\"x\":1,\"y\":{\"z\":\"deep\"}}'),"
            + "('deployment.environment.name','prod'),('k8s.pod.name','pod-ü'),('zz.bytes','cmF3')]";

    /** With {@code sink.format native}: tables with JSON columns are written in RowBinary all the same. */
    @Test
    void jsonFlavourHoldsTheSameInformation() throws Exception {
        String db = runJob("json", "native");
        ClickHouseClient ch = RealServices.clickHouse();
        assertCounts(ch, db);
        // What ClickHouse stores for the exporter's JSON text, per tid: the reference for every
        // JSON column (paths, types and values).
        Twin spanTwin = twin(ch, db, "traces", SPANS, Map.of(
                "ResourceAttributes", c -> List.of(c.resource().getResource().getAttributesList()),
                "SpanAttributes", c -> List.of(c.span().getAttributesList()),
                "EventAttributes", c -> c.span().getEventsList().stream().map(Span.Event::getAttributesList).toList(),
                "LinkAttributes", c -> c.span().getLinksList().stream().map(Span.Link::getAttributesList).toList()));
        compare(ch, db, "otel_traces", "toString(SpanAttributes.tid)", spanColumns(spanTwin), SPANS);
        Twin logTwin = twin(ch, db, "logs", LOGS, Map.of(
                "ResourceAttributes", c -> List.of(c.resource().getResource().getAttributesList()),
                "ScopeAttributes", c -> List.of(c.scope().getScope().getAttributesList()),
                "LogAttributes", c -> List.of(c.record().getAttributesList())));
        compare(ch, db, "otel_logs", "toString(LogAttributes.tid)", logColumns(logTwin), LOGS);
        for (Map.Entry<String, Map<String, PointCase>> e : POINTS.entrySet()) {
            Twin metricTwin = twin(ch, db, e.getKey(), e.getValue(), Map.of(
                    "ResourceAttributes", c -> List.of(c.resource().getResource().getAttributesList()),
                    "ScopeAttributes", c -> List.of(c.scope().getScope().getAttributesList()),
                    "Attributes", c -> List.of(attributesOf(c.point())),
                    "FilteredAttributes", c -> exemplars(c).stream().map(Exemplar::getFilteredAttributesList).toList()));
            compare(ch, db, "otel_metrics_" + e.getKey(), "toString(Attributes.tid)", metricColumns(e.getKey(), metricTwin), e.getValue());
        }
    }

    /**
     * What ClickHouse makes of the exporter's JSON text for each case: per attributes list, its
     * {@code JSONAllPathsWithTypes} and its value, read back from a table filled with that text.
     */
    record Twin(Map<String, JsonNode> rows) {
        /** The paths-and-types (suffix "_t") or values (suffix "_v") of column {@code col} for a tid. */
        JsonNode get(String tid, String col) {
            return rows.get(tid).get(col);
        }
    }

    /**
     * Fills a table of JSON arrays with the exporter's text of each case's attribute lists
     * ({@code lists} gives one list per attribute column, several for nested ones) and reads
     * back what ClickHouse stored.
     */
    private static <C> Twin twin(
            ClickHouseClient ch, String db, String name, Map<String, C> cases, Map<String, Function<C, List<List<KeyValue>>>> lists)
            throws Exception {
        List<String> cols = new ArrayList<>(lists.keySet());
        String table = "`" + db + "`.`twin_" + name + "`";
        StringBuilder ddl = new StringBuilder("CREATE TABLE " + table + " (tid String");
        StringBuilder select = new StringBuilder("SELECT tid");
        for (String c : cols) {
            ddl.append(", `").append(c).append("` Array(JSON)");
            select.append(", arrayMap(m -> toJSONString(JSONAllPathsWithTypes(m)), `").append(c).append("`) AS `").append(c)
                    .append("_t`, arrayMap(m -> toJSONString(m), `").append(c).append("`) AS `").append(c).append("_v`");
        }
        ch.execute(ddl.append(") ENGINE = MergeTree ORDER BY tid").toString());
        StringBuilder rows = new StringBuilder();
        for (Map.Entry<String, C> e : cases.entrySet()) {
            rows.append("{\"tid\":\"").append(e.getKey()).append('"');
            for (String c : cols) {
                rows.append(",\"").append(c).append("\":[");
                List<List<KeyValue>> ls = lists.get(c).apply(e.getValue());
                for (int i = 0; i < ls.size(); i++) {
                    rows.append(i > 0 ? "," : "").append(exporterJson(ls.get(i)));
                }
                rows.append(']');
            }
            rows.append("}\n");
        }
        ch.insert("INSERT INTO " + table + " FORMAT JSONEachRow", Map.of(),
                rows.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8), io.tributary.clickhouse.body.Compression.NONE);
        Map<String, JsonNode> out = new HashMap<>();
        for (String line : ch.query(select + " FROM " + table + " FORMAT JSONEachRow").split("\n")) {
            if (!line.isBlank()) {
                JsonNode n = JSON.readTree(line);
                out.put(n.get("tid").asText(), n);
            }
        }
        assertThat(out).hasSize(cases.size());
        return new Twin(out);
    }

    // ---- the job, and the comparison ----

    private static String runJob(String flavor, String format) throws Exception {
        String db = RealServices.uniqueName("it_all_" + flavor + "_" + format);
        DATABASES.add(db);
        TributaryConfig config = TributaryConfig.fromArgs(new String[] {
            "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
            "--kafka.topics.traces", tracesTopic,
            "--kafka.topics.logs", logsTopic,
            "--kafka.topics.metrics", metricsTopic,
            "--kafka.group-id", db,
            "--kafka.bounded", "true",
            "--kafka.starting-offsets", "earliest",
            "--parallelism", "2",
            "--decode.parallelism", "3",
            "--clickhouse.url", RealServices.clickHouseUrl(),
            "--clickhouse.database", db,
            "--clickhouse.schema", flavor,
            "--sink.batch.max-rows", "4000",
            "--sink.format", format,
            "--checkpoint.interval", "1s"
        });
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
        TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), config);
        return db;
    }

    private static void assertCounts(ClickHouseClient ch, String db) throws Exception {
        Map<String, Long> counts = new TreeMap<>();
        for (String line : ch.query("SELECT table, sum(rows) FROM system.parts WHERE database = '" + db
                + "' AND active AND table NOT LIKE '%trace_id_ts' GROUP BY table FORMAT TSV").split("\n")) {
            if (!line.isBlank()) {
                counts.put(line.split("\t")[0], Long.parseLong(line.split("\t")[1]));
            }
        }
        Map<String, Long> expected = new TreeMap<>();
        expected.put("otel_traces", (long) SPANS.size());
        expected.put("otel_logs", (long) LOGS.size());
        POINTS.forEach((t, m) -> expected.put("otel_metrics_" + t, (long) m.size()));
        assertThat(counts).as("rows per table in " + db).isEqualTo(expected);
    }

    /** A column: the SQL that reads it, and what it must hold for a case. */
    record Col<C>(String sql, Function<C, Object> expected) {}

    private static <C> void compare(
            ClickHouseClient ch, String db, String table, String tidSql, List<Col<C>> cols, Map<String, C> cases)
            throws Exception {
        StringBuilder sql = new StringBuilder("SELECT ").append(tidSql).append(" AS tid");
        for (int i = 0; i < cols.size(); i++) {
            sql.append(", ").append(cols.get(i).sql()).append(" AS c").append(i);
        }
        sql.append(" FROM `").append(db).append("`.`").append(table).append("` FORMAT JSONEachRow SETTINGS ")
                .append("output_format_json_quote_64bit_integers = 0, output_format_json_named_tuples_as_objects = 0,")
                .append(" output_format_json_quote_denormals = 1");
        int rows = 0;
        for (String line : ch.query(sql.toString()).split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            rows++;
            JsonNode n = JSON.readTree(line);
            String tid = n.get("tid").asText();
            C c = cases.get(tid);
            assertThat(c).as("%s: unexpected row %s", table, tid).isNotNull();
            for (int i = 0; i < cols.size(); i++) {
                JsonNode actual = n.get("c" + i);
                JsonNode want = JSON.valueToTree(cols.get(i).expected().apply(c));
                if (!actual.equals(AllSignalsPipelineITCase::compareNodes, want)) {
                    throw new AssertionError(table + " row " + tid + " column " + cols.get(i).sql()
                            + ":\n expected: " + want + "\n but was:  " + actual);
                }
            }
        }
        assertThat(rows).as(table + " rows").isEqualTo(cases.size());
    }

    /** Numbers compare by value (ClickHouse and Jackson pick different node types). */
    private static int compareNodes(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return new BigDecimal(a.asText()).compareTo(new BigDecimal(b.asText()));
        }
        return a.equals(b) ? 0 : 1;
    }

    // ---- expected columns ----

    private static List<Col<SpanCase>> spanColumns(Twin twin) {
        boolean json = twin != null;
        List<Col<SpanCase>> c = new ArrayList<>();
        c.add(new Col<>("TraceId", t -> hexId(t.span().getTraceId())));
        c.add(new Col<>("SpanId", t -> hexId(t.span().getSpanId())));
        c.add(new Col<>("ParentSpanId", t -> hexId(t.span().getParentSpanId())));
        c.add(new Col<>("SpanName", t -> t.span().getName()));
        c.add(new Col<>("ServiceName", t -> serviceName(t.resource().getResource().getAttributesList())));
        c.add(new Col<>("toString(Duration)", t -> Long.toUnsignedString(t.span().getEndTimeUnixNano() - t.span().getStartTimeUnixNano())));
        c.add(new Col<>("`Events.Name`", t -> t.span().getEventsList().stream().map(Span.Event::getName).toList()));
        c.add(new Col<>("`Links.SpanId`", t -> t.span().getLinksList().stream().map(l -> hexId(l.getSpanId())).toList()));
        c.addAll(attributeColumns("ResourceAttributes", t -> t.resource().getResource().getAttributesList(), twin, "ResourceAttributes", SpanCase::span));
        c.addAll(attributeColumns("SpanAttributes", t -> t.span().getAttributesList(), twin, "SpanAttributes", SpanCase::span));
        c.add(nestedAttributes("`Events.Attributes`", t -> t.span().getEventsList().stream().map(Span.Event::getAttributesList).toList(),
                twin, "EventAttributes", SpanCase::span));
        c.add(nestedAttributes("`Links.Attributes`", t -> t.span().getLinksList().stream().map(Span.Link::getAttributesList).toList(),
                twin, "LinkAttributes", SpanCase::span));
        if (json) {
            c.add(nestedAttributesTypes("`Events.Attributes`", twin, "EventAttributes", SpanCase::span));
            c.add(nestedAttributesTypes("`Links.Attributes`", twin, "LinkAttributes", SpanCase::span));
        }
        return c;
    }

    private static List<Col<LogCase>> logColumns(Twin twin) {
        boolean json = twin != null;
        List<Col<LogCase>> c = new ArrayList<>();
        c.add(new Col<>("toString(toUnixTimestamp64Nano(Timestamp))", l -> Long.toString(
                l.record().getTimeUnixNano() != 0 ? l.record().getTimeUnixNano() : l.record().getObservedTimeUnixNano())));
        c.add(new Col<>("TraceId", l -> hexId(l.record().getTraceId())));
        c.add(new Col<>("SpanId", l -> hexId(l.record().getSpanId())));
        c.add(new Col<>("TraceFlags", l -> l.record().getFlags() & 0xFF));
        c.add(new Col<>("SeverityText", l -> l.record().getSeverityText()));
        c.add(new Col<>("SeverityNumber", l -> l.record().getSeverityNumberValue() & 0xFF));
        c.add(new Col<>("ServiceName", l -> serviceName(l.resource().getResource().getAttributesList())));
        c.add(new Col<>("Body", l -> AnyValues.asString(l.record().getBody())));
        c.add(new Col<>("ResourceSchemaUrl", l -> l.resource().getSchemaUrl()));
        c.add(new Col<>("ScopeSchemaUrl", l -> l.scope().getSchemaUrl()));
        c.add(new Col<>("ScopeName", l -> l.scope().getScope().getName()));
        c.add(new Col<>("ScopeVersion", l -> l.scope().getScope().getVersion()));
        c.add(new Col<>("EventName", l -> l.record().getEventName()));
        c.addAll(attributeColumns("ResourceAttributes", l -> l.resource().getResource().getAttributesList(), twin, "ResourceAttributes", LogCase::record));
        c.addAll(attributeColumns("ScopeAttributes", l -> l.scope().getScope().getAttributesList(), twin, "ScopeAttributes", LogCase::record));
        c.addAll(attributeColumns("LogAttributes", l -> l.record().getAttributesList(), twin, "LogAttributes", LogCase::record));
        if (!json) {
            c.add(new Col<>("`__otel_materialized_k8s.pod.name`",
                    l -> firstValue(l.resource().getResource().getAttributesList(), "k8s.pod.name")));
            c.add(new Col<>("`__otel_materialized_deployment.environment.name`",
                    l -> firstValue(l.resource().getResource().getAttributesList(), "deployment.environment.name")));
        }
        return c;
    }

    private static List<Col<PointCase>> metricColumns(String type, Twin twin) {
        boolean json = twin != null;
        List<Col<PointCase>> c = new ArrayList<>();
        c.addAll(attributeColumns("ResourceAttributes", p -> p.resource().getResource().getAttributesList(), twin, "ResourceAttributes", PointCase::point));
        c.add(new Col<>("ResourceSchemaUrl", p -> p.resource().getSchemaUrl()));
        c.add(new Col<>("ScopeName", p -> p.scope().getScope().getName()));
        c.add(new Col<>("ScopeVersion", p -> p.scope().getScope().getVersion()));
        c.addAll(attributeColumns("ScopeAttributes", p -> p.scope().getScope().getAttributesList(), twin, "ScopeAttributes", PointCase::point));
        c.add(new Col<>("ScopeDroppedAttrCount", p -> p.scope().getScope().getDroppedAttributesCount()));
        c.add(new Col<>("ScopeSchemaUrl", p -> p.scope().getSchemaUrl()));
        c.add(new Col<>("ServiceName", p -> serviceName(p.resource().getResource().getAttributesList())));
        c.add(new Col<>("MetricName", p -> p.metric().getName()));
        c.add(new Col<>("MetricDescription", p -> p.metric().getDescription()));
        c.add(new Col<>("MetricUnit", p -> p.metric().getUnit()));
        c.addAll(attributeColumns("Attributes", p -> attributesOf(p.point()), twin, "Attributes", PointCase::point));
        c.add(new Col<>("toUnixTimestamp(StartTimeUnix)", p -> seconds(field(p.point(), "start_time_unix_nano"))));
        c.add(new Col<>("toUnixTimestamp(TimeUnix)", p -> seconds(field(p.point(), "time_unix_nano"))));
        c.add(new Col<>("Flags", p -> field(p.point(), "flags")));
        switch (type) {
            case "gauge":
            case "sum":
                c.add(new Col<>("toString(reinterpretAsUInt64(Value))", p -> bits(numberValue((NumberDataPoint) p.point()))));
                break;
            case "histogram":
                c.add(new Col<>("toString(Count)", p -> Long.toUnsignedString(((HistogramDataPoint) p.point()).getCount())));
                c.add(new Col<>("toString(reinterpretAsUInt64(Sum))", p -> bits(((HistogramDataPoint) p.point()).getSum())));
                c.add(new Col<>("arrayMap(x -> toString(x), BucketCounts)", p -> unsigned(((HistogramDataPoint) p.point()).getBucketCountsList())));
                c.add(new Col<>("arrayMap(x -> toString(reinterpretAsUInt64(x)), ExplicitBounds)",
                        p -> ((HistogramDataPoint) p.point()).getExplicitBoundsList().stream().map(AllSignalsPipelineITCase::bits).toList()));
                c.add(new Col<>("toString(reinterpretAsUInt64(Min))", p -> bits(((HistogramDataPoint) p.point()).getMin())));
                c.add(new Col<>("toString(reinterpretAsUInt64(Max))", p -> bits(((HistogramDataPoint) p.point()).getMax())));
                break;
            case "exponential_histogram":
                c.add(new Col<>("toString(Count)", p -> Long.toUnsignedString(((ExponentialHistogramDataPoint) p.point()).getCount())));
                c.add(new Col<>("toString(reinterpretAsUInt64(Sum))", p -> bits(((ExponentialHistogramDataPoint) p.point()).getSum())));
                c.add(new Col<>("Scale", p -> ((ExponentialHistogramDataPoint) p.point()).getScale()));
                c.add(new Col<>("toString(ZeroCount)", p -> Long.toUnsignedString(((ExponentialHistogramDataPoint) p.point()).getZeroCount())));
                c.add(new Col<>("PositiveOffset", p -> ((ExponentialHistogramDataPoint) p.point()).getPositive().getOffset()));
                c.add(new Col<>("arrayMap(x -> toString(x), PositiveBucketCounts)",
                        p -> unsigned(((ExponentialHistogramDataPoint) p.point()).getPositive().getBucketCountsList())));
                c.add(new Col<>("NegativeOffset", p -> ((ExponentialHistogramDataPoint) p.point()).getNegative().getOffset()));
                c.add(new Col<>("arrayMap(x -> toString(x), NegativeBucketCounts)",
                        p -> unsigned(((ExponentialHistogramDataPoint) p.point()).getNegative().getBucketCountsList())));
                c.add(new Col<>("toString(reinterpretAsUInt64(Min))", p -> bits(((ExponentialHistogramDataPoint) p.point()).getMin())));
                c.add(new Col<>("toString(reinterpretAsUInt64(Max))", p -> bits(((ExponentialHistogramDataPoint) p.point()).getMax())));
                break;
            default:
                c.add(new Col<>("toString(Count)", p -> Long.toUnsignedString(((SummaryDataPoint) p.point()).getCount())));
                c.add(new Col<>("toString(reinterpretAsUInt64(Sum))", p -> bits(((SummaryDataPoint) p.point()).getSum())));
                c.add(new Col<>("arrayMap(x -> toString(reinterpretAsUInt64(x)), `ValueAtQuantiles.Quantile`)",
                        p -> ((SummaryDataPoint) p.point()).getQuantileValuesList().stream().map(q -> bits(q.getQuantile())).toList()));
                c.add(new Col<>("arrayMap(x -> toString(reinterpretAsUInt64(x)), `ValueAtQuantiles.Value`)",
                        p -> ((SummaryDataPoint) p.point()).getQuantileValuesList().stream().map(q -> bits(q.getValue())).toList()));
        }
        if (type.equals("sum")) {
            c.add(new Col<>("AggregationTemporality", p -> p.metric().getSum().getAggregationTemporalityValue()));
            c.add(new Col<>("IsMonotonic", p -> p.metric().getSum().getIsMonotonic()));
        } else if (type.equals("histogram")) {
            c.add(new Col<>("AggregationTemporality", p -> p.metric().getHistogram().getAggregationTemporalityValue()));
        } else if (type.equals("exponential_histogram")) {
            c.add(new Col<>("AggregationTemporality", p -> p.metric().getExponentialHistogram().getAggregationTemporalityValue()));
        }
        if (!type.equals("summary")) {
            c.add(new Col<>("arrayMap(x -> toUnixTimestamp(x), `Exemplars.TimeUnix`)",
                    p -> exemplars(p).stream().map(e -> seconds(e.getTimeUnixNano())).toList()));
            c.add(new Col<>("arrayMap(x -> toString(reinterpretAsUInt64(x)), `Exemplars.Value`)",
                    p -> exemplars(p).stream().map(e -> bits(e.getValueCase() == Exemplar.ValueCase.AS_INT
                            ? (double) e.getAsInt() : e.getAsDouble())).toList()));
            c.add(new Col<>("`Exemplars.SpanId`", p -> exemplars(p).stream().map(e -> zeroHex(e.getSpanId(), 8)).toList()));
            c.add(new Col<>("`Exemplars.TraceId`", p -> exemplars(p).stream().map(e -> zeroHex(e.getTraceId(), 16)).toList()));
            c.add(nestedAttributes("`Exemplars.FilteredAttributes`",
                    p -> exemplars(p).stream().map(Exemplar::getFilteredAttributesList).toList(), twin, "FilteredAttributes", PointCase::point));
            if (json) {
                c.add(nestedAttributesTypes("`Exemplars.FilteredAttributes`", twin, "FilteredAttributes", PointCase::point));
            }
        }
        return c;
    }

    /**
     * An attributes column: in the map flavour its (key, value) pairs in the exporter's order; in
     * the JSON flavour its paths with their types and its value, each as ClickHouse stores them for
     * the exporter's JSON text (the twin), plus the keys column.
     */
    private static <C> List<Col<C>> attributeColumns(
            String name, Function<C, List<KeyValue>> attrs, Twin twin, String twinCol, Function<C, Message> tidOf) {
        if (twin == null) {
            return List.of(new Col<>("CAST(" + name + ", 'Array(Tuple(String, String))')", c -> pairs(attrs.apply(c))));
        }
        return List.of(
                new Col<>("toJSONString(JSONAllPathsWithTypes(" + name + "))", c -> twin.get(tid(tidOf.apply(c)), twinCol + "_t").get(0)),
                new Col<>("toJSONString(" + name + ")", c -> twin.get(tid(tidOf.apply(c)), twinCol + "_v").get(0)),
                new Col<>(name + "Keys", c -> uniqueFlattenedKeys(attrs.apply(c))));
    }

    /** A Nested attributes field: Maps as pairs, or JSON values as the twin holds them. */
    private static <C> Col<C> nestedAttributes(
            String name, Function<C, List<List<KeyValue>>> lists, Twin twin, String twinCol, Function<C, Message> tidOf) {
        if (twin == null) {
            return new Col<>("arrayMap(m -> CAST(m, 'Array(Tuple(String, String))'), " + name + ")",
                    c -> lists.apply(c).stream().map(AllSignalsPipelineITCase::pairs).toList());
        }
        return new Col<>("arrayMap(m -> toJSONString(m), " + name + ")", c -> twin.get(tid(tidOf.apply(c)), twinCol + "_v"));
    }

    private static <C> Col<C> nestedAttributesTypes(String name, Twin twin, String twinCol, Function<C, Message> tidOf) {
        return new Col<>("arrayMap(m -> toJSONString(JSONAllPathsWithTypes(m)), " + name + ")",
                c -> twin.get(tid(tidOf.apply(c)), twinCol + "_t"));
    }

    private static String tid(Message withAttributes) {
        return tidOf(attributesOf(withAttributes));
    }

    // ---- the oracle: the exporter's rules, written out independently of the job's code ----

    private static List<List<String>> pairs(List<KeyValue> attrs) {
        List<KeyValue> sorted = new ArrayList<>(attrs);
        sorted.sort((a, b) -> AnyValues.compareUtf8(a.getKey(), b.getKey())); // stable, like the Go sort of unique keys
        List<List<String>> out = new ArrayList<>();
        for (KeyValue kv : sorted) {
            out.add(List.of(kv.getKey(), AnyValues.asString(kv.getValue())));
        }
        return out;
    }

    private static String firstValue(List<KeyValue> attrs, String key) {
        return pairs(attrs).stream().filter(p -> p.get(0).equals(key)).map(p -> p.get(1)).findFirst().orElse("");
    }

    private static String serviceName(List<KeyValue> attrs) {
        return attrs.stream().filter(kv -> kv.getKey().equals("service.name"))
                .map(kv -> AnyValues.asString(kv.getValue())).findFirst().orElse("");
    }

    private static String hexId(ByteString id) {
        for (int k = 0; k < id.size(); k++) {
            if (id.byteAt(k) != 0) {
                return HEX.formatHex(id.toByteArray());
            }
        }
        return "";
    }

    private static String zeroHex(ByteString id, int size) {
        return id.isEmpty() ? "0".repeat(2 * size) : HEX.formatHex(id.toByteArray());
    }

    private static long seconds(Object nanos) {
        return Long.divideUnsigned((Long) nanos, 1_000_000_000L);
    }

    private static String bits(double d) {
        return Long.toUnsignedString(Double.doubleToRawLongBits(d));
    }

    private static List<String> unsigned(List<Long> v) {
        return v.stream().map(Long::toUnsignedString).toList();
    }

    private static double numberValue(NumberDataPoint p) {
        switch (p.getValueCase()) {
            case AS_DOUBLE:
                return p.getAsDouble();
            case AS_INT:
                return (double) p.getAsInt();
            default:
                return 0.0;
        }
    }

    private static Object field(Message m, String name) {
        Object v = m.getField(m.getDescriptorForType().findFieldByName(name));
        return v instanceof Integer ? (Object) ((Integer) v).longValue() : v;
    }

    @SuppressWarnings("unchecked")
    private static List<KeyValue> attributesOf(Message point) {
        return (List<KeyValue>) point.getField(point.getDescriptorForType().findFieldByName("attributes"));
    }

    @SuppressWarnings("unchecked")
    private static List<Exemplar> exemplars(PointCase p) {
        com.google.protobuf.Descriptors.FieldDescriptor f = p.point().getDescriptorForType().findFieldByName("exemplars");
        return f == null ? List.of() : (List<Exemplar>) p.point().getField(f); // summaries have none
    }

    private static String tidOf(List<KeyValue> attrs) {
        return attrs.stream().filter(kv -> kv.getKey().equals("tid")).findFirst().orElseThrow().getValue().getStringValue();
    }

    private static String table(Metric m) {
        switch (m.getDataCase()) {
            case GAUGE:
                return "gauge";
            case SUM:
                return "sum";
            case HISTOGRAM:
                return "histogram";
            case EXPONENTIAL_HISTOGRAM:
                return "exponential_histogram";
            default:
                return "summary";
        }
    }

    private static List<? extends Message> points(Metric m) {
        switch (m.getDataCase()) {
            case GAUGE:
                return m.getGauge().getDataPointsList();
            case SUM:
                return m.getSum().getDataPointsList();
            case HISTOGRAM:
                return m.getHistogram().getDataPointsList();
            case EXPONENTIAL_HISTOGRAM:
                return m.getExponentialHistogram().getDataPointsList();
            case SUMMARY:
                return m.getSummary().getDataPointsList();
            default:
                return List.of();
        }
    }

    /** The exporter's JSON text for attributes: json.Marshal(attributes.AsRaw()). */
    private static String exporterJson(List<KeyValue> attrs) {
        return AnyValues.asString(map(attrs));
    }

    /** The exporter's UniqueFlattenedAttributes: leaf paths, maps recursed, sorted, unique. */
    private static List<String> uniqueFlattenedKeys(List<KeyValue> attrs) {
        TreeSet<String> out = new TreeSet<>(AnyValues::compareUtf8);
        collectKeys("", attrs, out);
        return new ArrayList<>(out);
    }

    private static void collectKeys(String prefix, List<KeyValue> attrs, TreeSet<String> out) {
        for (KeyValue kv : attrs) {
            String path = prefix.isEmpty() ? kv.getKey() : prefix + "." + kv.getKey();
            if (kv.getValue().hasKvlistValue()) {
                collectKeys(path, kv.getValue().getKvlistValue().getValuesList(), out);
            } else {
                out.add(path);
            }
        }
    }

    // ---- test data ----

    private static byte[] encode(Message request, int r, Message data) {
        return r % 3 == 0 ? OtlpJsonWriter.write(request) : r % 3 == 1 ? request.toByteArray() : data.toByteArray();
    }

    /** Tags every data point with a unique tid attribute. */
    private static ExportMetricsServiceRequest tagPoints(ExportMetricsServiceRequest req, int r) {
        ExportMetricsServiceRequest.Builder b = req.toBuilder();
        int[] n = {0};
        Function<Void, KeyValue> next = v -> kv("tid", str("m" + r + "-" + n[0]++));
        for (ResourceMetrics.Builder rm : b.getResourceMetricsBuilderList()) {
            for (ScopeMetrics.Builder sm : rm.getScopeMetricsBuilderList()) {
                for (Metric.Builder m : sm.getMetricsBuilderList()) {
                    switch (m.getDataCase()) {
                        case GAUGE:
                            m.getGaugeBuilder().getDataPointsBuilderList().forEach(p -> p.addAttributes(next.apply(null)));
                            break;
                        case SUM:
                            m.getSumBuilder().getDataPointsBuilderList().forEach(p -> p.addAttributes(next.apply(null)));
                            break;
                        case HISTOGRAM:
                            m.getHistogramBuilder().getDataPointsBuilderList().forEach(p -> p.addAttributes(next.apply(null)));
                            break;
                        case EXPONENTIAL_HISTOGRAM:
                            m.getExponentialHistogramBuilder().getDataPointsBuilderList().forEach(p -> p.addAttributes(next.apply(null)));
                            break;
                        case SUMMARY:
                            m.getSummaryBuilder().getDataPointsBuilderList().forEach(p -> p.addAttributes(next.apply(null)));
                            break;
                        default:
                    }
                }
            }
        }
        return b.build();
    }

    /** Spans with what the load shape leaves out: links, nested and odd attribute values. */
    private static ExportTraceServiceRequest oddTraces(long now) {
        Span.Builder span = Span.newBuilder()
                .setTraceId(ByteString.copyFrom(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}))
                .setSpanId(ByteString.copyFrom(new byte[] {1, 1, 1, 1, 1, 1, 1, 1}))
                .setName("odd").setStartTimeUnixNano(now).setEndTimeUnixNano(now - 1)
                .addAttributes(kv("http", map(kv("route", str("/x")), kv("status", i(500)))))
                .addAttributes(kv("ratio", d(2.0)))
                .addAttributes(kv("list", arr(i(1), d(0.5))))
                .addAttributes(kv("none", AnyValue.getDefaultInstance()))
                .addEvents(Span.Event.newBuilder().setName("e").setTimeUnixNano(now)
                        .addAttributes(kv("e.k", map(kv("n", b(false))))))
                .addEvents(Span.Event.newBuilder().setName("empty"))
                .addLinks(Span.Link.newBuilder()
                        .setTraceId(ByteString.copyFrom(new byte[16])).setSpanId(ByteString.copyFrom(new byte[] {2, 2, 2, 2, 2, 2, 2, 2}))
                        .setTraceState("k=v").addAttributes(kv("link.n", i(3))).addAttributes(kv("link.s", arr(str("a"), str("b")))));
        return ExportTraceServiceRequest.newBuilder()
                .addResourceSpans(ResourceSpans.newBuilder()
                        .setResource(Resource.newBuilder().addAttributes(kv("service.name", str("odd-traces")))
                                .addAttributes(kv("k8s", map(kv("pod", map(kv("name", str("p"))))))))
                        .addScopeSpans(ScopeSpans.newBuilder().addSpans(span).addSpans(Span.newBuilder().setName("bare"))))
                .build();
    }

    /** Log records the load shape does not make: the odd corners of the spec. */
    private static ExportLogsServiceRequest oddLogs(long now) {
        ResourceLogs.Builder noService = ResourceLogs.newBuilder()
                .setResource(Resource.newBuilder()
                        .addAttributes(kv("k8s.pod.name", str("pod-ü")))
                        .addAttributes(kv("deployment.environment.name", str("prod")))
                        .addAttributes(kv("a.nested", map(kv("x", i(1)), kv("y", map(kv("z", str("deep")))))))
                        .addAttributes(kv("zz.bytes", AnyValue.newBuilder().setBytesValue(ByteString.copyFromUtf8("raw")).build())))
                .setSchemaUrl("https://opentelemetry.io/schemas/1.26.0");
        ScopeLogs.Builder scope = ScopeLogs.newBuilder()
                .setScope(InstrumentationScope.newBuilder().setName("odd").setVersion("9").addAttributes(kv("scope.k", b(true))))
                .setSchemaUrl("https://scope/schema");
        scope.addLogRecords(LogRecord.newBuilder().setObservedTimeUnixNano(now + 5)
                .setBody(str("time 0: observed time is used")));
        scope.addLogRecords(LogRecord.newBuilder().setTimeUnixNano(now + 6).setObservedTimeUnixNano(now + 7)
                .setSeverityNumberValue(300).setSeverityText("CUSTOM").setFlags(0x1FF)
                .setTraceId(ByteString.copyFrom(new byte[16])).setSpanId(ByteString.copyFrom(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}))
                .setBody(AnyValue.newBuilder().setDoubleValue(Double.NaN)));
        scope.addLogRecords(LogRecord.newBuilder().setTimeUnixNano(now + 8).setEventName("odd.event")
                .setBody(map(kv("b", arr(i(1), str("two"), AnyValue.getDefaultInstance())), kv("a", str("<&>"))))
                .addAttributes(kv("empty", AnyValue.getDefaultInstance()))
                .addAttributes(kv("ints", arr(i(1), i(-2))))
                .addAttributes(kv("unicode 🙂", str("emoji"))));
        scope.addLogRecords(LogRecord.newBuilder().setTimeUnixNano(now + 9)
                .setBody(AnyValue.newBuilder().setBytesValue(ByteString.copyFrom(new byte[] {0, (byte) 0xFF}))));
        scope.addLogRecords(LogRecord.newBuilder());
        noService.addScopeLogs(scope);
        ResourceLogs.Builder intService = ResourceLogs.newBuilder()
                .setResource(Resource.newBuilder().addAttributes(kv("service.name", i(42))))
                .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(LogRecord.newBuilder().setTimeUnixNano(now + 10)
                        .setBody(str("service.name is an int"))));
        return ExportLogsServiceRequest.newBuilder().addResourceLogs(noService).addResourceLogs(intService).build();
    }

    /** Data points the load shape does not make: absent optional values, NaN, int exemplars, no data. */
    private static ExportMetricsServiceRequest oddMetrics(long now) {
        Exemplar intExemplar = Exemplar.newBuilder().setTimeUnixNano(now + 1_500_000_000L).setAsInt(-7)
                .addFilteredAttributes(kv("user", str("u1"))).build();
        Exemplar withIds = Exemplar.newBuilder().setAsDouble(0.5)
                .setSpanId(ByteString.copyFrom(new byte[] {9, 9, 9, 9, 9, 9, 9, 9}))
                .setTraceId(ByteString.copyFrom(new byte[] {1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2})).build();
        Metric gauge = Metric.newBuilder().setName("odd.gauge").setUnit("1").setDescription("NaN, empty and int values")
                .setGauge(Gauge.newBuilder()
                        .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(now).setAsDouble(Double.NaN))
                        .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(now).setFlags(1))
                        .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(now).setAsInt(Long.MAX_VALUE)
                                .addExemplars(intExemplar).addExemplars(withIds))
                        .addDataPoints(NumberDataPoint.newBuilder().setAsDouble(Double.NEGATIVE_INFINITY)))
                .build();
        Metric sum = Metric.newBuilder().setName("odd.sum")
                .setSum(Sum.newBuilder().setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_UNSPECIFIED)
                        .addDataPoints(NumberDataPoint.newBuilder().setStartTimeUnixNano(now - 1).setTimeUnixNano(now).setAsInt(-1)))
                .build();
        Metric histogram = Metric.newBuilder().setName("odd.histogram")
                .setHistogram(Histogram.newBuilder().setAggregationTemporalityValue(2)
                        .addDataPoints(HistogramDataPoint.newBuilder().setTimeUnixNano(now).setCount(3))
                        .addDataPoints(HistogramDataPoint.newBuilder().setTimeUnixNano(now).setCount(-1L).setSum(-0.0)
                                .addBucketCounts(-1L).addBucketCounts(0).addExplicitBounds(Double.POSITIVE_INFINITY)
                                .setMin(-5e-324).setMax(Double.MAX_VALUE).addExemplars(withIds)))
                .build();
        Metric exponential = Metric.newBuilder().setName("odd.exponential")
                .setExponentialHistogram(ExponentialHistogram.newBuilder().setAggregationTemporalityValue(1)
                        .addDataPoints(ExponentialHistogramDataPoint.newBuilder().setTimeUnixNano(now).setScale(-3)
                                .setZeroCount(2).setZeroThreshold(0.001))
                        .addDataPoints(ExponentialHistogramDataPoint.newBuilder().setTimeUnixNano(now).setScale(20)
                                .setPositive(ExponentialHistogramDataPoint.Buckets.newBuilder().setOffset(-2147483648).addBucketCounts(1))
                                .setNegative(ExponentialHistogramDataPoint.Buckets.newBuilder().setOffset(2147483647).addBucketCounts(2).addBucketCounts(3))
                                .setMin(1).setMax(2).setSum(3).setCount(6).addExemplars(intExemplar)))
                .build();
        Metric summary = Metric.newBuilder().setName("odd.summary")
                .setSummary(Summary.newBuilder()
                        .addDataPoints(SummaryDataPoint.newBuilder().setTimeUnixNano(now))
                        .addDataPoints(SummaryDataPoint.newBuilder().setTimeUnixNano(now).setCount(10).setSum(Double.NaN)
                                .addQuantileValues(SummaryDataPoint.ValueAtQuantile.newBuilder().setQuantile(0.99).setValue(12.5))
                                .addQuantileValues(SummaryDataPoint.ValueAtQuantile.newBuilder())))
                .build();
        Metric noData = Metric.newBuilder().setName("odd.no-data").build();
        return ExportMetricsServiceRequest.newBuilder()
                .addResourceMetrics(ResourceMetrics.newBuilder()
                        .setResource(Resource.newBuilder().addAttributes(kv("service.name", str("odd-svc")))
                                .addAttributes(kv("dup", i(1))).addAttributes(kv("dup", i(2))))
                        .setSchemaUrl("https://res/schema")
                        .addScopeMetrics(ScopeMetrics.newBuilder()
                                .setScope(InstrumentationScope.newBuilder().setName("odd").setDroppedAttributesCount(3))
                                .setSchemaUrl("https://scope/schema")
                                .addMetrics(gauge).addMetrics(sum).addMetrics(histogram).addMetrics(exponential)
                                .addMetrics(summary).addMetrics(noData)))
                .build();
    }
}
