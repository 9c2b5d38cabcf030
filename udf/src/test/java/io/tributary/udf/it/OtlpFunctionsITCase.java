package io.tributary.udf.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.TributaryJob;
import io.tributary.clickhouse.ClickHouseClient;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.otlp.Signal;
import io.tributary.otlp.json.OtlpJsonWriter;
import io.tributary.schema.ChType;
import io.tributary.schema.TableEngine;
import io.tributary.testing.RealServices;
import io.tributary.testing.oracle.RandomOtlp;
import io.tributary.tools.loadgen.LoadShape;
import io.tributary.topology.SchemaManager;
import io.tributary.udf.OtlpMetricPoints;
import io.tributary.udf.OtlpProfileSamples;
import io.tributary.udf.OtlpRowType;
import io.tributary.udf.OtlpSpans;
import io.tributary.udf.ProfilesRequests;
import io.tributary.udf.SqlCommenter;
import io.tributary.udf.Traceparent;

import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.lang.reflect.Array;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The table functions against the job: the same Kafka records (generated requests with every value
 * type and odd corner, encoded the many ways protobuf allows, and SDK-shaped OTLP/JSON; profiles
 * from {@link ProfilesRequests}, protobuf and OTLP/JSON; one undecodable record per topic) go
 * through the job into ClickHouse and through {@code OTLP_SPANS}, {@code OTLP_LOG_RECORDS}, {@code
 * OTLP_METRIC_POINTS} and {@code OTLP_PROFILE_SAMPLES} in Flink SQL; every row of
 * every table must equal a function row in every column, and the functions must yield no other
 * rows. ClickHouse's side is read as JSON and the functions' as Java values, each rendered by its
 * own code. The {@code otlp} format must give the functions' rows, and the undecodable records
 * are counted, not fatal.
 */
class OtlpFunctionsITCase {

    private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SqlTesting.miniCluster(REPORTER);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DB = RealServices.uniqueName("it_udf");
    private static final Map<Signal, String> TOPICS = new TreeMap<>();
    /** The records' time, in nanoseconds. */
    private static final long NOW = 1_764_460_800_000_000_000L;
    private static ClickHouseClient ch;

