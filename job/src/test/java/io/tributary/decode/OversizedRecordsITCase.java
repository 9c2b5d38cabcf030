package io.tributary.decode;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.metrics.v1.Exemplar;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogram;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
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
import io.tributary.TributaryJob;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.deadletter.DeadLetterSerializer;
import io.tributary.otlp.json.OtlpJsonWriter;
import io.tributary.schema.TableEngine;
import io.tributary.tables.OtelTable;
import io.tributary.tables.OversizedRecordException;
import io.tributary.testing.JobProcess;
import io.tributary.testing.RealServices;
import io.tributary.testing.oracle.RandomOtlp;
import io.tributary.topology.SchemaManager;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Issue 17, item 4, on the real services: a record of a few hundred KB that would render gigabytes
 * of rows (a 64 KiB resource attribute copied into each of 100,000 empty rows), one per signal and
 * among normal records, goes to the dead-letter topic once with the reason naming {@code
 * decode.max-bytes-per-record}; the bounded run ends, in a process of its own with a 1 GiB heap,
 * and every normal record's rows land, every column as the same records alone write them.
 *
 * <p>Before the bound this run never ended: the task rendered until the heap ran out, failed,
 * restarted and read the same record again.
 */
class OversizedRecordsITCase {

    @RegisterExtension
    static final MiniClusterExtension FLINK = RealServices.miniCluster(2);

    private static final int NORMAL_RECORDS = 24;
    private static final String BOUND_REASON =
            "the record renders more than 67108864 bytes of rows, the most decode.max-bytes-per-record allows";

    private static Resource hostileResource() {
        byte[] v = new byte[64 << 10];
        Arrays.fill(v, (byte) 'r');
        return Resource.newBuilder()
                .addAttributes(KeyValue.newBuilder().setKey("service.name").setValue(AnyValue.newBuilder().setStringValue("hostile")))
                .addAttributes(KeyValue.newBuilder().setKey("big").setValue(AnyValue.newBuilder().setStringValueBytes(ByteString.copyFrom(v))))
                .build();
    }

    /** 100,000 empty spans under the big resource, protobuf: about 265 KB. */
    private static byte[] hostileTraces() {
        ScopeSpans.Builder ss = ScopeSpans.newBuilder();
        for (int i = 0; i < 100_000; i++) {
            ss.addSpans(Span.getDefaultInstance());
        }
        return ExportTraceServiceRequest.newBuilder()
                .addResourceSpans(ResourceSpans.newBuilder().setResource(hostileResource()).addScopeSpans(ss)).build().toByteArray();
    }

    /** 50,000 empty log records under the big resource, as OTLP/JSON: under the topic's 1 MiB. */
    private static byte[] hostileLogs() {
        ScopeLogs.Builder sl = ScopeLogs.newBuilder();
        for (int i = 0; i < 50_000; i++) {
            sl.addLogRecords(LogRecord.getDefaultInstance());
        }
        return OtlpJsonWriter.write(ExportLogsServiceRequest.newBuilder()
                .addResourceLogs(ResourceLogs.newBuilder().setResource(hostileResource()).addScopeLogs(sl)).build());
    }

    /** 100,000 empty gauge points under the big resource, protobuf. */
    private static byte[] hostileMetrics() {
        Gauge.Builder g = Gauge.newBuilder();
        for (int i = 0; i < 100_000; i++) {
            g.addDataPoints(NumberDataPoint.getDefaultInstance());
        }
        return ExportMetricsServiceRequest.newBuilder().addResourceMetrics(ResourceMetrics.newBuilder()
                .setResource(hostileResource())
                .addScopeMetrics(ScopeMetrics.newBuilder().addMetrics(Metric.newBuilder().setName("m").setGauge(g))))
                .build().toByteArray();
    }

