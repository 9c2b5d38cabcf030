package io.tributary.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.deadletter.DeadLetterSerializer;
import io.tributary.schema.TableEngine;
import io.tributary.testing.RealServices;
import io.tributary.topology.SchemaManager;
import io.tributary.topology.TributaryTopology;

import com.google.protobuf.ByteString;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code kafka.topics.<signal>} as a list and as a {@code ^regex}: every listed topic is read, a
 * topic the regex selects that is created while the job runs is found and read, each row comes
 * from the topic its signal reads, and the per-topic metrics and dead letters keep the topic.
 */
class TopicListsITCase {

    static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension FLINK = RealServices.miniCluster(2, REPORTER);

    private static KeyValue service(String name) {
        return KeyValue.newBuilder().setKey("service.name").setValue(AnyValue.newBuilder().setStringValue(name)).build();
    }

    /** {@code n} spans of service {@code name}, ids from {@code first}. */
    private static byte[] spans(String name, int first, int n) {
        ScopeSpans.Builder scope = ScopeSpans.newBuilder();
        for (int i = first; i < first + n; i++) {
            scope.addSpans(Span.newBuilder().setName("op").setStartTimeUnixNano(1_764_460_800_000_000_000L + i)
                    .setEndTimeUnixNano(1_764_460_800_001_000_000L + i)
                    .setTraceId(ByteString.copyFrom(ByteBuffer.allocate(16).putLong(8, i).array()))
                    .setSpanId(ByteString.copyFrom(ByteBuffer.allocate(8).putLong(i).array())));
        }
        return ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                .setResource(Resource.newBuilder().addAttributes(service(name))).addScopeSpans(scope)).build().toByteArray();
    }

    private static byte[] logs(String name, int n) {
        ScopeLogs.Builder scope = ScopeLogs.newBuilder();
        for (int i = 0; i < n; i++) {
            scope.addLogRecords(LogRecord.newBuilder().setTimeUnixNano(1_764_460_800_000_000_000L + i)
                    .setBody(AnyValue.newBuilder().setStringValue(name + " line " + i)));
        }
        return ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
                .setResource(Resource.newBuilder().addAttributes(service(name))).addScopeLogs(scope)).build().toByteArray();
    }

    @Test
    void listsAndRegexesReadEveryTopicTheySelectIncludingOnesCreatedLater() throws Exception {
        String prefix = RealServices.uniqueName("it_topics");
        String spansA = prefix + "_spans_a";
        String spansB = prefix + "_spans_b";
        String logs1 = prefix + "_logs_1";
        String logs2 = prefix + "_logs_2";
        String notRead = "x" + prefix + "_logs_3"; // the regex is anchored: not selected
        String dlq = prefix + "_dlq";
        String db = prefix;
        for (String t : List.of(spansA, spansB, logs1, notRead, dlq)) {
            RealServices.createTopic(t, 1);
        }
        RealServices.produce(spansA, List.of(spans("svc-a", 0, 10), spans("svc-a", 10, 10)));
        RealServices.produce(spansB, List.of(spans("svc-b", 100, 5)));
        RealServices.produce(logs1, List.of(logs("logs-1", 7)));
        RealServices.produce(notRead, List.of(logs("logs-3", 4)));
        TributaryConfig config = TributaryConfig.fromArgs(new String[] {
            "--signals", "traces,logs",
            "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
            "--kafka.topics.traces", spansA + ", " + spansB,
            "--kafka.topics.logs", "^" + prefix + "_logs_",
            "--kafka.group-id", db,
            "--kafka.starting-offsets", "earliest",
            "--kafka.properties.partition.discovery.interval.ms", "500",
            "--clickhouse.url", RealServices.clickHouseUrl(),
            "--clickhouse.database", db,
            "--dlq.topic", dlq,
            "--sink.batch.max-age", "200ms",
            "--checkpoint.interval", "1s",
            "--flink.restart-strategy.type", "none"
        });
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        TributaryTopology.build(env, config);
        JobClient job = env.executeAsync("topic lists");
        try {
            RealServices.awaitCount(db, "otel_traces", 25, 60);
            RealServices.awaitCount(db, "otel_logs", 7, 60);
            // a topic the regex selects, created while the job runs, with a record that cannot be decoded
            RealServices.createTopic(logs2, 1);
            RealServices.produce(logs2, List.of(logs("logs-2", 3), new byte[] {0x0a, 0x7f, 0x01}));
            RealServices.awaitCount(db, "otel_logs", 10, 60);
            Thread.sleep(1_500); // anything wrongly read from the unselected topic would be in by now
            assertThat(RealServices.clickHouse().query("SELECT ServiceName, count(), uniqExact(SpanId) FROM `" + db
                    + "`.otel_traces GROUP BY ServiceName ORDER BY ServiceName FORMAT TSV"))
                    .isEqualTo("svc-a\t20\t20\nsvc-b\t5\t5\n");
            assertThat(RealServices.clickHouse().query("SELECT ServiceName, count(), countIf(startsWith(Body, ServiceName))"
                    + " FROM `" + db + "`.otel_logs GROUP BY ServiceName ORDER BY ServiceName FORMAT TSV"))
                    .isEqualTo("logs-1\t7\t7\nlogs-2\t3\t3\n");
            // the dead letter names the topic it came from
            List<ConsumerRecord<byte[], byte[]>> dead = RealServices.consumeAll(dlq);
            assertThat(dead).hasSize(1);
            assertThat(new String(dead.get(0).headers().lastHeader(DeadLetterSerializer.SOURCE_TOPIC).value(),
                    StandardCharsets.UTF_8)).isEqualTo(logs2);
            // and so do the metrics
            JobID id = job.getJobID();
            assertThat(topicCounter(id, spansA, "recordsRead")).isEqualTo(2);
            assertThat(topicCounter(id, spansB, "recordsRead")).isEqualTo(1);
            assertThat(topicCounter(id, logs1, "recordsRead")).isEqualTo(1);
            assertThat(topicCounter(id, logs2, "recordsRead")).isEqualTo(2);
            assertThat(topicCounter(id, logs2, "decodeFailures")).isEqualTo(1);
            assertThat(topicCounter(id, logs1, "decodeFailures")).isZero();
            assertThat(topicCounter(id, notRead, "recordsRead")).isZero();
        } finally {
            job.cancel().get(60, TimeUnit.SECONDS);
            RealServices.clickHouse().execute("DROP DATABASE IF EXISTS `" + db + "`");
        }
    }

    private static long topicCounter(JobID job, String topic, String name) {
        return RealServices.counter(REPORTER, job, "<topic>", topic, name);
    }
}
