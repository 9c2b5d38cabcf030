package io.tributary.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.TributaryJob;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.schema.TableEngine;
import io.tributary.sink.Delivery;
import io.tributary.testing.FaultProxy;
import io.tributary.testing.JobProcess;
import io.tributary.testing.RealServices;
import io.tributary.testing.UniqueSpans;
import io.tributary.topology.SchemaManager;
import io.tributary.topology.TributaryTopology;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code kafka.bounded} runs that start from the state of earlier runs, on the real services: a
 * bounded run stops at the end offsets seen at its own start and ends (exit 0) whether it starts
 * from an unbounded run's checkpoint, a bounded run's, or a savepoint; and a partition that a
 * bounded run finished is read on by the runs after it.
 */
class BoundedRunsITCase {

    @RegisterExtension
    static final MiniClusterExtension FLINK = RealServices.miniCluster(4);

    /** Same keys for every run of one pipeline; {@code more} adds to them. */
    private static List<String> args(String topic, String db, Delivery delivery, String... more) {
        List<String> a = new ArrayList<>(List.of("run",
                "--signals", "traces",
                "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
                "--kafka.topics.traces", topic,
                "--kafka.group-id", db,
                "--dlq.topic", "",
                "--parallelism", "2",
                "--clickhouse.url", RealServices.clickHouseUrl(),
                "--clickhouse.database", db,
                "--checkpoint.interval", "1s",
                "--sink.batch.max-age", "300ms",
                "--sink.delivery", delivery.id(),
                "--flink.execution.checkpointing.dir", Path.of("target", "checkpoints", db).toAbsolutePath().toUri().toString(),
                "--flink.rest.port", "0"));
        a.addAll(List.of(more));
        return a;
    }