    /** A metrics request with a point of each of the five types, attributes and exemplars. */
    private static ExportMetricsServiceRequest metrics(SplittableRandom r, int k) {
        KeyValue attr = KeyValue.newBuilder().setKey("k").setValue(AnyValue.newBuilder().setStringValue("v" + r.nextInt(100))).build();
        Exemplar ex = Exemplar.newBuilder().setTimeUnixNano(1_764_460_800_000_000_000L + r.nextInt(1000)).setAsDouble(r.nextDouble())
                .setSpanId(ByteString.copyFrom(bytes(r, 8))).setTraceId(ByteString.copyFrom(bytes(r, 16)))
                .addFilteredAttributes(attr).build();
        long t = 1_764_460_800_000_000_000L + k * 1_000_000L;
        return ExportMetricsServiceRequest.newBuilder().addResourceMetrics(ResourceMetrics.newBuilder()
                .setResource(Resource.newBuilder().addAttributes(KeyValue.newBuilder().setKey("service.name")
                        .setValue(AnyValue.newBuilder().setStringValue("normal-" + k))))
                .addScopeMetrics(ScopeMetrics.newBuilder()
                        .addMetrics(Metric.newBuilder().setName("g" + k).setUnit("1").setGauge(Gauge.newBuilder()
                                .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(t).setAsInt(r.nextInt()).addAttributes(attr).addExemplars(ex))))
                        .addMetrics(Metric.newBuilder().setName("s" + k).setSum(Sum.newBuilder().setIsMonotonic(true).setAggregationTemporalityValue(2)
                                .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(t).setAsDouble(r.nextDouble()))))
                        .addMetrics(Metric.newBuilder().setName("h" + k).setHistogram(Histogram.newBuilder().setAggregationTemporalityValue(1)
                                .addDataPoints(HistogramDataPoint.newBuilder().setTimeUnixNano(t).setCount(3).setSum(1.5)
                                        .addBucketCounts(1).addBucketCounts(2).addExplicitBounds(0.5).addExemplars(ex))))
                        .addMetrics(Metric.newBuilder().setName("e" + k).setExponentialHistogram(ExponentialHistogram.newBuilder()
                                .addDataPoints(ExponentialHistogramDataPoint.newBuilder().setTimeUnixNano(t).setScale(2).setCount(4)
                                        .setZeroCount(1).setPositive(ExponentialHistogramDataPoint.Buckets.newBuilder().setOffset(-1).addBucketCounts(3)))))
                        .addMetrics(Metric.newBuilder().setName("q" + k).setSummary(Summary.newBuilder()
                                .addDataPoints(SummaryDataPoint.newBuilder().setTimeUnixNano(t).setCount(2).setSum(3)
                                        .addQuantileValues(SummaryDataPoint.ValueAtQuantile.newBuilder().setQuantile(0.5).setValue(1.5)))))))
                .build();
    }

    private static byte[] bytes(SplittableRandom r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    /** The topics of one run. */
    record Topics(String traces, String logs, String metrics, String dlq) {
        static Topics create(String prefix) throws Exception {
            Topics t = new Topics(RealServices.uniqueName(prefix + "_spans"), RealServices.uniqueName(prefix + "_logs"),
                    RealServices.uniqueName(prefix + "_metrics"), RealServices.uniqueName(prefix + "_dlq"));
            RealServices.createTopic(t.traces, 2);
            RealServices.createTopic(t.logs, 2);
            RealServices.createTopic(t.metrics, 2);
            RealServices.createTopic(t.dlq, 1);
            return t;
        }
    }

    private static List<String> args(Topics t, String db) {
        return new ArrayList<>(List.of(
                "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
                "--kafka.topics.traces", t.traces,
                "--kafka.topics.logs", t.logs,
                "--kafka.topics.metrics", t.metrics,
                "--kafka.group-id", db,
                "--kafka.starting-offsets", "earliest",
                "--kafka.bounded", "true",
                "--dlq.topic", t.dlq,
                "--parallelism", "2",
                "--clickhouse.url", RealServices.clickHouseUrl(),
                "--clickhouse.database", db,
                "--checkpoint.interval", "1s",
                "--sink.batch.max-age", "300ms"));
    }

    @Test
    void aRecordThatWouldRenderGigabytesIsADeadLetterAndTheRunEnds() throws Exception {
        RandomOtlp random = new RandomOtlp(17);
        SplittableRandom r = new SplittableRandom(17);
        List<byte[]> spans = new ArrayList<>();
        List<byte[]> logs = new ArrayList<>();
        List<byte[]> metrics = new ArrayList<>();
        for (int i = 0; i < NORMAL_RECORDS; i++) {
            spans.add(random.encode(random.traces()));
            logs.add(i % 2 == 0 ? random.encode(random.logs()) : OtlpJsonWriter.write(random.logs()));
            metrics.add(metrics(r, i).toByteArray());
        }
        Topics plain = Topics.create("it_plain");
        Topics hostile = Topics.create("it_hostile");
        RealServices.produce(plain.traces, spans);
        RealServices.produce(plain.logs, logs);
        RealServices.produce(plain.metrics, metrics);
        // the hostile record of each signal in the middle of partition 0's records
        Map<String, byte[]> bad = Map.of(hostile.traces, hostileTraces(), hostile.logs, hostileLogs(),
                hostile.metrics, hostileMetrics());
        assertThat(bad.get(hostile.traces).length).as("a small record").isLessThan(270_000);
        for (Map.Entry<String, List<byte[]>> e : Map.of(hostile.traces, spans, hostile.logs, logs, hostile.metrics, metrics).entrySet()) {
            List<byte[]> values = new ArrayList<>(e.getValue());
            values.add(NORMAL_RECORDS / 2, bad.get(e.getKey()));
            values.add(NORMAL_RECORDS / 2 + 1, new byte[0]); // keep the two partitions' shares as in the plain run
            RealServices.produce(e.getKey(), values);
        }

        String plainDb = RealServices.uniqueName("it_plain");
        String hostileDb = RealServices.uniqueName("it_hostile");
        TributaryConfig plainConfig = TributaryConfig.fromArgs(args(plain, plainDb).toArray(new String[0]));
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), plainConfig, TableEngine.MERGE_TREE, null);
        List<String> hostileArgs = args(hostile, hostileDb);
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()),
                TributaryConfig.fromArgs(hostileArgs.toArray(new String[0])), TableEngine.MERGE_TREE, null);
        try {
            TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), plainConfig);

            List<String> run = new ArrayList<>(List.of("run", "--restore", "none"));
            run.addAll(hostileArgs);
            run.addAll(List.of("--flink.rest.port", "0", "--flink.execution.checkpointing.dir",
                    Path.of("target", "checkpoints", hostileDb).toAbsolutePath().toUri().toString()));
            Integer exit;
            String log;
            try (JobProcess job = JobProcess.start("oversized-records", "io.tributary.tools.cli.Tributary",
                    List.of("-Xmx1g"), run)) {
                exit = job.waitFor(240);
                log = job.log();
            }
            assertThat(exit).as("the bounded run ends, OK (OutOfMemoryErrors in its log: %d)",
                    count(log, "OutOfMemoryError")).isEqualTo(0);
            assertThat(log).doesNotContain("OutOfMemoryError");

            for (OtelTable t : OtelTable.values()) {
                if (t.signal() == io.tributary.otlp.Signal.PROFILES) {
                    continue; // not among the signals that run by default, which these runs move
                }
                List<String> expected = RealServices.rows(plainDb, tableName(t));
                assertThat(expected).as("%s rows of the normal records", t).isNotEmpty();
                assertThat(RealServices.rows(hostileDb, tableName(t))).as("%s: every column of every row", t)
                        .isEqualTo(expected);
            }
            assertThat(RealServices.clickHouse().query("SELECT count() FROM `" + hostileDb + "`.otel_traces WHERE"
                    + " ServiceName = 'hostile' FORMAT TSV").strip()).isEqualTo("0");

            List<ConsumerRecord<byte[], byte[]>> letters = RealServices.consumeAll(hostile.dlq);
            assertThat(letters).as("one letter per hostile record").hasSize(3);
            Map<String, ConsumerRecord<byte[], byte[]>> byTopic = new HashMap<>();
            for (ConsumerRecord<byte[], byte[]> l : letters) {
                Map<String, String> h = headers(l);
                assertThat(byTopic.put(h.get(DeadLetterSerializer.SOURCE_TOPIC), l)).isNull();
                assertThat(h.get(DeadLetterSerializer.ERROR_MESSAGE)).isEqualTo(BOUND_REASON);
                assertThat(h.get(DeadLetterSerializer.ERROR_CLASS)).isEqualTo(OversizedRecordException.class.getName());
                assertThat(h.get(DeadLetterSerializer.SOURCE_PARTITION)).isEqualTo("0");
                assertThat(h.get(DeadLetterSerializer.SOURCE_OFFSET)).isEqualTo(Integer.toString(NORMAL_RECORDS / 4));
                assertThat(l.value()).as("the original record").isEqualTo(bad.get(h.get(DeadLetterSerializer.SOURCE_TOPIC)));
            }
            assertThat(byTopic).containsOnlyKeys(hostile.traces, hostile.logs, hostile.metrics);
        } finally {
            RealServices.dropDatabases(plainDb, hostileDb);
        }
    }

    private static String tableName(OtelTable t) {
        return "otel_" + t.name().toLowerCase(java.util.Locale.ROOT);
    }

    private static Map<String, String> headers(ConsumerRecord<byte[], byte[]> r) {
        Map<String, String> h = new HashMap<>();
        r.headers().forEach(x -> h.put(x.key(), new String(x.value(), StandardCharsets.UTF_8)));
        return h;
    }

    private static int count(String text, String what) {
        Matcher m = Pattern.compile(Pattern.quote(what)).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
