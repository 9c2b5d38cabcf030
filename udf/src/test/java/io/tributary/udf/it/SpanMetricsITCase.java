package io.tributary.udf.it;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import io.tributary.TributaryJob;
import io.tributary.clickhouse.ClickHouseClient;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.otlp.json.OtlpJsonWriter;
import io.tributary.schema.TableEngine;
import io.tributary.testing.RealServices;
import io.tributary.topology.SchemaManager;

import org.apache.flink.api.common.JobID;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * {@code sql/flink/span_metrics.sql} run by the SQL runner on the real services: for a corpus of
 * spans with known services, kinds, statuses and durations (on the buckets' bounds, between them,
 * beyond the last, negative), over several minutes and two partitions, the calls and the duration
 * histograms per window and series equal what ClickHouse computes from the same spans in {@code
 * otel_traces} (written by the job), the rows have the connector's names and shape, and the
 * Grafana-style queries over them agree. Spans later than the watermark are dropped and counted.
 */
class SpanMetricsITCase {

    private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SqlTesting.miniCluster(REPORTER);

    private static final String SCRIPT = "../sql/flink/span_metrics.sql";
    private static final long T0 = 1_767_261_600_000_000_000L; // 2026-01-01 10:00:00 UTC, a minute's start
    private static final long S = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final double[] BOUNDS = {2, 4, 6, 8, 10, 50, 100, 200, 400, 800, 1000, 1400, 2000, 5000, 10_000, 15_000};
    /** Durations in ns: zero, on bounds, just past them, between, beyond the last, and one ending before its start. */
    private static final long[] DURATIONS = {0, 1_500_000, 2 * MS, 2 * MS + 1, 4 * MS, 7 * MS, 10 * MS, 49_999_999, 50 * MS,
        100 * MS, 1000 * MS + 500_000, 15_000 * MS, 15_000 * MS + 1, 20_000 * MS, -5 * MS};
    private static final String[] SERVICES = {"checkout", "cart", "search"};
    private static final String[] NAMES = {"GET /cart", "POST /pay", "db.query"};
    private static final Span.SpanKind[] KINDS = {Span.SpanKind.SPAN_KIND_SERVER, Span.SpanKind.SPAN_KIND_CLIENT,
        Span.SpanKind.SPAN_KIND_INTERNAL, Span.SpanKind.SPAN_KIND_UNSPECIFIED};
    private static final Status.StatusCode[] STATUSES = {Status.StatusCode.STATUS_CODE_OK,
        Status.StatusCode.STATUS_CODE_ERROR, Status.StatusCode.STATUS_CODE_UNSET};

    private static final String DB = RealServices.uniqueName("it_spanmetrics");
    private static String topic;
    private static int spans;
    private static ClickHouseClient ch;
    private static long nextId = 1;

    @BeforeAll
    static void corpusThroughTheJobAndTheScript() throws Exception {
        ch = RealServices.clickHouse();
        topic = RealServices.uniqueName("it_spanmetrics");
        RealServices.createTopic(topic, 2);
        SplittableRandom random = new SplittableRandom(3);
        List<byte[]> records = new ArrayList<>();
        for (int minute = 0; minute < 4; minute++) {
            for (int r = 0; r < 12; r++) {
                ExportTraceServiceRequest.Builder req = ExportTraceServiceRequest.newBuilder();
                String service = SERVICES[random.nextInt(SERVICES.length)];
                ResourceSpans.Builder rs = ResourceSpans.newBuilder()
                        .setResource(resource(r % 11 == 10 ? null : service)); // some resources lack service.name
                ScopeSpans.Builder ss = ScopeSpans.newBuilder();
                for (int k = 0; k < 10; k++) {
                    // start within the minute, a little out of order (less than the 10 s bound)
                    long start = T0 + minute * 60 * S + (long) (r * 5 + random.nextInt(5)) * S + random.nextInt(1000) * MS;
                    ss.addSpans(span(start, DURATIONS[random.nextInt(DURATIONS.length)], NAMES[random.nextInt(NAMES.length)],
                            KINDS[random.nextInt(KINDS.length)], STATUSES[random.nextInt(STATUSES.length)]));
                    spans++;
                }
                req.addResourceSpans(rs.addScopeSpans(ss));
                records.add(r % 4 == 3 ? OtlpJsonWriter.write(req.build()) : req.build().toByteArray());
            }
        }
        records.add(new byte[] {0x0a, 0x7f, 0x01}); // undecodable: counted by both, fatal to neither
        RealServices.produce(topic, records);

        String[] keys = {
            "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
            "--kafka.topics.traces", topic,
            "--kafka.topics.logs", "", "--kafka.topics.metrics", "",
            "--kafka.group-id", DB,
            "--kafka.bounded", "true",
            "--kafka.starting-offsets", "earliest",
            "--clickhouse.url", RealServices.clickHouseUrl(),
            "--clickhouse.database", DB,
            "--checkpoint.interval", "1s"
        };
        String[] failFast = {"--flink.restart-strategy.type", "none"};
        TributaryConfig config = TributaryConfig.fromArgs(RealServices.concat(keys, "--signals", "traces,metrics",
                "--kafka.topics.metrics", "unused_" + topic, "--dlq.topic", ""));
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
        TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(),
                TributaryConfig.fromArgs(RealServices.concat(keys, "--dlq.topic", "")));
        assertThat(RealServices.count(DB, "otel_traces")).isEqualTo(spans);

