package io.tributary.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.tributary.TributaryJob;
import io.tributary.clickhouse.ClickHouseClient;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.it.ExactlyOnceChangesITCase;
import io.tributary.otlp.json.OtlpJsonWriter;
import io.tributary.schema.TableEngine;
import io.tributary.testing.JobProcess;
import io.tributary.testing.RealServices;
import io.tributary.tools.loadgen.LoadShape;
import io.tributary.topology.SchemaManager;
import io.tributary.topology.TributaryTopology;

import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Tables the job did not create, on the real services: tables of older exporter versions and of
 * ClickStack get every column they have, in their own types, with the values the job writes into
 * the tables it creates; tables that cannot hold what the job writes fail the job at start,
 * naming the table, the column and both types; {@code schema check} says the same.
 */
class ForeignTablesITCase {

    @RegisterExtension
    static final MiniClusterExtension FLINK = RealServices.miniCluster(2);

    /** otel_logs as exporters before v0.81 created it: TraceFlags UInt32, SeverityNumber Int32, no scope or schema URLs, no EventName. */
    private static final String LOGS_V080 = "CREATE TABLE %s.otel_logs (\n"
            + "  Timestamp DateTime64(9) CODEC(Delta, ZSTD(1)),\n"
            + "  TraceId String CODEC(ZSTD(1)),\n"
            + "  SpanId String CODEC(ZSTD(1)),\n"
            + "  TraceFlags UInt32 CODEC(ZSTD(1)),\n"
            + "  SeverityText LowCardinality(String) CODEC(ZSTD(1)),\n"
            + "  SeverityNumber Int32 CODEC(ZSTD(1)),\n"
            + "  ServiceName LowCardinality(String) CODEC(ZSTD(1)),\n"
            + "  Body String CODEC(ZSTD(1)),\n"
            + "  ResourceAttributes Map(LowCardinality(String), String) CODEC(ZSTD(1)),\n"
            + "  LogAttributes Map(LowCardinality(String), String) CODEC(ZSTD(1))\n"
            + ") ENGINE = MergeTree PARTITION BY toDate(Timestamp)\n"
            + "ORDER BY (ServiceName, SeverityText, toUnixTimestamp(Timestamp), TraceId)";

    /** otel_traces before v0.81: no ScopeName or ScopeVersion, Duration Int64. */
    private static final String TRACES_V080 = "CREATE TABLE %s.otel_traces (\n"
            + "  Timestamp DateTime64(9) CODEC(Delta, ZSTD(1)),\n"
            + "  TraceId String, SpanId String, ParentSpanId String, TraceState String,\n"
            + "  SpanName LowCardinality(String), SpanKind LowCardinality(String), ServiceName LowCardinality(String),\n"
            + "  ResourceAttributes Map(LowCardinality(String), String),\n"
            + "  SpanAttributes Map(LowCardinality(String), String),\n"
            + "  Duration Int64, StatusCode LowCardinality(String), StatusMessage String,\n"
            + "  Events Nested (Timestamp DateTime64(9), Name LowCardinality(String), Attributes Map(LowCardinality(String), String)),\n"
            + "  Links Nested (TraceId String, SpanId String, TraceState String, Attributes Map(LowCardinality(String), String))\n"
            + ") ENGINE = MergeTree PARTITION BY toDate(Timestamp)\n"
            + "ORDER BY (ServiceName, SpanName, toUnixTimestamp(Timestamp), TraceId)";

    /** otel_metrics_sum before v0.98: no ServiceName, AggTemp (not AggregationTemporality), DateTime64(9) times, String MetricName. */
    private static final String SUM_V095 = "CREATE TABLE %s.otel_metrics_sum (\n"
            + "  ResourceAttributes Map(LowCardinality(String), String), ResourceSchemaUrl String,\n"
            + "  ScopeName String, ScopeVersion String, ScopeAttributes Map(LowCardinality(String), String),\n"
            + "  ScopeDroppedAttrCount UInt32, ScopeSchemaUrl String,\n"
            + "  MetricName String, MetricDescription String, MetricUnit String,\n"
            + "  Attributes Map(LowCardinality(String), String),\n"
            + "  StartTimeUnix DateTime64(9) CODEC(Delta, ZSTD(1)), TimeUnix DateTime64(9) CODEC(Delta, ZSTD(1)),\n"
            + "  Value Float64, Flags UInt32,\n"
            + "  Exemplars Nested (FilteredAttributes Map(LowCardinality(String), String), TimeUnix DateTime64(9),"
            + " Value Float64, SpanId String, TraceId String),\n"
            + "  AggTemp Int32, IsMonotonic Boolean\n"
            + ") ENGINE = MergeTree PARTITION BY toDate(TimeUnix)\n"
            + "ORDER BY (MetricName, Attributes, toUnixTimestamp64Nano(TimeUnix))";