    private static void createTables(List<String> args) throws Exception {
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()),
                TributaryConfig.fromArgs(args.subList(1, args.size()).toArray(new String[0])), TableEngine.MERGE_TREE, null);
    }

    /** {distinct span ids, rows}. */
    private static long[] counts(String db) throws Exception {
        String[] c = RealServices.clickHouse().query("SELECT uniqExact(SpanId), count() FROM `" + db
                + "`.otel_traces FORMAT TSV").strip().split("\t");
        return new long[] {Long.parseLong(c[0]), Long.parseLong(c[1])};
    }

    private static void await(String db, long distinct, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (counts(db)[0] < distinct && System.nanoTime() < deadline) {
            Thread.sleep(300);
        }
    }

    @ParameterizedTest
    @EnumSource(Delivery.class)
    void boundedRunAfterAKilledUnboundedRunStopsAtItsStartAndExits(Delivery delivery) throws Exception {
        String topic = RealServices.uniqueName("it_bounded");
        String db = RealServices.uniqueName("it_bounded");
        RealServices.createTopic(topic, 2);
        List<String> args = args(topic, db, delivery);
        createTables(args);
        AtomicLong acked = new AtomicLong();
        Thread producer = new Thread(() -> UniqueSpans.produce(topic, 2, 30_000, 3_000, new AtomicBoolean(), acked));
        try {
            producer.start();
            try (JobProcess unbounded = JobProcess.start("bounded-1-" + delivery.id(), args)) {
                assertThat(unbounded.awaitLog("Completed checkpoint 3 ", 90)).as(unbounded.log()).isTrue();
                unbounded.kill(); // while records arrive
            }
            producer.join();
            List<String> drain = new ArrayList<>(args);
            drain.addAll(List.of("--kafka.bounded", "true"));
            long start = System.nanoTime();
            try (JobProcess bounded = JobProcess.start("bounded-2-" + delivery.id(), drain)) {
                Integer exit = bounded.waitFor(150);
                assertThat(exit).as("the bounded run ends by itself, with 0; log:\n%s", tail(bounded.log())).isEqualTo(0);
                assertThat(bounded.log()).contains("tributary: resuming from file:");
            }
            System.out.printf("bounded drain after kill -9 (%s): %.1f s%n", delivery.id(), (System.nanoTime() - start) / 1e9);
            long[] c = counts(db);
            assertThat(c[0]).as("spans lost").isEqualTo(30_000);
            if (delivery == Delivery.EXACTLY_ONCE) {
                assertThat(c[1]).as("spans stored twice").isEqualTo(30_000);
            }
        } finally {
            producer.join();
            RealServices.clickHouse().execute("DROP DATABASE IF EXISTS `" + db + "`");
        }
    }

    /**
     * A bounded run is killed after one reader finished its partition (its task then ends and
     * keeps no state) while the other still reads; the runs after it, unbounded and bounded,
     * must read on the finished partition's new records too.
     */
    @Test
    void partitionsABoundedRunFinishedAreReadOnByLaterRuns() throws Exception {
        String topic = RealServices.uniqueName("it_bounded");
        String db = RealServices.uniqueName("it_bounded");
        RealServices.createTopic(topic, 2);
        URI ch = URI.create(RealServices.clickHouseUrl());
        try (FaultProxy slow = new FaultProxy(ch.getHost(), ch.getPort())) {
            slow.mode(FaultProxy.Mode.SLOW);
            List<String> args = args(topic, db, Delivery.AT_LEAST_ONCE, "--sink.batch.max-rows", "500",
                    "--sink.max-in-flight", "1");
            createTables(args);
            long next = 0;
            // partition 0: one record, read at once; partition 1: enough to take a while through the slow proxy
            RealServices.produceTo(topic, 0, records(next, 1));
            next += UniqueSpans.PER_RECORD;
            RealServices.produceTo(topic, 1, records(next, 300));
            next += 300L * UniqueSpans.PER_RECORD;
            List<String> boundedSlow = new ArrayList<>(args);
            boundedSlow.addAll(List.of("--kafka.bounded", "true"));
            boundedSlow.set(boundedSlow.indexOf(RealServices.clickHouseUrl()), slow.url());
            try (JobProcess first = JobProcess.start("bounded-handback-1", boundedSlow)) {
                assertThat(first.awaitLog("finished; keeping where it left its partitions", 90)).as(first.log()).isTrue();
                int handedBackAt = first.log().indexOf("finished; keeping where it left its partitions");
                // a checkpoint triggered after the enumerator recorded the hand-back completes (one
                // triggered before it and completed after would not hold the finished positions)
                Pattern triggered = Pattern.compile("Triggering checkpoint (\\d+) ");
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                boolean completed = false;
                while (System.nanoTime() < deadline && !completed) {
                    Matcher m = triggered.matcher(first.log().substring(handedBackAt));
                    completed = m.find() && first.log().substring(handedBackAt).contains("Completed checkpoint " + m.group(1) + " ");
                    Thread.sleep(200);
                }
                assertThat(completed).as("a checkpoint after the hand-back completes; log:\n%s", tail(first.log())).isTrue();
                Thread.sleep(500);
                assertThat(first.waitFor(0)).as("still reading partition 1 when killed").isNull();
                first.kill();
            }
            RealServices.produceTo(topic, 0, records(next, 5));
            long newOnPartition0 = next;
            next += 5L * UniqueSpans.PER_RECORD;
            try (JobProcess unbounded = JobProcess.start("bounded-handback-2", args)) {
                assertThat(unbounded.awaitLog("Reading again from where finished readers", 60)).as(unbounded.log()).isTrue();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
                while (System.nanoTime() < deadline && !present(db, newOnPartition0 + 1, newOnPartition0 + 500)) {
                    Thread.sleep(300);
                }
                assertThat(present(db, newOnPartition0 + 1, newOnPartition0 + 500))
                        .as("the unbounded run reads the records partition 0 got after the bounded run finished it").isTrue();
                unbounded.kill();
            }
            RealServices.produceTo(topic, 0, records(next, 2));
            next += 2L * UniqueSpans.PER_RECORD;
            RealServices.produceTo(topic, 1, records(next, 2));
            next += 2L * UniqueSpans.PER_RECORD;
            List<String> bounded = new ArrayList<>(args);
            bounded.addAll(List.of("--kafka.bounded", "true"));
            try (JobProcess last = JobProcess.start("bounded-handback-3", bounded)) {
                assertThat(last.waitFor(120)).as("the bounded run ends; log:\n%s", tail(last.log())).isEqualTo(0);
            }
            assertThat(counts(db)[0]).as("every span of both partitions").isEqualTo(next);
        } finally {
            RealServices.clickHouse().execute("DROP DATABASE IF EXISTS `" + db + "`");
        }
    }

    /**
     * Savepoint of an unbounded job, then a bounded job from it: it writes what arrived up to its
     * own start (records produced before it was built), not what arrives while it runs, and ends.
     */
    @ParameterizedTest
    @EnumSource(Delivery.class)
    void boundedJobFromASavepointStopsAtTheEndOffsetsOfItsStart(Delivery delivery) throws Exception {
        String topic = RealServices.uniqueName("it_bounded");
        String db = RealServices.uniqueName("it_bounded");
        RealServices.createTopic(topic, 2);
        List<String> run = args(topic, db, delivery, "--kafka.starting-offsets", "earliest");
        String[] keys = run.subList(1, run.size()).toArray(new String[0]);
        createTables(run);
        try {
            RealServices.produce(topic, records(0, 40));
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            TributaryTopology.build(env, TributaryConfig.fromArgs(keys));
            JobClient job = env.executeAsync("unbounded before the savepoint");
            await(db, 4_000, 60);
            RealServices.produce(topic, records(4_000, 20));
            Path dir = Files.createTempDirectory("tributary-bounded-savepoint");
            String savepoint = job.stopWithSavepoint(false, dir.toUri().toString(), SavepointFormatType.CANONICAL)
                    .get(120, TimeUnit.SECONDS);
            RealServices.produce(topic, records(6_000, 20));
            String[] bounded = RealServices.concat(keys, "--kafka.bounded", "true", "--flink.execution.state-recovery.path", savepoint);
            StreamExecutionEnvironment env2 = StreamExecutionEnvironment.getExecutionEnvironment();
            TributaryTopology.build(env2, TributaryConfig.fromArgs(bounded));
            // built: its end offsets are read; what comes now is after its start
            RealServices.produce(topic, records(8_000, 20));
            JobClient boundedJob = env2.executeAsync("bounded from a savepoint");
            boundedJob.getJobExecutionResult().get(120, TimeUnit.SECONDS);
            long[] c = counts(db);
            assertThat(c[0]).as("spans up to the bounded run's start").isEqualTo(8_000);
            assertThat(RealServices.clickHouse().query("SELECT countIf(reinterpretAsUInt64(reverse(unhex(SpanId))) > 8000)"
                    + " FROM `" + db + "`.otel_traces FORMAT TSV").strip()).isEqualTo("0");
            if (delivery == Delivery.EXACTLY_ONCE) {
                assertThat(c[1]).as("spans stored twice").isEqualTo(8_000);
            }
            // and a bounded run that starts fresh from the committed offsets ends too, with the rest
            TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(),
                    TributaryConfig.fromArgs(RealServices.concat(keys, "--kafka.bounded", "true")));
            assertThat(counts(db)[0]).isEqualTo(10_000);
        } finally {
            RealServices.clickHouse().execute("DROP DATABASE IF EXISTS `" + db + "`");
        }
    }

    private static List<byte[]> records(long firstSpan, int n) {
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(UniqueSpans.spans(firstSpan + (long) i * UniqueSpans.PER_RECORD).toByteArray());
        }
        return out;
    }

    /** True when every span id in {@code [from, to]} is in the table. */
    private static boolean present(String db, long from, long to) throws Exception {
        String n = RealServices.clickHouse().query("SELECT uniqExact(SpanId) FROM `" + db + "`.otel_traces WHERE"
                + " reinterpretAsUInt64(reverse(unhex(SpanId))) BETWEEN " + from + " AND " + to + " FORMAT TSV").strip();
        return Long.parseLong(n) == to - from + 1;
    }

    private static String tail(String log) {
        return log.length() > 6_000 ? log.substring(log.length() - 6_000) : log;
    }
}
