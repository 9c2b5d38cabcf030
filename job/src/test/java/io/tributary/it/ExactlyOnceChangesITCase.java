package io.tributary.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.tributary.clickhouse.ClickHouseClient;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.deadletter.DeadLetterSerializer;
import io.tributary.schema.TableEngine;
import io.tributary.testing.RealServices;
import io.tributary.testing.UniqueSpans;
import io.tributary.topology.SchemaManager;
import io.tributary.topology.TributaryTopology;

import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Exactly-once state that does not depend on today's settings, on the real services: batches in a
 * savepoint keep their deduplication token (and their INSERT format) when their table is renamed,
 * their signal turned off or {@code sink.format} changed before the restore; a batch that the
 * restored table can no longer take fails the restore naming the column; and how much each
 * checkpoint holds is bounded.
 */
public class ExactlyOnceChangesITCase {

    @RegisterExtension
    static final MiniClusterExtension FLINK = RealServices.miniCluster(4);

    private static String[] args(String db, String traces, String logs, String signals, String... more) {
        List<String> a = new ArrayList<>(List.of(
                "--signals", signals,
                "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
                "--kafka.topics.traces", traces,
                "--kafka.topics.logs", logs,
                "--kafka.group-id", db,
                "--kafka.starting-offsets", "earliest",
                "--dlq.topic", "",
                "--parallelism", "2",
                "--clickhouse.url", RealServices.clickHouseUrl(),
                "--clickhouse.database", db,
                "--sink.delivery", "exactly-once",
                "--flink.execution.checkpointing.dir", Path.of("target", "checkpoints", db).toAbsolutePath().toUri().toString()));
        a.addAll(Arrays.asList(more));
        return a.toArray(new String[0]);
    }

    private static JobClient start(String[] args, String savepoint) throws Exception {
        String[] all = savepoint == null ? args : RealServices.concat(args, "--flink.execution.state-recovery.path", savepoint);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        TributaryTopology.build(env, TributaryConfig.fromArgs(all));
        return env.executeAsync("exactly once across changes");
    }

    private static String stop(JobClient job) throws Exception {
        Path dir = Files.createTempDirectory("tributary-eo-savepoint");
        return job.stopWithSavepoint(false, dir.toUri().toString(), SavepointFormatType.CANONICAL).get(120, TimeUnit.SECONDS);
    }