        io.tributary.sql.SqlRunner.run(RealServices.concat(RealServices.concat(new String[] {SCRIPT}, keys), failFast));
    }

    @AfterAll
    static void drop() throws Exception {
        ch.execute("DROP DATABASE IF EXISTS " + DB);
    }

    private static Resource resource(String service) {
        Resource.Builder r = Resource.newBuilder().addAttributes(kv("host.name", "h1"));
        if (service != null) {
            r.addAttributes(kv("service.name", service));
        }
        return r.build();
    }

    private static KeyValue kv(String k, String v) {
        return KeyValue.newBuilder().setKey(k).setValue(AnyValue.newBuilder().setStringValue(v)).build();
    }

    private static Span span(long start, long duration, String name, Span.SpanKind kind, Status.StatusCode status) {
        long id = nextId++;
        return Span.newBuilder()
                .setTraceId(ByteString.copyFrom(ByteBuffer.allocate(16).putLong(7).putLong(id).array()))
                .setSpanId(ByteString.copyFrom(ByteBuffer.allocate(8).putLong(id).array()))
                .setName(name)
                .setKind(kind)
                .setStartTimeUnixNano(start)
                .setEndTimeUnixNano(start + duration)
                .setStatus(Status.newBuilder().setCode(status))
                .build();
    }

    // ---- the metrics against otel_traces ----

    private static final String BUCKET_INDEX = "if(arrayFirstIndex(b -> ms <= b, [" + bounds() + "]) = 0, 17,"
            + " arrayFirstIndex(b -> ms <= b, [" + bounds() + "]))";

    private static String bounds() {
        StringBuilder sb = new StringBuilder();
        for (double b : BOUNDS) {
            sb.append(sb.length() == 0 ? "" : ", ").append(b);
        }
        return sb.toString();
    }

    /** Per window and series, from the spans: calls, sum of ms, bucket counts. */
    private static Map<String, String[]> fromSpans() throws Exception {
        String q = "SELECT toUnixTimestamp(toStartOfInterval(Timestamp, INTERVAL 60 SECOND)) AS ws, ServiceName, SpanName,"
                + " concat('SPAN_KIND_', upper(SpanKind)), concat('STATUS_CODE_', upper(StatusCode)), count(), sum(ms),"
                + " arrayMap(i -> countEqual(groupArray(bucket), i), range(1, 18))"
                + " FROM (SELECT *, greatest(toInt64(Duration), 0) / 1e6 AS ms, " + BUCKET_INDEX + " AS bucket FROM "
                + DB + ".otel_traces WHERE mapContains(ResourceAttributes, 'service.name'))"
                + " GROUP BY ws, ServiceName, SpanName, SpanKind, StatusCode FORMAT TSV";
        return rows(q, 5);
    }

    private static Map<String, String[]> rows(String query, int keyColumns) throws Exception {
        Map<String, String[]> out = new TreeMap<>();
        for (String line : ch.query(query).split("\n")) {
            if (!line.isBlank()) {
                String[] f = line.split("\t", -1);
                out.put(String.join("|", java.util.Arrays.copyOf(f, keyColumns)), java.util.Arrays.copyOfRange(f, keyColumns, f.length));
            }
        }
        return out;
    }

    @Test
    void callsAndHistogramsEqualWhatClickHouseComputesFromTheSpans() throws Exception {
        Map<String, String[]> expected = fromSpans();
        assertThat(expected).hasSizeGreaterThan(50);
        Map<String, String[]> calls = rows("SELECT toUnixTimestamp(StartTimeUnix), ServiceName, Attributes['span.name'],"
                + " Attributes['span.kind'], Attributes['status.code'], Value FROM " + DB + ".otel_metrics_sum"
                + " WHERE MetricName = 'traces.span.metrics.calls' FORMAT TSV", 5);
        Map<String, String[]> histograms = rows("SELECT toUnixTimestamp(StartTimeUnix), ServiceName, Attributes['span.name'],"
                + " Attributes['span.kind'], Attributes['status.code'], Count, Sum, BucketCounts FROM " + DB
                + ".otel_metrics_histogram WHERE MetricName = 'traces.span.metrics.duration' FORMAT TSV", 5);
        assertThat(calls.keySet()).containsExactlyElementsOf(expected.keySet());
        assertThat(histograms.keySet()).containsExactlyElementsOf(expected.keySet());
        long total = 0;
        for (Map.Entry<String, String[]> e : expected.entrySet()) {
            String[] want = e.getValue();
            assertThat(calls.get(e.getKey())[0]).as("calls " + e.getKey()).isEqualTo(want[0]);
            String[] h = histograms.get(e.getKey());
            assertThat(h[0]).as("count " + e.getKey()).isEqualTo(want[0]);
            assertThat(Double.parseDouble(h[1])).as("sum " + e.getKey()).isCloseTo(Double.parseDouble(want[1]), within(1e-6));
            assertThat(h[2]).as("buckets " + e.getKey()).isEqualTo(want[2]);
            total += Long.parseLong(want[0]);
        }
        // every span whose resource names its service is counted once
        long counted = Long.parseLong(ch.query("SELECT count() FROM " + DB + ".otel_traces WHERE mapContains(ResourceAttributes,"
                + " 'service.name') FORMAT TSV").strip());
        assertThat(total).isEqualTo(counted).isLessThan(spans);
    }

    @Test
    void rowsAreShapedAsTheConnectorAndExporterWriteThem() throws Exception {
        assertThat(ch.query("SELECT DISTINCT ResourceAttributes = map('service.name', ServiceName), ScopeName, ScopeVersion,"
                + " MetricDescription, MetricUnit, mapKeys(Attributes), Attributes['service.name'] = ServiceName,"
                + " TimeUnix - StartTimeUnix, AggregationTemporality, IsMonotonic, Flags, length(Exemplars.Value)"
                + " FROM " + DB + ".otel_metrics_sum FORMAT TSV").strip())
                .isEqualTo("1\tspanmetricsconnector\t\t\t\t['service.name','span.name','span.kind','status.code']\t1\t60\t1\ttrue\t0\t0");
        assertThat(ch.query("SELECT DISTINCT ResourceAttributes = map('service.name', ServiceName), ScopeName, MetricUnit,"
                + " ExplicitBounds, length(BucketCounts), arraySum(BucketCounts) = Count, Min, Max, AggregationTemporality,"
                + " TimeUnix - StartTimeUnix FROM " + DB + ".otel_metrics_histogram FORMAT TSV").strip())
                .isEqualTo("1\tspanmetricsconnector\tms\t[2,4,6,8,10,50,100,200,400,800,1000,1400,2000,5000,10000,15000]"
                        + "\t17\t1\t0\t0\t1\t60");
        assertThat(ch.query("SELECT DISTINCT Attributes['span.kind'], Attributes['status.code'] FROM " + DB
                + ".otel_metrics_sum ORDER BY 1, 2 FORMAT TSV").split("\n"))
                .contains("SPAN_KIND_SERVER\tSTATUS_CODE_ERROR", "SPAN_KIND_UNSPECIFIED\tSTATUS_CODE_UNSET",
                        "SPAN_KIND_CLIENT\tSTATUS_CODE_OK", "SPAN_KIND_INTERNAL\tSTATUS_CODE_OK");
    }

    @Test
    void grafanaStyleQueriesAgreeWithTheSpans() throws Exception {
        // calls per minute and service, as a time series panel over otel_metrics_sum asks for it
        String series = ch.query("SELECT toStartOfInterval(TimeUnix, INTERVAL 60 second) AS time, ServiceName, sum(Value)"
                + " FROM " + DB + ".otel_metrics_sum WHERE MetricName = 'traces.span.metrics.calls'"
                + " AND TimeUnix >= toDateTime(1767261600) AND TimeUnix <= toDateTime(1767261600 + 600)"
                + " GROUP BY time, ServiceName ORDER BY time, ServiceName FORMAT TSV");
        String spansPerMinute = ch.query("SELECT toStartOfInterval(Timestamp, INTERVAL 60 second) + INTERVAL 60 second AS time,"
                + " ServiceName, count() FROM " + DB + ".otel_traces WHERE mapContains(ResourceAttributes, 'service.name')"
                + " GROUP BY time, ServiceName ORDER BY time, ServiceName FORMAT TSV");
        assertThat(series).isEqualTo(spansPerMinute.replace(".000000000", ""));
        // error ratio per service, and a p95 from the histogram buckets, against the spans
        String ratio = ch.query("SELECT ServiceName, round(sumIf(Value, Attributes['status.code'] = 'STATUS_CODE_ERROR') / sum(Value), 9)"
                + " FROM " + DB + ".otel_metrics_sum WHERE MetricName = 'traces.span.metrics.calls' GROUP BY ServiceName"
                + " ORDER BY ServiceName FORMAT TSV");
        String spanRatio = ch.query("SELECT ServiceName, round(countIf(StatusCode = 'Error') / count(), 9) FROM " + DB
                + ".otel_traces WHERE mapContains(ResourceAttributes, 'service.name') GROUP BY ServiceName ORDER BY ServiceName FORMAT TSV");
        assertThat(ratio).isEqualTo(spanRatio);
        String bucketTotals = ch.query("SELECT ServiceName, sumForEach(BucketCounts) FROM " + DB + ".otel_metrics_histogram"
                + " GROUP BY ServiceName ORDER BY ServiceName FORMAT TSV");
        String spanBuckets = ch.query("SELECT ServiceName, arrayMap(i -> countEqual(groupArray(bucket), i), range(1, 18)) FROM"
                + " (SELECT *, greatest(toInt64(Duration), 0) / 1e6 AS ms, " + BUCKET_INDEX + " AS bucket FROM " + DB
                + ".otel_traces WHERE mapContains(ResourceAttributes, 'service.name')) GROUP BY ServiceName ORDER BY ServiceName FORMAT TSV");
        assertThat(bucketTotals).isEqualTo(spanBuckets);
    }

    @Test
    void lateSpansAreDroppedAndCounted() throws Exception {
        String db = RealServices.uniqueName("it_spanmetrics_late");
        String late = RealServices.uniqueName("it_spanmetrics_late");
        RealServices.createTopic(late, 1);
        ch.execute("CREATE DATABASE " + db);
        for (String t : new String[] {"otel_metrics_sum", "otel_metrics_histogram"}) {
            ch.execute("CREATE TABLE " + db + "." + t + " AS " + DB + "." + t);
        }
        try {
            // one partition, watermarks after every span: which spans are late is fixed by their order
            RealServices.produce(late, List.of(
                    request(T0 + 5 * S, T0 + 10 * S),   // window [0, 60 s)
                    request(T0 + 300 * S),                // watermark to 290 s: [0, 60 s) fires
                    request(T0 + 20 * S, T0 + 30 * S),    // late for [0, 60 s): dropped, counted
                    request(T0 + 295 * S)));              // [240, 300 s) has not fired: counted
            List<JobID> jobs = io.tributary.sql.SqlRunner.run(new String[] {SCRIPT,
                "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(), "--kafka.topics.traces", late,
                "--kafka.group-id", db, "--kafka.bounded", "true", "--kafka.starting-offsets", "earliest",
                "--clickhouse.url", RealServices.clickHouseUrl(), "--clickhouse.database", db,
                "--span-metrics.watermark-emit", "on-event", "--flink.parallelism.default", "1",
                "--flink.restart-strategy.type", "none"});
            assertThat(ch.query("SELECT toUnixTimestamp(StartTimeUnix) - 1767261600, Value FROM " + db
                    + ".otel_metrics_sum ORDER BY 1 FORMAT TSV")).isEqualTo("0\t2\n240\t1\n300\t1\n");
            assertThat(SqlTesting.counter(REPORTER, jobs.get(0), "numLateRecordsDropped")).isEqualTo(2);
        } finally {
            ch.execute("DROP DATABASE IF EXISTS " + db);
        }
    }

    @Test
    void theScriptReadsASaslSslKafkaWithTheJobsSettings(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        String user = "tributary-sql-scram";
        try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(java.util.Map.of(
                "bootstrap.servers", RealServices.kafkaBootstrap()))) {
            admin.alterUserScramCredentials(List.of(new org.apache.kafka.clients.admin.UserScramCredentialUpsertion(user,
                    new org.apache.kafka.clients.admin.ScramCredentialInfo(
                            org.apache.kafka.clients.admin.ScramMechanism.SCRAM_SHA_512, 8192), "sql-secret")))
                    .all().get(30, java.util.concurrent.TimeUnit.SECONDS);
        }
        java.nio.file.Path password = java.nio.file.Files.writeString(dir.resolve("kafka-password"), "sql-secret\n");
        String db = RealServices.uniqueName("it_spanmetrics_sasl");
        String topic = RealServices.uniqueName("it_spanmetrics_sasl");
        RealServices.createTopic(topic, 1);
        ch.execute("CREATE DATABASE " + db);
        for (String t : new String[] {"otel_metrics_sum", "otel_metrics_histogram"}) {
            ch.execute("CREATE TABLE " + db + "." + t + " AS " + DB + "." + t);
        }
        try {
            RealServices.produce(topic, List.of(request(T0 + 5 * S, T0 + 10 * S, T0 + 70 * S)));
            io.tributary.sql.SqlRunner.run(new String[] {SCRIPT,
                "--kafka.bootstrap-servers", RealServices.kafkaSecure("sasl_ssl"), "--kafka.topics.traces", topic,
                "--kafka.security.protocol", "SASL_SSL", "--kafka.sasl.mechanism", "SCRAM-SHA-512",
                "--kafka.sasl.username", user, "--kafka.sasl.password-file", password.toString(),
                "--kafka.tls.ca-file", RealServices.kafkaSecure("ca_file"),
                "--kafka.group-id", db, "--kafka.bounded", "true", "--kafka.starting-offsets", "earliest",
                "--clickhouse.url", RealServices.clickHouseUrl(), "--clickhouse.database", db,
                "--flink.parallelism.default", "1", "--flink.restart-strategy.type", "none"});
            assertThat(ch.query("SELECT toUnixTimestamp(StartTimeUnix) - 1767261600, Value FROM " + db
                    + ".otel_metrics_sum ORDER BY 1 FORMAT TSV")).isEqualTo("0\t2\n60\t1\n");
        } finally {
            ch.execute("DROP DATABASE IF EXISTS " + db);
        }
    }

    private static byte[] request(long... starts) {
        ScopeSpans.Builder ss = ScopeSpans.newBuilder();
        for (long s : starts) {
            ss.addSpans(span(s, 3 * MS, "GET /late", Span.SpanKind.SPAN_KIND_SERVER, Status.StatusCode.STATUS_CODE_OK));
        }
        return ExportTraceServiceRequest.newBuilder()
                .addResourceSpans(ResourceSpans.newBuilder().setResource(resource("late-svc")).addScopeSpans(ss))
                .build().toByteArray();
    }
}
