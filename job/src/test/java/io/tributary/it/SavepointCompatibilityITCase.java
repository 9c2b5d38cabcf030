package io.tributary.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.schema.TableEngine;
import io.tributary.sink.Delivery;
import io.tributary.testing.RealServices;
import io.tributary.testing.UniqueSpans;
import io.tributary.topology.SchemaManager;
import io.tributary.topology.TributaryTopology;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Savepoints of released versions restore into this one (as flink-connector-kafka's migration
 * tests do): a savepoint taken with each release (0.1: this development line) is checked in under {@code src/test/resources/savepoints/},
 * and the job restores it under the operator uids of {@link TributaryTopology}. A change that
 * breaks a uid, the Kafka source's state or the exactly-once committables' serializer fails here.
 *
 * <p>Each savepoint was taken after the job had read 4 records (400 spans) from each of 2
 * partitions of {@value #TOPIC}. Restored, the job must go on from offset 4 of each partition:
 * given 10 records per partition it writes exactly the spans of records 4..9, not those of 0..3
 * (the consumer group is new, so reading from the group's offsets or the start would write them).
 * The exactly-once savepoint was taken before any checkpoint had completed, so the committer's
 * state in it holds every batch of records 0..3: restored, the job inserts them from the savepoint.
 *
 * <p>To write the savepoints of a new release: {@code -Dtributary.savepoint.write=<version>} (then
 * add the version to {@link #RELEASES}).
 */
class SavepointCompatibilityITCase {

    @RegisterExtension
    static final MiniClusterExtension FLINK = RealServices.miniCluster(2);

    static final String TOPIC = "tributary_compat_spans";
    static final String DLQ = "tributary_compat_dlq";
    static final String[] RELEASES = {"0.1"};
    private static final int RECORDS_BEFORE = 4;
    private static final int RECORDS = 10;
    private static final int PARTITIONS = 2;

    @ParameterizedTest
    @EnumSource(Delivery.class)
    void savepointsOfReleasedVersionsRestore(Delivery delivery) throws Exception {
        String write = System.getProperty("tributary.savepoint.write");
        if (write != null && !write.isBlank()) {
            writeSavepoint(write, delivery);
            return;
        }
        for (String release : RELEASES) {
            restore(release, delivery);
        }
    }

    private static Path resource(String release, Delivery delivery) {
        return Path.of("src", "test", "resources", "savepoints", "tributary-" + release + "-" + delivery.id()).toAbsolutePath();
    }

    private static String[] args(String db, Delivery delivery, String... more) {
        List<String> a = new ArrayList<>(List.of(
                "--signals", "traces",
                "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
                "--kafka.topics.traces", TOPIC,
                "--kafka.group-id", db,
                "--kafka.starting-offsets", "earliest",
                "--dlq.topic", DLQ,
                "--parallelism", "2",
                "--clickhouse.url", RealServices.clickHouseUrl(),
                "--clickhouse.database", db,
                "--sink.delivery", delivery.id(),
                "--sink.batch.max-age", "200ms"));
        a.addAll(List.of(more));
        return a.toArray(new String[0]);
    }

    private void restore(String release, Delivery delivery) throws Exception {
        Path savepoint = resource(release, delivery);
        assertThat(savepoint.resolve("_metadata")).as("savepoint of %s", release).exists();
        recreateTopicWithRecords();
        String db = RealServices.uniqueName("it_compat");
        TributaryConfig config = TributaryConfig.fromArgs(args(db, delivery,
                "--checkpoint.interval", "1s",
                "--flink.execution.state-recovery.path", savepoint.toUri().toString()));
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        TributaryTopology.build(env, config);
        JobClient job = env.executeAsync("compat " + release + " " + delivery.id());
        try {
            // at least once: records 4..9 of each partition; exactly once also 0..3, from the
            // committer's state in the savepoint
            long first = delivery == Delivery.EXACTLY_ONCE ? 0 : RECORDS_BEFORE;
            List<Long> expected = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                for (long r = first; r < RECORDS; r++) {
                    long record = r * PARTITIONS + p; // produced round-robin: record k goes to partition k % 2
                    for (int s = 1; s <= UniqueSpans.PER_RECORD; s++) {
                        expected.add(record * UniqueSpans.PER_RECORD + s);
                    }
                }
            }
            expected.sort(Comparator.naturalOrder());
            String table = "`" + db + "`.otel_traces";
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (System.nanoTime() < deadline && count(table) < expected.size()) {
                Thread.sleep(500);
            }
            Thread.sleep(2_000);
            String ids = RealServices.clickHouse().query("SELECT arrayStringConcat(arraySort(groupArray(reinterpretAsUInt64("
                    + "reverse(unhex(SpanId))))), ',') FROM " + table + " FORMAT TSVRaw").strip();
            assertThat(ids).as("span ids written after restoring %s (%s)", release, delivery.id())
                    .isEqualTo(expected.stream().map(String::valueOf).collect(Collectors.joining(",")));
        } finally {
            job.cancel().get(60, TimeUnit.SECONDS);
            RealServices.clickHouse().execute("DROP DATABASE IF EXISTS `" + db + "`");
        }
    }

    private static long count(String table) throws Exception {
        return Long.parseLong(RealServices.clickHouse().query("SELECT count() FROM " + table + " FORMAT TSV").strip());
    }

    /**
     * Takes the savepoint of {@code release}: runs the job over the first 4 records of each
     * partition, then stops it with a savepoint (exactly once: with checkpoints too far apart to
     * complete one first) and copies it into the test resources.
     */
    private void writeSavepoint(String release, Delivery delivery) throws Exception {
        recreateTopic();
        List<byte[]> records = new ArrayList<>();
        for (long k = 0; k < RECORDS_BEFORE * PARTITIONS; k++) {
            records.add(UniqueSpans.spans(k * UniqueSpans.PER_RECORD).toByteArray());
        }
        RealServices.produce(TOPIC, records);
        String db = RealServices.uniqueName("it_compat");
        TributaryConfig config = TributaryConfig.fromArgs(args(db, delivery,
                "--checkpoint.interval", delivery == Delivery.EXACTLY_ONCE ? "1h" : "1s"));
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        TributaryTopology.build(env, config);
        JobClient job = env.executeAsync("compat write " + release + " " + delivery.id());
        try {
            Thread.sleep(15_000); // every record read (exactly once nothing is written before the savepoint)
            Path target = Files.createTempDirectory("tributary-savepoint");
            String location = job.stopWithSavepoint(false, target.toUri().toString(), SavepointFormatType.CANONICAL)
                    .get(120, TimeUnit.SECONDS);
            Path from = Path.of(java.net.URI.create(location.startsWith("file:") ? location : "file://" + location));
            Path to = resource(release, delivery);
            Files.createDirectories(to);
            try (Stream<Path> files = Files.list(from)) {
                for (Path f : files.collect(Collectors.toList())) {
                    Files.copy(f, to.resolve(f.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
            System.out.println("savepoint of " + release + " (" + delivery.id() + ") written to " + to);
        } finally {
            RealServices.clickHouse().execute("DROP DATABASE IF EXISTS `" + db + "`");
        }
    }

    /** The topic, empty, with 10 records of 100 unique spans per partition (record k: spans 100k+1..100k+100). */
    private static void recreateTopicWithRecords() throws Exception {
        recreateTopic();
        List<byte[]> records = new ArrayList<>();
        for (long k = 0; k < (long) RECORDS * PARTITIONS; k++) {
            records.add(UniqueSpans.spans(k * UniqueSpans.PER_RECORD).toByteArray());
        }
        RealServices.produce(TOPIC, records);
    }

    private static void recreateTopic() throws Exception {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, RealServices.kafkaBootstrap());
        try (Admin admin = Admin.create(p)) {
            try {
                admin.deleteTopics(List.of(TOPIC)).all().get();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e;
                }
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (true) {
                try {
                    RealServices.createTopic(TOPIC, PARTITIONS);
                    return;
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException) || System.nanoTime() > deadline) {
                        throw e;
                    }
                    Thread.sleep(500); // still being deleted
                }
            }
        }
    }
}
