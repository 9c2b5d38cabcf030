package io.tributary.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.TributaryJob;
import io.tributary.clickhouse.ClickHouseClient;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.schema.TableEngine;
import io.tributary.sink.Delivery;
import io.tributary.testing.FailOnCommandSink;
import io.tributary.testing.FaultProxy;
import io.tributary.testing.JobProcess;
import io.tributary.testing.RealServices;
import io.tributary.testing.UniqueSpans;
import io.tributary.topology.SchemaManager;
import io.tributary.topology.TributaryTopology;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Delivery under failure, on the real services: for each fault, spans with unique ids are produced
 * while the job runs, the fault is injected, and afterwards ClickHouse must hold every span
 * ({@code count(DISTINCT SpanId) = N}); duplicates ({@code count() - N}) and the time to recover
 * are reported in {@code target/fault-results.md}.
 */
class FaultToleranceITCase {

    @RegisterExtension
    static final MiniClusterExtension FLINK = RealServices.miniCluster(4);

    /** Spans per second the producer sends while a fault plays out. */
    private static final int RATE = 2_000;
    /** ... and in the memory test, so that buffering what arrives during the stall would show. */
    private static final int STALL_RATE = 10_000;
    private static final List<String> RESULTS = new ArrayList<>();

    private final SplittableRandom random = new SplittableRandom();

    /** One fault's figures. */
    record Outcome(long produced, long distinct, long rows, double recoverSeconds) {
        long lost() {
            return produced - distinct;
        }

        long duplicates() {
            return rows - distinct;
        }

        /** Nothing lost; and exactly once, nothing stored twice. */
        void check(Delivery delivery) {
            assertThat(lost()).as("spans lost").isZero();
            if (delivery == Delivery.EXACTLY_ONCE) {
                assertThat(duplicates()).as("spans stored twice").isZero();
            }
        }
    }

    /**
     * Each fault runs in both INSERT formats, without doubling the suite: at least once in Native,
     * exactly once in RowBinary (RefusedRowsITCase and ExactlyOnceChangesITCase take Native
     * committables through refusals and restores).
     */
    static String format(Delivery delivery) {
        return delivery == Delivery.AT_LEAST_ONCE ? "native" : "rowbinary";
    }

    @AfterAll
    static void report() throws Exception {
        StringBuilder sb = new StringBuilder("| fault | delivery, format | N | lost | duplicates | time to recover | repeats ClickHouse dropped |\n"
                + "|---|---|---|---|---|---|---|\n");
        RESULTS.forEach(sb::append);
        Files.writeString(Path.of("target", "fault-results.md"), sb.toString());
        System.out.println("fault results:\n" + sb);
    }

    @ParameterizedTest
    @EnumSource(Delivery.class)
    void taskFailuresThreeTimes(Delivery delivery) throws Exception {
        Outcome o = inProcess("task failure ×3 (sink throws on command)", delivery, 24, (proxy, t0) -> {
            for (int i = 0; i < 3; i++) {
                Thread.sleep(3_000 + random.nextInt(3_000));
                FailOnCommandSink.FAILURES.set(1);
            }
            return System.nanoTime();
        }, true);
        o.check(delivery);
    }