    @Test
    void savepointBatchesKeepTheirTokensWhenTheTableIsRenamedOrTheSignalTurnedOff() throws Exception {
        String db = RealServices.uniqueName("it_eo_changes");
        String traces = RealServices.uniqueName("it_eo_spans");
        String logs = RealServices.uniqueName("it_eo_logs");
        RealServices.createTopic(traces, 2);
        RealServices.createTopic(logs, 1);
        ClickHouseClient ch = RealServices.clickHouse();
        // checkpoints far apart: rows reach ClickHouse when the savepoint completes (stop-with-savepoint
        // commits its batches), and the savepoint still holds them, so every restore commits them again
        // the INSERT format changes at each restore too: a batch keeps the format it was made in, and its token
        String[] first = args(db, traces, logs, "traces", "--checkpoint.interval", "1h", "--sink.format", "rowbinary");
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()),
                TributaryConfig.fromArgs(args(db, traces, logs, "traces,logs")), TableEngine.MERGE_TREE, null);
        JobClient job = null;
        try {
            UniqueSpans.produce(traces, 2, 4_000, 20_000, new AtomicBoolean(), new AtomicLong());
            job = start(first, null);
            Thread.sleep(10_000); // every record read; nothing written before a checkpoint completes
            assertThat(RealServices.count(db, "otel_traces")).isZero();
            String savepoint = stop(job);
            job = null;
            assertThat(RealServices.count(db, "otel_traces")).isEqualTo(4_000);

            // the table renamed, and the job told so: the savepoint's batches go to it under their old tokens
            ch.execute("RENAME TABLE `" + db + "`.otel_traces TO `" + db + "`.spans_renamed");
            long repeats = droppedRepeats(ch);
            String[] renamed = args(db, traces, logs, "traces,logs", "--checkpoint.interval", "1h",
                    "--clickhouse.tables.traces", "spans_renamed", "--sink.format", "native");
            job = start(renamed, savepoint);
            List<byte[]> more = new ArrayList<>();
            for (long k = 40; k < 50; k++) {
                more.add(UniqueSpans.spans(k * UniqueSpans.PER_RECORD).toByteArray()); // spans 4,001..5,000
            }
            RealServices.produce(traces, more);
            Thread.sleep(8_000);
            assertThat(droppedRepeats(ch) - repeats).as("the savepoint's batches were sent again and dropped").isPositive();
            savepoint = stop(job); // holds the batches of spans 4,001..5,000, and commits them
            job = null;
            assertThat(counts(ch, db, "spans_renamed")).as("distinct, rows").containsExactly(5_000L, 5_000L);

            // traces turned off: the savepoint's span batches still go to their table, dropped as repeats
            repeats = droppedRepeats(ch);
            job = start(args(db, traces, logs, "logs", "--checkpoint.interval", "1s",
                    "--clickhouse.tables.traces", "spans_renamed", "--sink.format", "rowbinary"), savepoint);
            Thread.sleep(8_000);
            assertThat(counts(ch, db, "spans_renamed")).containsExactly(5_000L, 5_000L);
            assertThat(droppedRepeats(ch) - repeats).isPositive();
        } finally {
            cancel(job);
            ch.execute("DROP DATABASE IF EXISTS `" + db + "`");
        }
    }

    @Test
    void aSavepointBatchTheTableCanNoLongerTakeStopsTheRestoreOnceAndTableRefusalDeadLetterGoesOn() throws Exception {
        String db = RealServices.uniqueName("it_eo_altered");
        String traces = RealServices.uniqueName("it_eo_spans");
        String logs = RealServices.uniqueName("it_eo_logs");
        String dlq = RealServices.uniqueName("it_eo_dlq");
        RealServices.createTopic(traces, 1);
        RealServices.createTopic(logs, 2);
        RealServices.createTopic(dlq, 1);
        ClickHouseClient ch = RealServices.clickHouse();
        // a restart strategy that would retry for minutes: the failure must not use it. RowBinary
        // batches (ForeignTablesITCase has a Native one refused after an ALTER)
        String[] args = args(db, traces, logs, "logs", "--checkpoint.interval", "1h", "--dlq.topic", dlq, "--sink.format", "rowbinary",
                "--flink.restart-strategy.type", "fixed-delay", "--flink.restart-strategy.fixed-delay.attempts", "1000",
                "--flink.restart-strategy.fixed-delay.delay", "200ms");
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), TributaryConfig.fromArgs(args),
                TableEngine.MERGE_TREE, null);
        try {
            List<byte[]> records = logRecords(0, 10);
            RealServices.produce(logs, records);
            JobClient job = start(args, null);
            Thread.sleep(10_000);
            String savepoint = stop(job);
            assertThat(RealServices.count(db, "otel_logs")).isEqualTo(100);
            // wider, as older exporters had it: new rows convert, but the savepoint's batches are UInt8 bytes
            ch.execute("ALTER TABLE `" + db + "`.otel_logs MODIFY COLUMN SeverityNumber Int32");
            JobClient restored = start(args, savepoint);
            long started = System.nanoTime();
            assertThatThrownBy(() -> restored.getJobExecutionResult().get(120, TimeUnit.SECONDS))
                    .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                            .contains("the table's columns are not those the rows were encoded in")
                            .contains("--sink.table-refusal dead-letter")
                            .contains("Type of 'SeverityNumber' must be Int32, not UInt8")
                            .contains("SuppressRestartsException"));
            assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started)).as("stopped once, not restarted")
                    .isLessThan(60);
            assertThat(RealServices.count(db, "otel_logs")).isEqualTo(100);
            assertThat(RealServices.consumeAll(dlq)).isEmpty();

            // the one documented way on: the savepoint's batches that cannot be inserted go to the dead letters
            JobClient onwards = start(RealServices.concat(args, "--sink.table-refusal", "dead-letter", "--checkpoint.interval", "1s"),
                    savepoint);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            List<ConsumerRecord<byte[], byte[]>> letters = List.of();
            while (letters.size() < records.size() && System.nanoTime() < deadline) {
                Thread.sleep(500);
                letters = RealServices.consumeAll(dlq);
            }
            assertThat(onwards.getJobStatus().get(10, TimeUnit.SECONDS)).isEqualTo(org.apache.flink.api.common.JobStatus.RUNNING);
            assertThat(letters).as("one letter per record of the savepoint's batches").hasSize(records.size());
            assertThat(letters.stream().map(ConsumerRecord::value)).containsExactlyInAnyOrderElementsOf(records);
            assertThat(new String(letters.get(0).headers().lastHeader(DeadLetterSerializer.ERROR_MESSAGE).value(),
                    java.nio.charset.StandardCharsets.UTF_8)).contains("Type of 'SeverityNumber' must be Int32");
            RealServices.produce(logs, logRecords(100, 10));
            RealServices.awaitCount(db, "otel_logs", 200, 60);
            cancel(onwards);
            assertThat(ch.query("SELECT uniqExact(Body) FROM `" + db + "`.otel_logs FORMAT TSV").strip()).isEqualTo("200");
        } finally {
            ch.execute("DROP DATABASE IF EXISTS `" + db + "`");
        }
    }

    /**
     * With sink.exactly-once.max-bytes-per-checkpoint, each source reader pauses once it has read
     * that much past the last completed checkpoint: the checkpoints hold at most about that much
     * per reader (LZ4 RowBinary of those records), where without it they hold all that arrives.
     */
    @Test
    void theBatchesACheckpointHoldsAreBoundedByTheReadBudget() throws Exception {
        long bounded = maxCheckpointBytes("1 mb");
        long unbounded = maxCheckpointBytes("1 gb");
        System.out.printf("exactly once, 2 readers, 2 s checkpoints over 200,000 prefilled spans: largest checkpoint %,d"
                + " bytes with a 1 MiB read budget, %,d bytes with 1 GiB%n", bounded, unbounded);
        assertThat(bounded).isLessThan(2 * 2 * (1L << 20));
        assertThat(unbounded).isGreaterThan(2 * bounded);
    }

    /** Reads 200,000 prefilled spans with 2 s checkpoints; the largest completed checkpoint's size. */
    private long maxCheckpointBytes(String budget) throws Exception {
        String db = RealServices.uniqueName("it_eo_budget");
        String traces = RealServices.uniqueName("it_eo_spans");
        RealServices.createTopic(traces, 2);
        ClickHouseClient ch = RealServices.clickHouse();
        String[] args = args(db, traces, "", "traces", "--checkpoint.interval", "2s",
                "--sink.exactly-once.max-bytes-per-checkpoint", budget);
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), TributaryConfig.fromArgs(args),
                TableEngine.MERGE_TREE, null);
        JobClient job = null;
        try {
            AtomicLong acked = new AtomicLong();
            UniqueSpans.produce(traces, 2, 200_000, 1_000_000, new AtomicBoolean(), acked);
            job = start(args, null);
            RealServices.awaitCount(db, "otel_traces", acked.get(), 120);
            long max = 0;
            for (JsonNode c : rest("/jobs/" + job.getJobID() + "/checkpoints").path("history")) {
                if (c.path("status").asText().equals("COMPLETED")) {
                    max = Math.max(max, c.path("state_size").asLong());
                }
            }
            assertThat(counts(ch, db, "otel_traces")).containsExactly(acked.get(), acked.get());
            return max;
        } finally {
            cancel(job);
            ch.execute("DROP DATABASE IF EXISTS `" + db + "`");
        }
    }

    /** Cancels a job that still runs (a test that failed half-way must not keep the slots). */
    private static void cancel(JobClient job) {
        if (job == null) {
            return;
        }
        try {
            job.cancel().get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            // it ended already
        }
    }

    private static JsonNode rest(String path) throws Exception {
        String base = "http://" + FLINK.getClientConfiguration().get(RestOptions.ADDRESS) + ":"
                + FLINK.getClientConfiguration().get(RestOptions.PORT);
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        return new ObjectMapper().readTree(r.body());
    }

    /** Ten records of ten log records each: bodies {@code log-<n>}, severity numbers 1..24. */
    public static List<byte[]> logRecords(int first, int records) {
        List<byte[]> out = new ArrayList<>();
        for (int r = 0; r < records; r++) {
            ScopeLogs.Builder sl = ScopeLogs.newBuilder();
            for (int i = 0; i < 10; i++) {
                int n = first + r * 10 + i;
                sl.addLogRecords(LogRecord.newBuilder().setTimeUnixNano(1_764_460_800_000_000_000L + n)
                        .setSeverityNumberValue(n % 24 + 1).setBody(AnyValue.newBuilder().setStringValue("log-" + n)));
            }
            out.add(ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder().addScopeLogs(sl))
                    .build().toByteArray());
        }
        return out;
    }

    private static List<Long> counts(ClickHouseClient ch, String db, String table) throws Exception {
        String[] c = ch.query("SELECT uniqExact(SpanId), count() FROM `" + db + "`.`" + table + "` FORMAT TSV").strip().split("\t");
        return List.of(Long.parseLong(c[0]), Long.parseLong(c[1]));
    }

    private static long droppedRepeats(ClickHouseClient ch) throws Exception {
        String v = ch.query("SELECT sum(value) FROM system.events WHERE event = 'DuplicatedInsertedBlocks' FORMAT TSV").strip();
        return v.isEmpty() ? 0 : Long.parseLong(v);
    }
}