    /** otel_logs as ClickStack makes it (v0.107-v0.150 columns): TimestampTime DEFAULT, its own MATERIALIZED columns, no EventName. */
    private static final String LOGS_CLICKSTACK = "CREATE TABLE %s.otel_logs (\n"
            + "  Timestamp DateTime64(9) CODEC(Delta(8), ZSTD(1)),\n"
            + "  TimestampTime DateTime DEFAULT toDateTime(Timestamp),\n"
            + "  TraceId String CODEC(ZSTD(1)), SpanId String CODEC(ZSTD(1)), TraceFlags UInt8,\n"
            + "  SeverityText LowCardinality(String), SeverityNumber UInt8, ServiceName LowCardinality(String),\n"
            + "  Body String CODEC(ZSTD(1)), ResourceSchemaUrl LowCardinality(String),\n"
            + "  ResourceAttributes Map(LowCardinality(String), String), ScopeSchemaUrl LowCardinality(String),\n"
            + "  ScopeName String, ScopeVersion LowCardinality(String), ScopeAttributes Map(LowCardinality(String), String),\n"
            + "  LogAttributes Map(LowCardinality(String), String),\n"
            + "  `__hdx_materialized_k8s.pod.name` LowCardinality(String) MATERIALIZED ResourceAttributes['k8s.pod.name']\n"
            + ") ENGINE = MergeTree PARTITION BY toDate(TimestampTime)\n"
            + "PRIMARY KEY (ServiceName, TimestampTime) ORDER BY (ServiceName, TimestampTime, Timestamp)";

    private static String[] args(String db, String traces, String logs, String metrics, String signals) {
        return new String[] {
            "--signals", signals,
            "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
            "--kafka.topics.traces", traces,
            "--kafka.topics.logs", logs,
            "--kafka.topics.metrics", metrics,
            "--kafka.group-id", db,
            "--kafka.bounded", "true",
            "--kafka.starting-offsets", "earliest",
            "--dlq.topic", "",
            "--parallelism", "2",
            "--clickhouse.url", RealServices.clickHouseUrl(),
            "--clickhouse.database", db,
            "--checkpoint.interval", "1s",
            "--flink.restart-strategy.type", "none"
        };
    }