    @BeforeAll
    static void recordsThroughTheJob() throws Exception {
        ch = RealServices.clickHouse();
        RandomOtlp random = new RandomOtlp(12);
        LoadShape shape = new LoadShape(5, 64);
        long now = NOW;
        byte[] garbage = {0x0a, 0x7f, 0x01, 0x02};
        for (Signal s : Signal.values()) {
            String topic = RealServices.uniqueName("it_udf_" + s.id());
            RealServices.createTopic(topic, 2);
            TOPICS.put(s, topic);
            List<byte[]> records = new ArrayList<>();
            for (int i = 0; i < 25; i++) {
                switch (s) {
                    case TRACES:
                        records.add(i % 2 == 0 ? random.scramble(random.traces()) : random.encode(random.traces()));
                        break;
                    case LOGS:
                        records.add(i % 2 == 0 ? random.scramble(random.logs()) : random.encode(random.logs()));
                        break;
                    case METRICS:
                        records.add(shape.nextMetrics(now + i).toByteArray());
                        break;
                    default:
                        records.add(ProfilesRequests.request(i, now + i * 1_000_000_000L).toByteArray());
                }
            }
            for (int i = 0; i < 5; i++) {
                records.add(OtlpJsonWriter.write(s == Signal.TRACES ? shape.next(now + i)
                        : s == Signal.LOGS ? shape.nextLogs(now + i)
                        : s == Signal.METRICS ? shape.nextMetrics(now + i)
                        : ProfilesRequests.request(100 + i, now + i)));
            }
            records.add(garbage);
            RealServices.produce(topic, records);
        }
        TributaryConfig config = TributaryConfig.fromArgs(new String[] {
            "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
            "--kafka.topics.traces", TOPICS.get(Signal.TRACES),
            "--kafka.topics.logs", TOPICS.get(Signal.LOGS),
            "--kafka.topics.metrics", TOPICS.get(Signal.METRICS),
            "--kafka.topics.profiles", TOPICS.get(Signal.PROFILES),
            "--signals", "traces,logs,metrics,profiles",
            "--kafka.group-id", DB,
            "--kafka.bounded", "true",
            "--kafka.starting-offsets", "earliest",
            "--clickhouse.url", RealServices.clickHouseUrl(),
            "--clickhouse.database", DB,
            "--dlq.topic", "",
            "--checkpoint.interval", "1s"
        });
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
        TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), config);
    }

    @AfterAll
    static void drop() throws Exception {
        ch.execute("DROP DATABASE IF EXISTS " + DB);
    }

    private static TableEnvironment sql() {
        TableEnvironment t = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        t.createTemporarySystemFunction("OTLP_SPANS", OtlpSpans.class);
        t.executeSql("CREATE TEMPORARY SYSTEM FUNCTION OTLP_LOG_RECORDS AS 'io.tributary.udf.OtlpLogRecords'");
        t.createTemporarySystemFunction("OTLP_METRIC_POINTS", OtlpMetricPoints.class);
        t.createTemporarySystemFunction("OTLP_PROFILE_SAMPLES", OtlpProfileSamples.class);
        return t;
    }

    private static String kafka(Signal s, String format) {
        return "'connector' = 'kafka', 'topic' = '" + TOPICS.get(s) + "', 'properties.bootstrap.servers' = '"
                + RealServices.kafkaBootstrap() + "', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset', " + format;
    }

    /** The function's rows for every record of the signal's topic, and the job id that made them. */
    private static List<Row> functionRows(Signal s, String function) throws Exception {
        TableEnvironment t = sql();
        t.executeSql("CREATE TABLE raw_records (`value` BYTES) WITH (" + kafka(s, "'format' = 'raw'") + ")");
        TableResult r = t.executeSql("SELECT f.* FROM raw_records, LATERAL TABLE(" + function + "(`value`)) AS f");
        List<Row> rows = SqlTesting.collect(r);
        assertThat(SqlTesting.counter(REPORTER, r.getJobClient().orElseThrow().getJobID(), "decodeFailures"))
                .as("undecodable records counted").isEqualTo(1);
        return rows;
    }

    @Test
    void spansEqualTheJobsRows() throws Exception {
        List<Row> rows = functionRows(Signal.TRACES, "OTLP_SPANS");
        assertSameRows("otel_traces", rows);
    }

    @Test
    void logRecordsEqualTheJobsRows() throws Exception {
        List<Row> rows = functionRows(Signal.LOGS, "OTLP_LOG_RECORDS");
        assertSameRows("otel_logs", rows);
        // OTLP/JSON read as text: the same rows as from its bytes
        TableEnvironment t = sql();
        t.executeSql("CREATE TABLE text_records (`value` STRING) WITH (" + kafka(Signal.LOGS, "'format' = 'raw'") + ")");
        List<Row> fromText = SqlTesting.collect(t.executeSql("SELECT f.* FROM text_records, LATERAL TABLE(OTLP_LOG_RECORDS(`value`)) AS f"
                + " WHERE `value` LIKE '{%'"));
        t.executeSql("CREATE TABLE byte_records (`value` BYTES) WITH (" + kafka(Signal.LOGS, "'format' = 'raw'") + ")");
        List<Row> fromBytes = SqlTesting.collect(t.executeSql("SELECT f.* FROM byte_records, LATERAL TABLE(OTLP_LOG_RECORDS(`value`)) AS f"
                + " WHERE `value` >= x'7b' AND `value` < x'7c'"));
        assertThat(fromText).hasSize(5 * 64).containsExactlyInAnyOrderElementsOf(fromBytes);
    }

    @Test
    void metricPointsEqualTheJobsRowsInTheirFiveTables() throws Exception {
        List<Row> rows = functionRows(Signal.METRICS, "OTLP_METRIC_POINTS");
        List<String> union = OtlpRowType.of(Signal.METRICS).names();
        Map<String, List<Row>> byType = new TreeMap<>();
        for (Row r : rows) {
            byType.computeIfAbsent((String) r.getField("MetricType"), k -> new ArrayList<>()).add(r);
        }
        assertThat(byType).containsOnlyKeys("gauge", "sum", "histogram", "exponential_histogram", "summary");
        for (Map.Entry<String, List<Row>> e : byType.entrySet()) {
            List<String> columns = assertSameRows("otel_metrics_" + e.getKey(), e.getValue());
            for (Row r : e.getValue()) { // the union's other columns are NULL for this table's points
                for (String c : union) {
                    if (!c.equals("MetricType") && columns.stream().noneMatch(x -> x.equals(c) || x.startsWith(c + "."))) {
                        assertThat(r.getField(c)).as(e.getKey() + "." + c).isNull();
                    }
                }
            }
        }
    }

    @Test
    void profileSamplesEqualTheJobsRows() throws Exception {
        List<Row> rows = functionRows(Signal.PROFILES, "OTLP_PROFILE_SAMPLES");
        assertThat(rows).hasSize(2 * 30);
        assertSameRows("otel_profiles", rows);
        // the otlp format: every column, the same rows
        TableEnvironment t = sql();
        t.executeSql("CREATE TABLE samples (" + columns(Signal.PROFILES) + ") WITH ("
                + kafka(Signal.PROFILES, "'format' = 'otlp', 'otlp.signal' = 'profiles'") + ")");
        assertSameRows("otel_profiles", SqlTesting.collect(t.executeSql("SELECT * FROM samples")));
    }

    /**
     * The ClickHouse queries of sql/queries/profiles.sql (shown in docs/sql.md) over the job's rows,
     * parameters written in: the flame graph of service {@code checkout} and the samples linked to
     * a slow span (an hour long, of the trace and span the samples link to, in a copy of
     * otel_traces) by leaf function; the totals are those of the function's rows.
     */
    @Test
    void theProfileQueriesGiveTheRowsTotals() throws Exception {
        List<Row> rows = functionRows(Signal.PROFILES, "OTLP_PROFILE_SAMPLES");
        ch.execute("CREATE TABLE " + DB + ".slow_spans AS " + DB + ".otel_traces");
        ch.execute("INSERT INTO " + DB + ".slow_spans (Timestamp, TraceId, SpanId, ServiceName, SpanName, Duration)"
                + " SELECT fromUnixTimestamp64Nano(toInt64(" + NOW + ")), '" + ProfilesRequests.TRACE_ID_HEX + "', '"
                + ProfilesRequests.SPAN_ID_HEX + "', 'checkout', 'GET /slow', toUInt64(3600000000000)");
        long hour = 3_600_000_000_000L;
        Map<String, String> params = Map.of("service", "'checkout'", "sample_type", "'cpu'", "min_duration_ms", "500",
                "from_time", "fromUnixTimestamp64Nano(toInt64(" + (NOW - hour) + "))",
                "to_time", "fromUnixTimestamp64Nano(toInt64(" + (NOW + hour) + "))");
        StringBuilder text = new StringBuilder();
        for (String line : Files.readAllLines(Path.of("..", "sql", "queries", "profiles.sql"))) {
            if (!line.startsWith("--")) {
                text.append(line).append('\n');
            }
        }
        Matcher m = Pattern.compile("\\{(\\w+):[^}]+}").matcher(text.toString()
                .replace("otel.otel_profiles", DB + ".otel_profiles").replace("otel.otel_traces", DB + ".slow_spans"));
        StringBuilder sql = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(sql, Matcher.quoteReplacement(params.get(m.group(1))));
        }
        m.appendTail(sql);
        List<String> queries = new ArrayList<>();
        for (String q : sql.toString().split(";\\s*\n")) {
            if (!q.isBlank()) {
                queries.add(q.strip());
            }
        }
        assertThat(queries).hasSize(2);

        Map<String, Long> stacks = new TreeMap<>();
        long linked = 0;
        long linkedSamples = 0;
        for (Row r : rows) {
            Object[] values = (Object[]) r.getField("Values");
            long value = values.length == 0 ? ((Object[]) r.getField("TimestampsUnixNano")).length : 0;
            for (Object v : values) {
                value += (Long) v;
            }
            if (r.getField("ServiceName").equals("checkout") && r.getField("SampleType").equals("cpu")) {
                List<String> frames = new ArrayList<>();
                for (Object f : (Object[]) r.getField("FunctionNames")) {
                    frames.add(0, f.equals("") ? "[unknown]" : (String) f);
                }
                stacks.merge(String.join(";", frames), value, Long::sum);
            }
            if (r.getField("TraceId").equals(ProfilesRequests.TRACE_ID_HEX) && r.getField("SpanId").equals(ProfilesRequests.SPAN_ID_HEX)) {
                assertThat(((Object[]) r.getField("FunctionNames"))[0]).isEqualTo("parseQuery");
                linked += value;
                linkedSamples++;
            }
        }
        assertThat(stacks).containsOnlyKeys("main;handle;parseQuery", "main;handle;parseQuery;[unknown]");
        Map<String, Long> flameGraph = new TreeMap<>();
        for (String line : ch.query(queries.get(0) + "\nFORMAT TabSeparated").split("\n")) {
            if (!line.isBlank()) {
                flameGraph.put(line.split("\t")[0], Long.parseLong(line.split("\t")[1]));
            }
        }
        assertThat(flameGraph).isEqualTo(stacks);
        assertThat(linkedSamples).isEqualTo(30);
        assertThat(ch.query(queries.get(1) + "\nFORMAT TabSeparated").strip())
                .isEqualTo("parseQuery\t" + linked + "\t" + linkedSamples + "\t1");
    }

    /** Every column of the signal's rows, declared as a table's. */
    private static String columns(Signal s) {
        OtlpRowType type = OtlpRowType.of(s);
        StringBuilder columns = new StringBuilder();
        for (int i = 0; i < type.names().size(); i++) {
            columns.append(i == 0 ? "" : ", ").append('`').append(type.names().get(i)).append("` ")
                    .append(type.dataType().getChildren().get(i).getLogicalType().asSerializableString());
        }
        return columns.toString();
    }

    @Test
    void theOtlpFormatGivesTheFunctionsRows() throws Exception {
        TableEnvironment t = sql();
        t.executeSql("CREATE TABLE spans (" + columns(Signal.TRACES) + ") WITH (" + kafka(Signal.TRACES, "'format' = 'otlp', 'otlp.signal' = 'traces'") + ")");
        List<Row> viaFormat = SqlTesting.collect(t.executeSql("SELECT * FROM spans"));
        assertSameRows("otel_traces", viaFormat);
        // a table may declare some of the columns, in any order
        t.executeSql("CREATE TABLE few (Duration BIGINT, SpanName STRING, `Timestamp` TIMESTAMP_LTZ(9)) WITH ("
                + kafka(Signal.TRACES, "'format' = 'otlp', 'otlp.signal' = 'traces'") + ")");
        List<String> few = new ArrayList<>();
        SqlTesting.collect(t.executeSql("SELECT * FROM few")).forEach(r -> few.add(r.getField(0) + "|" + r.getField(1) + "|" + r.getField(2)));
        List<String> expected = new ArrayList<>();
        viaFormat.forEach(r -> expected.add(r.getField("Duration") + "|" + r.getField("SpanName") + "|" + r.getField("Timestamp")));
        assertThat(few).containsExactlyInAnyOrderElementsOf(expected);

        // metrics: the union's columns, NULL where a point's table has none, nested rows included
        String cols = "MetricType, MetricName, `Value`, BucketCounts, ValueAtQuantiles, StartTimeUnix, Exemplars";
        t.executeSql("CREATE TABLE points (MetricType STRING, MetricName STRING, `Value` DOUBLE, BucketCounts ARRAY<BIGINT>,"
                + " ValueAtQuantiles ARRAY<ROW<Quantile DOUBLE, `Value` DOUBLE>>, StartTimeUnix TIMESTAMP_LTZ(0),"
                + " Exemplars ARRAY<ROW<FilteredAttributes MAP<STRING, STRING>, TimeUnix TIMESTAMP_LTZ(0), `Value` DOUBLE,"
                + " SpanId STRING, TraceId STRING>>) WITH ("
                + kafka(Signal.METRICS, "'format' = 'otlp', 'otlp.signal' = 'metrics'") + ")");
        List<String> viaPoints = new ArrayList<>();
        SqlTesting.collect(t.executeSql("SELECT " + cols + " FROM points")).forEach(r -> viaPoints.add(r.toString()));
        t.executeSql("CREATE TABLE raw_metrics (`value` BYTES) WITH (" + kafka(Signal.METRICS, "'format' = 'raw'") + ")");
        List<String> viaFunction = new ArrayList<>();
        SqlTesting.collect(t.executeSql("SELECT " + cols + " FROM raw_metrics, LATERAL TABLE(OTLP_METRIC_POINTS(`value`))"))
                .forEach(r -> viaFunction.add(r.toString()));
        assertThat(viaPoints).hasSizeGreaterThan(100).containsExactlyInAnyOrderElementsOf(viaFunction);
        assertThat(String.join("\n", viaPoints)).contains("summary", "histogram", "gauge");
    }

    @Test
    void traceContextFunctionsInSql() throws Exception {
        TableEnvironment t = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        t.createTemporarySystemFunction("TRACEPARENT", Traceparent.class);
        t.createTemporarySystemFunction("SQLCOMMENTER", SqlCommenter.class);
        List<Row> rows = SqlTesting.collect(t.executeSql("SELECT"
                + " TRACEPARENT('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01').trace_id,"
                + " TRACEPARENT('SELECT 1 /*traceparent=''00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01''*/').flags,"
                + " TRACEPARENT('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7') IS NULL,"
                + " TRACEPARENT(CAST(NULL AS STRING)) IS NULL,"
                + " SQLCOMMENTER('SELECT * FROM FOO /*action=''%2Fparam*d'',controller=''index''*/')['action'],"
                + " SQLCOMMENTER('SELECT 1 /*broken*/') IS NULL"));
        assertThat(rows).containsExactly(Row.of("4bf92f3577b34da6a3ce929d0e0e4736", "01", true, true, "/param*d", true));
    }

    // ---- comparison ----

    /**
     * Compares the rows of {@code table} in ClickHouse with {@code rows}, column by column, as
     * multisets; returns the table's columns.
     */
    private static List<String> assertSameRows(String table, List<Row> rows) throws Exception {
        List<String[]> columns = new ArrayList<>(); // name, type
        for (String line : ch.query("SELECT name, type FROM system.columns WHERE database = '" + DB + "' AND table = '" + table
                + "' AND default_kind NOT IN ('MATERIALIZED', 'ALIAS') ORDER BY position FORMAT TSV").split("\n")) {
            if (!line.isBlank()) {
                columns.add(line.split("\t"));
            }
        }
        StringBuilder select = new StringBuilder("SELECT ");
        for (int i = 0; i < columns.size(); i++) {
            String n = columns.get(i)[0];
            ChType type = ChType.parse(columns.get(i)[1]);
            select.append(i == 0 ? "" : ", ").append(expression("`" + n + "`", type)).append(" AS `").append(n).append('`');
        }
        List<String> fromClickHouse = new ArrayList<>();
        for (String line : ch.query(select + " FROM " + DB + "." + table
                + " SETTINGS output_format_json_quote_64bit_integers = 1, output_format_json_quote_denormals = 1"
                + " FORMAT JSONEachRow").split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode n = JSON.readTree(line);
            StringBuilder sb = new StringBuilder();
            for (String[] c : columns) {
                sb.append(c[0]).append('=').append(renderJson(ChType.parse(c[1]).onTheWire(), n.get(c[0]))).append(" | ");
            }
            fromClickHouse.add(sb.toString());
        }
        List<String> fromFunction = new ArrayList<>();
        for (Row r : rows) {
            StringBuilder sb = new StringBuilder();
            for (String[] c : columns) {
                sb.append(c[0]).append('=').append(renderJava(ChType.parse(c[1]).onTheWire(), field(r, c[0]))).append(" | ");
            }
            fromFunction.add(sb.toString());
        }
        Collections.sort(fromClickHouse);
        Collections.sort(fromFunction);
        assertThat(fromClickHouse).as(table + " rows").hasSizeGreaterThan(10);
        assertThat(fromFunction).as(table).containsExactlyElementsOf(fromClickHouse);
        List<String> names = new ArrayList<>();
        columns.forEach(c -> names.add(c[0]));
        return names;
    }

    /** What ClickHouse selects for a column: timestamps as integers of their ticks. */
    private static String expression(String column, ChType type) {
        ChType t = type.onTheWire();
        if (t.is("DateTime64")) {
            return "toUnixTimestamp64Nano(" + column + ")";
        }
        if (t.is("DateTime")) {
            return "toUnixTimestamp(" + column + ")";
        }
        if (t.is("Array") && t.arg(0).onTheWire().is("DateTime64")) {
            return "arrayMap(x -> toUnixTimestamp64Nano(x), " + column + ")";
        }
        if (t.is("Array") && t.arg(0).onTheWire().is("DateTime")) {
            return "arrayMap(x -> toUnixTimestamp(x), " + column + ")";
        }
        return column;
    }

    /** A function row's value of a ClickHouse column; a Nested column's is one member across the rows of its array. */
    private static Object field(Row r, String column) {
        int dot = column.indexOf('.');
        if (dot < 0) {
            return r.getField(column);
        }
        Row[] nested = (Row[]) r.getField(column.substring(0, dot));
        List<Object> out = new ArrayList<>();
        for (Row n : nested) {
            out.add(n.getField(column.substring(dot + 1)));
        }
        return out;
    }

    private static String renderJson(ChType t, JsonNode v) {
        switch (t.name()) {
            case "String":
                return "s:" + v.asText();
            case "Bool":
                return "b:" + v.asBoolean();
            case "Float64":
                return "f:" + Double.toString(parseDouble(v.asText()));
            case "Map": {
                TreeMap<String, String> m = new TreeMap<>();
                v.fields().forEachRemaining(e -> m.put(e.getKey(), renderJson(t.arg(1).onTheWire(), e.getValue())));
                return "m:" + m;
            }
            case "Array": {
                List<String> out = new ArrayList<>();
                v.forEach(e -> out.add(renderJson(t.arg(0).onTheWire(), e)));
                return "a:" + out;
            }
            default: // integers of every width, and the timestamps' ticks
                return "n:" + v.asText();
        }
    }

    private static double parseDouble(String s) {
        switch (s) {
            case "nan":
            case "-nan":
                return Double.NaN;
            case "inf":
                return Double.POSITIVE_INFINITY;
            case "-inf":
                return Double.NEGATIVE_INFINITY;
            default:
                return Double.parseDouble(s);
        }
    }

    private static String renderJava(ChType t, Object v) {
        assertThat(v).as("a value of ClickHouse type " + t).isNotNull();
        switch (t.name()) {
            case "String":
                return "s:" + v;
            case "Bool":
                return "b:" + v;
            case "Float64":
                return "f:" + v;
            case "UInt64":
                return "n:" + Long.toUnsignedString((Long) v);
            case "DateTime64":
                return "n:" + (((Instant) v).getEpochSecond() * 1_000_000_000L + ((Instant) v).getNano());
            case "DateTime":
                return "n:" + ((Instant) v).getEpochSecond();
            case "Map": {
                TreeMap<String, String> m = new TreeMap<>();
                ((Map<?, ?>) v).forEach((k, x) -> m.put((String) k, renderJava(t.arg(1).onTheWire(), x)));
                return "m:" + m;
            }
            case "Array": {
                List<String> out = new ArrayList<>();
                if (v instanceof List) {
                    ((List<?>) v).forEach(e -> out.add(renderJava(t.arg(0).onTheWire(), e)));
                } else {
                    for (int i = 0; i < Array.getLength(v); i++) {
                        out.add(renderJava(t.arg(0).onTheWire(), Array.get(v, i)));
                    }
                }
                return "a:" + out;
            }
            default:
                return "n:" + v;
        }
    }
}