    @ParameterizedTest
    @EnumSource(Delivery.class)
    void jobProcessKilledAndRunAgain(Delivery delivery) throws Exception {
        String topic = RealServices.uniqueName("it_fault");
        String db = RealServices.uniqueName("it_fault");
        RealServices.createTopic(topic, 2);
        URI ch = URI.create(RealServices.clickHouseUrl());
        // Through the proxy, forwarding slowly: INSERTs take long, so the kill is likely to land
        // while one is outstanding.
        FaultProxy slow = new FaultProxy(ch.getHost(), ch.getPort());
        slow.mode(FaultProxy.Mode.SLOW);
        Path checkpoints = Path.of("target", "checkpoints", db).toAbsolutePath();
        List<String> args = List.of("run",
                "--signals", "traces",
                "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
                "--kafka.topics.traces", topic,
                "--kafka.group-id", db,
                "--dlq.topic", "",
                "--parallelism", "2",
                "--clickhouse.url", slow.url(),
                "--clickhouse.database", db,
                "--checkpoint.interval", "1s",
                "--sink.batch.max-age", "500ms",
                "--sink.delivery", delivery.id(),
                "--sink.format", format(delivery),
                "--flink.execution.checkpointing.dir", checkpoints.toUri().toString(),
                "--flink.rest.port", "0");
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()),
                TributaryConfig.fromArgs(args.subList(1, args.size()).toArray(new String[0])), TableEngine.MERGE_TREE, null);
        JobProcess[] job = {JobProcess.start("fault-kill-1-" + delivery.id(), args)};
        try (FaultProxy proxied = slow) {
            Outcome o = measure("job process killed (kill -9) and run again", delivery, topic, db, 30, RATE, proxied, (proxy, t0) -> {
                // Killed a few seconds after its first completed checkpoint, so that there is one to
                // resume from however long this machine takes to start a job.
                awaitCompletedCheckpoint(checkpoints, 90);
                Thread.sleep(2_000 + random.nextInt(5_000));
                job[0].kill(); // SIGKILL: no flush, no goodbye
                Thread.sleep(2_000);
                job[0] = JobProcess.start("fault-kill-2-" + delivery.id(), args);
                return System.nanoTime();
            });
            o.check(delivery);
            assertThat(job[0].log())
                    .as("the second run resumes from the first one's last checkpoint")
                    .contains("tributary: resuming from file:");
        } finally {
            job[0].close();
            RealServices.clickHouse().execute("DROP DATABASE IF EXISTS `" + db + "`");
        }
    }

    @ParameterizedTest
    @EnumSource(Delivery.class)
    void clickHouseUnavailableFor60Seconds(Delivery delivery) throws Exception {
        Outcome o = inProcess("ClickHouse unavailable 60 s (connections refused)", delivery, 74, (proxy, t0) -> {
            Thread.sleep(5_000 + random.nextInt(3_000));
            proxy.mode(FaultProxy.Mode.REFUSE);
            Thread.sleep(60_000);
            proxy.mode(FaultProxy.Mode.PASS);
            return System.nanoTime();
        }, false);
        o.check(delivery);
    }

    @ParameterizedTest
    @EnumSource(Delivery.class)
    void clickHouseAnswering500SlowAndDroppingConnections(Delivery delivery) throws Exception {
        Outcome o = inProcess("ClickHouse 5xx 10 s, slow 10 s, connections reset 10 s", delivery, 40, (proxy, t0) -> {
            Thread.sleep(4_000 + random.nextInt(2_000));
            proxy.mode(FaultProxy.Mode.ERROR_500);
            Thread.sleep(10_000);
            proxy.mode(FaultProxy.Mode.SLOW);
            Thread.sleep(10_000);
            proxy.mode(FaultProxy.Mode.RESET);
            Thread.sleep(10_000);
            proxy.mode(FaultProxy.Mode.PASS);
            return System.nanoTime();
        }, false);
        o.check(delivery);
    }

    @ParameterizedTest
    @EnumSource(Delivery.class)
    void aProxyAnswering200ForClickHouseFor10Seconds(Delivery delivery) throws Exception {
        // a 200 without ClickHouse's summary stores nothing: taken for a success, its rows were lost
        Outcome o = inProcess("a proxy answers 200 for ClickHouse 10 s", delivery, 24, (proxy, t0) -> {
            Thread.sleep(4_000 + random.nextInt(2_000));
            proxy.mode(FaultProxy.Mode.FAKE_OK);
            Thread.sleep(10_000);
            proxy.mode(FaultProxy.Mode.PASS);
            return System.nanoTime();
        }, false);
        o.check(delivery);
    }

    @Test
    void aReadOnlyUserFailsTheJobAtTheFirstInsertWithoutRetrying() throws Exception {
        String topic = RealServices.uniqueName("it_readonly");
        String db = RealServices.uniqueName("it_readonly");
        RealServices.createTopic(topic, 1);
        RealServices.produce(topic, List.of(UniqueSpans.spans(0).toByteArray()));
        TributaryConfig config = TributaryConfig.fromArgs(new String[] {
            "--signals", "traces",
            "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
            "--kafka.topics.traces", topic,
            "--kafka.group-id", db,
            "--kafka.bounded", "true",
            "--kafka.starting-offsets", "earliest",
            "--dlq.topic", "",
            "--clickhouse.url", RealServices.clickHouseUrl(),
            "--clickhouse.user", "tributary_readonly", // io.tributary.services.ClickHouse makes it: readonly = 1
            "--clickhouse.database", db,
            "--sink.retry.max-attempts", "10",
            "--sink.retry.initial-backoff", "2s",
            "--flink.restart-strategy.type", "none"
        });
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
        try {
            long start = System.nanoTime();
            assertThatThrownBy(() -> TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), config))
                    .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                            .contains("ClickHouse refuses the rows of `" + db + "`.`otel_traces` as a whole")
                            .contains("ClickHouse answered HTTP 500 (code 164)")
                            .contains("READONLY")
                            .doesNotContain("attempt"));
            // ten attempts 2 s, 4 s, ... apart would take minutes
            assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).isLessThan(30);
        } finally {
            RealServices.clickHouse().execute("DROP DATABASE IF EXISTS `" + db + "`");
        }
    }

    @ParameterizedTest
    @EnumSource(Delivery.class)
    void kafkaBrokerRestarted(Delivery delivery) throws Exception {
        // the broker the test command started, and no other (not a developer's demo broker)
        assertThat(services("kafka-bootstrap", null)).isEqualTo(RealServices.kafkaBootstrap());
        Outcome o = inProcess("Kafka broker restarted", delivery, 32, (proxy, t0) -> {
            Thread.sleep(5_000 + random.nextInt(3_000));
            try {
                services("stop", "kafka");
                Thread.sleep(5_000);
            } finally {
                services("start", "kafka");
            }
            return System.nanoTime();
        }, false);
        o.check(delivery);
    }

    @Test
    void heapStaysBoundedWhileClickHouseStalls() throws Exception {
        // {seconds since start, live heap bytes (used right after a full GC), phase}
        List<long[]> heap = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean stop = new AtomicBoolean();
        long start = System.nanoTime();
        int[] phase = {0};
        Thread sampler = new Thread(() -> {
            while (!stop.get()) {
                System.gc();
                heap.add(new long[] {TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start),
                    ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), phase[0]});
                try {
                    Thread.sleep(3_000);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        sampler.setDaemon(true);
        sampler.start();
        Outcome o;
        try {
            o = inProcess("ClickHouse stalled 60 s (requests held open), under load", Delivery.AT_LEAST_ONCE, 85, STALL_RATE, (proxy, t0) -> {
                Thread.sleep(10_000);
                phase[0] = 1;
                proxy.mode(FaultProxy.Mode.STALL);
                Thread.sleep(60_000);
                proxy.mode(FaultProxy.Mode.PASS);
                phase[0] = 2;
                return System.nanoTime();
            }, false);
        } finally {
            stop.set(true);
            sampler.join();
        }
        assertThat(o.lost()).isZero();
        long[] max = new long[3];
        for (long[] h : heap) {
            max[(int) h[2]] = Math.max(max[(int) h[2]], h[1]);
        }
        String figures = String.format(Locale.ROOT, "live heap (used after a full GC, sampled every 3 s), max per phase:"
                + " before the stall %d MiB, during the 60 s stall %d MiB, after %d MiB", max[0] >> 20, max[1] >> 20, max[2] >> 20);
        RESULTS.add("\n" + figures + " (the whole test JVM: MiniCluster, producer and test)\n\n");
        System.out.println(figures);
        // bounded: the stall holds at most (1 + in-flight) batches per sink subtask, 2 x 3 x 8 MiB
        // here, and Kafka keeps the rest; the 600,000 spans produced meanwhile (about 200 MiB of
        // RowBinary) must not show in the live heap
        assertThat(max[1]).isLessThan(max[0] + (48L << 20) + (16L << 20));
    }

    /** Runs the fault against an unbounded job in this JVM and measures the outcome. */
    private Outcome inProcess(String fault, Delivery delivery, int seconds, Fault script, boolean failingSink) throws Exception {
        return inProcess(fault, delivery, seconds, RATE, script, failingSink);
    }

    private Outcome inProcess(String fault, Delivery delivery, int seconds, int rate, Fault script, boolean failingSink)
            throws Exception {
        String topic = RealServices.uniqueName("it_fault");
        String db = RealServices.uniqueName("it_fault");
        RealServices.createTopic(topic, 2);
        URI ch = URI.create(RealServices.clickHouseUrl());
        try (FaultProxy proxy = new FaultProxy(ch.getHost(), ch.getPort())) {
            TributaryConfig config = TributaryConfig.fromArgs(new String[] {
                "--signals", "traces",
                "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
                "--kafka.topics.traces", topic,
                "--kafka.group-id", db,
                "--kafka.starting-offsets", "earliest",
                "--dlq.topic", "",
                "--parallelism", "2",
                "--clickhouse.url", proxy.url(),
                "--clickhouse.database", db,
                "--checkpoint.interval", "1s",
                "--sink.batch.max-age", "500ms",
                "--sink.batch.max-bytes", "8 mb",
                "--sink.delivery", delivery.id(),
                "--sink.format", format(delivery),
                "--flink.execution.checkpointing.dir", Path.of("target", "checkpoints", db).toAbsolutePath().toUri().toString(),
                "--sink.retry.max-attempts", "1000",
                "--sink.retry.max-backoff", "2s",
                "--flink.restart-strategy.type", "exponential-delay",
                "--flink.restart-strategy.exponential-delay.initial-backoff", "1s",
                "--flink.restart-strategy.exponential-delay.max-backoff", "5s"
            });
            SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            TributaryTopology.build(env, config, TributaryTopology.kafkaSource(config),
                    failingSink ? FailOnCommandSink.wrap(TributaryTopology.clickHouseSink(config))
                            : TributaryTopology.clickHouseSink(config),
                    null);
            JobClient job = env.executeAsync("fault: " + fault);
            try {
                return measure(fault, delivery, topic, db, seconds, rate, proxy, script);
            } finally {
                job.cancel().get(60, TimeUnit.SECONDS);
                RealServices.clickHouse().execute("DROP DATABASE IF EXISTS `" + db + "`");
            }
        }
    }

    /** A fault: plays out, returns System.nanoTime() when it is over. */
    @FunctionalInterface
    interface Fault {
        long play(FaultProxy proxy, long t0) throws Exception;
    }

    /**
     * Produces spans at {@link #RATE} for {@code seconds} while the fault plays, then waits until
     * ClickHouse holds every span (or a timeout), and records the figures.
     */
    private Outcome measure(String fault, Delivery delivery, String topic, String db, int seconds, int rate, FaultProxy proxy,
            Fault script)
            throws Exception {
        long dropped0 = droppedRepeats();
        AtomicLong produced = new AtomicLong();
        AtomicLong producedAtFaultEnd = new AtomicLong(-1);
        long t0 = System.nanoTime();
        Thread producer = new Thread(() -> produce(topic, seconds, rate, produced), "fault-producer");
        producer.start();
        long faultEnd = script.play(proxy, t0);
        producedAtFaultEnd.set(produced.get());
        producer.join();
        ClickHouseClient ch = RealServices.clickHouse();
        String table = "`" + db + "`.otel_traces";
        long n = produced.get();
        double recover = -1;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        long distinct = 0;
        while (System.nanoTime() < deadline) {
            distinct = Long.parseLong(ch.query("SELECT uniqExact(SpanId) FROM " + table + " FORMAT TSV").strip());
            if (recover < 0 && distinct >= producedAtFaultEnd.get()) {
                recover = (System.nanoTime() - faultEnd) / 1e9;
            }
            if (distinct >= n) {
                break;
            }
            Thread.sleep(500);
        }
        Thread.sleep(2_000); // let any retried batch still in flight land before counting duplicates
        String[] counts = ch.query("SELECT uniqExact(SpanId), count() FROM " + table + " FORMAT TSV").strip().split("\t");
        Outcome o = new Outcome(n, Long.parseLong(counts[0]), Long.parseLong(counts[1]), Math.max(recover, 0));
        long dropped = droppedRepeats() - dropped0;
        RESULTS.add(String.format(Locale.ROOT, "| %s | %s | %,d | %d | %d | %.1f s | %d |%n",
                fault, delivery.id() + ", " + format(delivery), o.produced(), o.lost(), o.duplicates(), o.recoverSeconds(),
                dropped));
        System.out.printf(Locale.ROOT, "fault %s, %s: N=%d lost=%d duplicates=%d recovered in %.1f s (proxy connections %d,"
                        + " repeated blocks ClickHouse dropped %d)%n",
                fault, delivery.id(), o.produced(), o.lost(), o.duplicates(), o.recoverSeconds(), proxy.connections(), dropped);
        return o;
    }

    /** Waits until a job has completed a checkpoint under {@code dir}: a {@code <job>/chk-<n>/_metadata}. */
    private static void awaitCompletedCheckpoint(Path dir, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            if (Files.isDirectory(dir)) {
                try (var files = Files.find(dir, 3, (p, a) -> p.getFileName().toString().equals("_metadata"))) {
                    if (files.findAny().isPresent()) {
                        return;
                    }
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no checkpoint completed under " + dir + " within " + seconds + " s");
    }

    /**
     * Blocks ClickHouse has dropped as repeats since it started (server-wide; the integration tests
     * run one at a time): how often exactly-once tokens turned a second INSERT into a no-op.
     */
    private static long droppedRepeats() throws Exception {
        String v = RealServices.clickHouse().query(
                "SELECT sum(value) FROM system.events WHERE event = 'DuplicatedInsertedBlocks' FORMAT TSV").strip();
        return v.isEmpty() ? 0 : Long.parseLong(v);
    }

    private void produce(String topic, int seconds, int rate, AtomicLong acked) {
        UniqueSpans.produce(topic, 2, (long) rate * seconds, rate, new AtomicBoolean(), acked);
    }

    /**
     * Stops or starts one of the local services the test command started (the services program, io.tributary.services.Services,
     * with the ports and state directory {@code bin/tributary test} exported), or prints the Kafka
     * bootstrap those settings point at.
     */
    private static String services(String command, String name) throws Exception {
        File root = new File("..").getCanonicalFile();
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", "source bin/lib/services.sh && "
                + (name == null ? "services_kafka_bootstrap" : "services_main " + command + " " + name));
        pb.directory(root);
        pb.environment().put("ROOT", root.getPath());
        pb.environment().putAll(RealServices.servicesSettings());
        pb.redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as("services %s %s: %s", command, name, out).isZero();
        return out.strip();
    }
}