    @Test
    void olderExporterAndClickStackTablesGetTheirColumnsInTheirTypesWithTheJobsValues() throws Exception {
        String traces = RealServices.uniqueName("it_foreign_spans");
        String logs = RealServices.uniqueName("it_foreign_logs");
        String metrics = RealServices.uniqueName("it_foreign_metrics");
        for (String t : List.of(traces, logs, metrics)) {
            RealServices.createTopic(t, 2);
        }
        LoadShape shape = new LoadShape(7, 20);
        long t0 = 1_764_460_800_123_456_789L;
        List<byte[]> spans = new ArrayList<>();
        List<byte[]> logRecords = new ArrayList<>();
        List<byte[]> points = new ArrayList<>();
        List<Long> sumTimes = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            long t = t0 + i * 1_234_567L;
            spans.add(i % 3 == 0 ? OtlpJsonWriter.write(shape.next(t)) : shape.next(t).toByteArray());
            logRecords.add(i % 3 == 1 ? OtlpJsonWriter.write(shape.nextLogs(t)) : shape.nextLogs(t).toByteArray());
            ExportMetricsServiceRequest m = shape.nextMetrics(t);
            points.add(i % 3 == 2 ? OtlpJsonWriter.write(m) : m.toByteArray());
            for (ResourceMetrics rm : m.getResourceMetricsList()) {
                for (ScopeMetrics sm : rm.getScopeMetricsList()) {
                    for (Metric metric : sm.getMetricsList()) {
                        if (metric.hasSum()) {
                            for (NumberDataPoint p : metric.getSum().getDataPointsList()) {
                                sumTimes.add(p.getTimeUnixNano());
                            }
                        }
                    }
                }
            }
        }
        RealServices.produce(traces, spans);
        RealServices.produce(logs, logRecords);
        RealServices.produce(metrics, points);
        String created = RealServices.uniqueName("it_created");
        String old = RealServices.uniqueName("it_v080");
        String clickstack = RealServices.uniqueName("it_clickstack");
        ClickHouseClient ch = RealServices.clickHouse();
        try {
            // the job's own tables
            TributaryConfig mine = TributaryConfig.fromArgs(args(created, traces, logs, metrics, "traces,logs,metrics"));
            SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), mine, TableEngine.MERGE_TREE, null);
            TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), mine);
            // older exporters' tables (the others as the job makes them)
            ch.execute("CREATE DATABASE `" + old + "`");
            ch.execute(String.format(LOGS_V080, "`" + old + "`"));
            ch.execute(String.format(TRACES_V080, "`" + old + "`"));
            ch.execute(String.format(SUM_V095, "`" + old + "`"));
            // in Native: each foreign column type through the columnar encoder, compared below with the
            // job's own tables, written in RowBinary
            TributaryConfig older = TributaryConfig.fromArgs(RealServices.concat(
                    args(old, traces, logs, metrics, "traces,logs,metrics"), "--sink.format", "native"));
            SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), older, TableEngine.MERGE_TREE, null);
            TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), older);
            // ClickStack's logs table
            ch.execute("CREATE DATABASE `" + clickstack + "`");
            ch.execute(String.format(LOGS_CLICKSTACK, "`" + clickstack + "`"));
            TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(),
                    TributaryConfig.fromArgs(RealServices.concat(args(clickstack, traces, logs, metrics, "logs"),
                            "--sink.format", "native")));

            assertThat(RealServices.count(created, "otel_traces")).isEqualTo(240);
            assertThat(RealServices.count(created, "otel_logs")).isEqualTo(240);
            long sums = RealServices.count(created, "otel_metrics_sum");
            assertThat(sums).isEqualTo(sumTimes.size()).isPositive();
            for (String[] t : new String[][] {{old, "otel_traces"}, {old, "otel_logs"}, {old, "otel_metrics_sum"},
                {clickstack, "otel_logs"}}) {
                // every column the foreign table has and the job writes holds what the job's own table holds
                Map<String, String> types = columns(ch, t[0], t[1]);
                Map<String, String> canonical = columns(ch, created, t[1]);
                List<String> compared = new ArrayList<>();
                StringBuilder mineRows = new StringBuilder("SELECT arrayStringConcat(arraySort(groupArray(concat(''");
                StringBuilder theirRows = new StringBuilder(mineRows);
                for (Map.Entry<String, String> c : types.entrySet()) {
                    String name = c.getKey();
                    String mineName = name.equals("AggTemp") ? "AggregationTemporality" : name;
                    if (!canonical.containsKey(mineName)) {
                        continue;
                    }
                    compared.add(name);
                    String canonicalType = canonical.get(mineName);
                    mineRows.append(", '|', toString(`").append(mineName).append("`)");
                    theirRows.append(", '|', toString(CAST(`").append(name).append("` AS ").append(canonicalType).append("))");
                }
                String tail = "))), '\\n') FROM ";
                String expected = ch.query(mineRows + tail + "`" + created + "`.`" + t[1] + "` FORMAT TSVRaw");
                String actual = ch.query(theirRows + tail + "`" + t[0] + "`.`" + t[1] + "` FORMAT TSVRaw");
                assertThat(compared).as("columns compared in %s", t[1]).hasSizeGreaterThan(8);
                assertThat(actual).as("%s.%s, columns %s", t[0], t[1], compared).isEqualTo(expected);
                assertThat(actual.split("\n")).hasSize((int) RealServices.count(created, t[1]));
            }
            // the converted columns in their own types
            assertThat(columns(ch, old, "otel_logs")).containsEntry("TraceFlags", "UInt32").containsEntry("SeverityNumber", "Int32");
            assertThat(ch.query("SELECT groupArraySorted(1000)(Duration) = (SELECT groupArraySorted(1000)(toInt64(Duration)) FROM `"
                    + created + "`.otel_traces), min(Duration) >= 0 FROM `" + old + "`.otel_traces FORMAT TSV"))
                    .isEqualTo("1\t1\n");
            // DateTime64(9) times get the nanoseconds, which the job's own DateTime columns truncate to seconds
            sumTimes.sort(null);
            assertThat(ch.query("SELECT arrayStringConcat(arraySort(groupArray(toString(toUnixTimestamp64Nano(TimeUnix)))), ',') FROM `"
                    + old + "`.otel_metrics_sum FORMAT TSVRaw").strip())
                    .isEqualTo(String.join(",", sumTimes.stream().map(String::valueOf).toList()));
            assertThat(ch.query("SELECT countIf(AggTemp NOT IN (1, 2)), countIf(AggTemp = 1) > 0 FROM `" + old
                    + "`.otel_metrics_sum FORMAT TSV")).isEqualTo("0\t1\n");
            // ClickHouse computes what the job leaves to it
            assertThat(ch.query("SELECT countIf(TimestampTime != toDateTime(Timestamp)), countIf(`__hdx_materialized_k8s.pod.name`"
                    + " != ResourceAttributes['k8s.pod.name']), countIf(`__hdx_materialized_k8s.pod.name` != '') FROM `"
                    + clickstack + "`.otel_logs FORMAT TSV")).isEqualTo("0\t0\t240\n");

            // schema check says what the job writes and leaves
            JobProcess check = JobProcess.start("schema-check-old", List.of("schema", "check", "--signals", "logs,metrics",
                    "--clickhouse.url", RealServices.clickHouseUrl(), "--clickhouse.database", old));
            assertThat(check.waitFor(60)).as(check.log()).isZero();
            assertThat(check.log())
                    .contains("`" + old + "`.`otel_logs`: the job writes 10 columns")
                    .contains("    TraceFlags UInt32  (converted from UInt8)")
                    .contains("    SeverityNumber Int32  (converted from UInt8)")
                    .contains("    EventName (String): the table has no column `EventName`")
                    .contains("    ScopeName (String): the table has no column `ScopeName`")
                    .contains("    AggTemp Int32\n")
                    .contains("    TimeUnix DateTime64(9)  (converted from DateTime)")
                    .contains("    ServiceName (LowCardinality(String)): the table has no column `ServiceName`");
        } finally {
            for (String db : List.of(created, old, clickstack)) {
                ch.execute("DROP DATABASE IF EXISTS `" + db + "`");
            }
        }
    }

    @Test
    void tablesThatCannotHoldWhatTheJobWritesFailAtStartNamingTableColumnAndTypes() throws Exception {
        String db = RealServices.uniqueName("it_misfit");
        String traces = RealServices.uniqueName("it_misfit_spans");
        String logs = RealServices.uniqueName("it_misfit_logs");
        RealServices.createTopic(traces, 1);
        RealServices.createTopic(logs, 1);
        ClickHouseClient ch = RealServices.clickHouse();
        ch.execute("CREATE DATABASE `" + db + "`");
        try {
            ch.execute(String.format(LOGS_V080, "`" + db + "`").replace("TraceId String", "TraceId UInt64")
                    .replace("SeverityNumber Int32", "SeverityNumber Int8"));
            ch.execute(String.format(TRACES_V080, "`" + db + "`").replace("SpanId String, ", ""));
            TributaryConfig config = TributaryConfig.fromArgs(args(db, traces, logs, "", "traces,logs"));
            SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
            assertThatThrownBy(() -> TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), config))
                    .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                            .contains("`" + db + "`.`otel_traces` has no column `SpanId`, which the job must write (String)")
                            .contains("`" + db + "`.`otel_logs` has column `TraceId` as UInt64; the job writes it as String"
                                    + " and cannot convert that to UInt64 without loss")
                            .contains("`" + db + "`.`otel_logs` has column `SeverityNumber` as Int8; the job writes it as UInt8"
                                    + " and cannot convert that to Int8 without loss"));
            assertThat(RealServices.count(db, "otel_logs")).isZero();
            JobProcess check = JobProcess.start("schema-check-misfit", List.of("schema", "check", "--signals", "traces,logs",
                    "--clickhouse.url", RealServices.clickHouseUrl(), "--clickhouse.database", db));
            assertThat(check.waitFor(60)).as(check.log()).isEqualTo(1);
            assertThat(check.log()).contains("`" + db + "`.`otel_traces`: does not fit")
                    .contains("has column `TraceId` as UInt64")
                    .contains("the job would refuse to start on these tables");
        } finally {
            ch.execute("DROP DATABASE IF EXISTS `" + db + "`");
        }
    }

    /**
     * A column widened while the job runs (as older exporters had it): the next INSERT is refused
     * for good, naming the column and both types, instead of its bytes landing shifted or being
     * retried; the restarted job reads the table's columns again and writes the new type.
     */
    /**
     * In both formats: a Native block of the old type is refused too (the job turns ClickHouse's
     * conversion of Native columns off), never cast into the new one.
     */
    @ParameterizedTest
    @ValueSource(strings = {"rowbinary", "native"})
    void aTableAlteredWhileTheJobRunsFailsItsInsertNamingTheColumnAndTheRestartWritesTheNewType(String format) throws Exception {
        String db = RealServices.uniqueName("it_altered");
        String logs = RealServices.uniqueName("it_altered_logs");
        RealServices.createTopic(logs, 2);
        ClickHouseClient ch = RealServices.clickHouse();
        // later keys replace earlier ones: unbounded, restarted after a failure
        String[] all = RealServices.concat(args(db, "", logs, "", "logs"), "--kafka.bounded", "false", "--sink.batch.max-age", "200ms",
                "--flink.restart-strategy.type", "fixed-delay", "--flink.restart-strategy.fixed-delay.attempts", "5",
                "--flink.restart-strategy.fixed-delay.delay", "1s", "--sink.format", format);
        TributaryConfig config = TributaryConfig.fromArgs(all);
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
        JobClient job = null;
        try {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            TributaryTopology.build(env, config);
            job = env.executeAsync("altered while running");
            RealServices.produce(logs, ExactlyOnceChangesITCase.logRecords(0, 10));
            RealServices.awaitCount(db, "otel_logs", 100, 90);
            ch.execute("ALTER TABLE `" + db + "`.otel_logs MODIFY COLUMN SeverityNumber Int32");
            RealServices.produce(logs, ExactlyOnceChangesITCase.logRecords(100, 10));
            RealServices.awaitCount(db, "otel_logs", 200, 90);
            Thread.sleep(2_000);
            // at least once, the restart may write again what came after the last checkpoint
            assertThat(ch.query("SELECT uniqExact(Body), countIf(SeverityNumber != toInt32(substring(Body, 5)) % 24 + 1)"
                    + " FROM `" + db + "`.otel_logs FORMAT TSV")).as("every record, each with its own severity").isEqualTo("200\t0\n");
            String exceptions = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://"
                            + FLINK.getClientConfiguration().get(RestOptions.ADDRESS) + ":"
                            + FLINK.getClientConfiguration().get(RestOptions.PORT) + "/jobs/" + job.getJobID() + "/exceptions"))
                    .GET().build(), HttpResponse.BodyHandlers.ofString()).body();
            assertThat(exceptions).contains("the table's columns changed after the job read them; the job restarts and reads them again")
                    .contains(format.equals("native") ? "Cannot convert: UInt8 to Int32"
                            : "Type of 'SeverityNumber' must be Int32, not UInt8");
        } finally {
            if (job != null) {
                job.cancel().get(60, TimeUnit.SECONDS);
            }
            ch.execute("DROP DATABASE IF EXISTS `" + db + "`");
        }
    }

    /** The table's columns that an INSERT writes (not computed ones), name to type. */
    private static Map<String, String> columns(ClickHouseClient ch, String db, String table) throws Exception {
        Map<String, String> out = new TreeMap<>();
        for (String line : ch.query("SELECT name, type FROM system.columns WHERE database = '" + db + "' AND table = '"
                + table + "' AND default_kind NOT IN ('MATERIALIZED', 'ALIAS', 'DEFAULT') FORMAT TSVRaw").split("\n")) {
            if (!line.isEmpty()) {
                String[] f = line.split("\t");
                out.put(f[0], f[1]);
            }
        }
        return out;
    }
}
