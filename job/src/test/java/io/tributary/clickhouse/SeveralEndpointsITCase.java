package io.tributary.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.schema.TableEngine;
import io.tributary.testing.FaultProxy;
import io.tributary.testing.RealServices;
import io.tributary.testing.UniqueSpans;
import io.tributary.topology.SchemaManager;
import io.tributary.topology.TributaryTopology;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code clickhouse.url} with two endpoints (proxies in front of the real ClickHouse, as two
 * replicas' load balancers would be): one killed and revived under load loses nothing, needs no
 * job restart, and the per-endpoint metrics show it.
 */
class SeveralEndpointsITCase {

    static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension FLINK = RealServices.miniCluster(2, REPORTER);

    private static final int SPANS = 60_000;

    @Test
    void anEndpointKilledAndRevivedUnderLoadLosesNothingAndNeedsNoRestart() throws Exception {
        URI ch = URI.create(RealServices.clickHouseUrl());
        String topic = RealServices.uniqueName("it_endpoints");
        String db = RealServices.uniqueName("it_endpoints");
        RealServices.createTopic(topic, 2);
        try (FaultProxy a = new FaultProxy(ch.getHost(), ch.getPort());
                FaultProxy b = new FaultProxy(ch.getHost(), ch.getPort())) {
            String labelA = "127.0.0.1:" + URI.create(a.url()).getPort();
            String labelB = "127.0.0.1:" + URI.create(b.url()).getPort();
            TributaryConfig config = TributaryConfig.fromArgs(new String[] {
                "--signals", "traces",
                "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
                "--kafka.topics.traces", topic,
                "--kafka.group-id", db,
                "--kafka.starting-offsets", "earliest",
                "--clickhouse.url", a.url() + ", " + b.url(),
                "--clickhouse.database", db,
                "--dlq.topic", "",
                "--parallelism", "2",
                "--sink.batch.max-age", "100ms",
                "--sink.batch.max-rows", "2000",
                "--checkpoint.interval", "1s",
                "--flink.restart-strategy.type", "none"
            });
            SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            TributaryTopology.build(env, config);
            JobClient job = env.executeAsync("two endpoints");
            try {
                AtomicBoolean stop = new AtomicBoolean();
                AtomicLong acked = new AtomicLong();
                Thread producer = new Thread(() -> UniqueSpans.produce(topic, 2, SPANS, 10_000, stop, acked));
                producer.start();
                while (acked.get() < SPANS / 4) {
                    Thread.sleep(50);
                }
                a.mode(FaultProxy.Mode.REFUSE); // killed: connections refused, open ones cut
                Thread.sleep(2_000);
                long errorsWhileDown = counter(job.getJobID(), labelA, "errors");
                a.mode(FaultProxy.Mode.PASS); // revived
                producer.join();
                assertThat(acked.get()).isEqualTo(SPANS);
                RealServices.awaitCount(db, "otel_traces", SPANS, 90);
                assertThat(RealServices.clickHouse().query("SELECT uniqExact(SpanId), count() >= " + SPANS
                        + ", max(reinterpretAsUInt64(reverse(unhex(SpanId)))) FROM `" + db + "`.otel_traces FORMAT TSV"))
                        .as("every span, at least once").isEqualTo(SPANS + "\t1\t" + SPANS + "\n");
                assertThat(job.getJobStatus().get(10, TimeUnit.SECONDS))
                        .as("no restart (the strategy is none)").isEqualTo(JobStatus.RUNNING);
                assertThat(errorsWhileDown).as("the killed endpoint's errors").isPositive();
                assertThat(counter(job.getJobID(), labelB, "errors")).as("the other endpoint's errors").isZero();
                assertThat(counter(job.getJobID(), labelB, "requests")).isPositive();
                assertThat(RealServices.metrics(REPORTER, job.getJobID(), "<endpoint>", null, "insertRetries"))
                        .as("the sink's retry counter, registered").isNotEmpty();
                // A batch sent to the endpoint before it was killed and cut off mid-answer may have been
                // stored: it counts as a retry, one per INSERT in flight at the kill at most: two sink
                // subtasks with sink.max-in-flight 2 each (4 seen on a slow machine, where both slots of
                // both subtasks were busy). Every batch the killed endpoint refused went to the other
                // one at once, unretried.
                assertThat(counter(job.getJobID(), null, "insertRetries"))
                        .as("each batch went to the other endpoint at once; only batches cut off in flight retried")
                        .isLessThanOrEqualTo(2 * 2);

                // once its backoff is over, the revived endpoint takes INSERTs again and is healthy
                long before = counter(job.getJobID(), labelA, "requests");
                AtomicLong more = new AtomicLong();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                long sent = SPANS;
                while ((counter(job.getJobID(), labelA, "requests") == before || healthy(job.getJobID(), labelA) < 2)
                        && System.nanoTime() < deadline) {
                    UniqueSpans.produce(topic, 2, 2 * UniqueSpans.PER_RECORD, 100_000, new AtomicBoolean(), more);
                    sent += 2 * UniqueSpans.PER_RECORD;
                    Thread.sleep(500);
                }
                assertThat(counter(job.getJobID(), labelA, "requests")).isGreaterThan(before);
                assertThat(healthy(job.getJobID(), labelA)).as("healthy in both sink subtasks").isEqualTo(2);
                assertThat(healthy(job.getJobID(), labelB)).isEqualTo(2);
                assertThat(sent).isGreaterThan(SPANS);
            } finally {
                job.cancel().get(60, TimeUnit.SECONDS);
            }
        } finally {
            RealServices.clickHouse().execute("DROP DATABASE IF EXISTS `" + db + "`");
        }
    }

    /**
     * An INSERT whose answer is lost (the first endpoint's proxy holds it back past the request
     * timeout, after ClickHouse stored the rows) is not sent to the next endpoint at once: it is
     * retried after a backoff, with the same deduplication token, also at least once, so a table
     * that keeps a deduplication window stores each row once. Before, the timed-out INSERT went to
     * the other endpoint at once without a token, and its rows were stored twice.
     */
    @Test
    void anInsertWhoseAnswerIsLostIsRetriedAfterABackoffWithItsTokenAndStoredOnce() throws Exception {
        URI ch = URI.create(RealServices.clickHouseUrl());
        String topic = RealServices.uniqueName("it_lost_answer");
        String db = RealServices.uniqueName("it_lost_answer");
        RealServices.createTopic(topic, 1);
        int spans = 20 * UniqueSpans.PER_RECORD;
        AtomicLong acked = new AtomicLong();
        UniqueSpans.produce(topic, 1, spans, 100_000, new AtomicBoolean(), acked);
        try (FaultProxy lost = new FaultProxy(ch.getHost(), ch.getPort())) {
            lost.mode(FaultProxy.Mode.HOLD_ANSWER);
            String[] args = {
                "--signals", "traces",
                "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
                "--kafka.topics.traces", topic,
                "--kafka.group-id", db,
                "--kafka.starting-offsets", "earliest",
                "--kafka.bounded", "true",
                "--clickhouse.url", lost.url() + ", " + RealServices.clickHouseUrl(),
                "--clickhouse.database", db,
                "--dlq.topic", "",
                "--parallelism", "1",
                "--sink.batch.max-rows", Integer.toString(4 * UniqueSpans.PER_RECORD),
                "--sink.max-in-flight", "1",
                "--sink.request-timeout", "2s",
                "--sink.retry.initial-backoff", "500ms",
                "--checkpoint.interval", "1h",
                "--flink.restart-strategy.type", "none"
            };
            TributaryConfig config = TributaryConfig.fromArgs(args);
            SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
            RealServices.clickHouse().execute("ALTER TABLE `" + db + "`.otel_traces MODIFY SETTING"
                    + " non_replicated_deduplication_window = 100");
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            TributaryTopology.build(env, config);
            JobClient job = env.executeAsync("a lost answer");
            job.getJobExecutionResult().get(180, TimeUnit.SECONDS);
            assertThat(RealServices.clickHouse().query("SELECT count(), uniqExact(SpanId) FROM `" + db
                    + "`.otel_traces FORMAT TSV")).as("every span once").isEqualTo(spans + "\t" + spans + "\n");
            assertThat(RealServices.counter(REPORTER, job.getJobID(), "<cause>", "timeout", "insertRetries"))
                    .as("retried for the timeout").isPositive();
            assertThat(lost.connections()).as("the lost answers' endpoint was tried").isPositive();
        } finally {
            RealServices.clickHouse().execute("DROP DATABASE IF EXISTS `" + db + "`");
        }
    }

    /** An endpoint's counter (null: the sink's own), summed over the sink's subtasks. */
    private static long counter(JobID job, String endpoint, String name) {
        return RealServices.counter(REPORTER, job, "<endpoint>", endpoint, name);
    }

    /** How many of the sink's subtasks see the endpoint healthy. */
    private static int healthy(JobID job, String endpoint) {
        return RealServices.metrics(REPORTER, job, "<endpoint>", endpoint, "healthy").stream()
                .mapToInt(m -> ((Number) ((Gauge<?>) m).getValue()).intValue()).sum();
    }
}
