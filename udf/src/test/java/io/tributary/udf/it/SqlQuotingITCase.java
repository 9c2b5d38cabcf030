package io.tributary.udf.it;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.schema.TableEngine;
import io.tributary.testing.RealServices;
import io.tributary.topology.SchemaManager;

import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code sql/flink/span_metrics.sql} run with a consumer group id holding a quote, double quotes,
 * a backslash, a line break and a comment start, and its topic given as a regex with a quote and a
 * backslash, on the real Kafka and ClickHouse: the script plans, reads exactly that topic, and
 * starts where that group's committed offset says (a group id changed on its way into the DDL
 * would have no offset, and the script would read from the earliest).
 */
class SqlQuotingITCase {

    private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SqlTesting.miniCluster(REPORTER);

    private static final long T0 = 1_767_261_600_000_000_000L; // 2026-01-01 10:00:00 UTC, a minute's start
    private static final int SPANS = 30;
    private static final int COMMITTED = 12;

    @Test
    void aGroupIdAndATopicPatternWithQuotesBackslashesAndLineBreaksReadThatTopicFromThatGroupsOffset() throws Exception {
        String topic = RealServices.uniqueName("it_sqlquote");
        String db = RealServices.uniqueName("it_sqlquote");
        String group = "it's \"quoted\" \\ " + db + "\n-- second line;";
        String pattern = "^" + topic + "(?:'s|\\.eu)?$";
        RealServices.createTopic(topic, 1);
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < SPANS; i++) {
            records.add(request(i).toByteArray());
        }
        RealServices.produce(topic, records);
        // the script's group (the script adds "-span-metrics") has read the first records already
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, RealServices.kafkaBootstrap());
        try (Admin admin = Admin.create(p)) {
            admin.alterConsumerGroupOffsets(group + "-span-metrics",
                    Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(COMMITTED))).all().get();
        }
        String[] keys = {
            "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
            "--kafka.topics.traces", pattern,
            "--kafka.topics.logs", "", "--kafka.topics.metrics", "",
            "--kafka.group-id", group,
            "--kafka.bounded", "true",
            "--kafka.starting-offsets", "committed",
            "--clickhouse.url", RealServices.clickHouseUrl(),
            "--clickhouse.database", db
        };
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()),
                TributaryConfig.fromArgs(RealServices.concat(keys, "--signals", "metrics", "--kafka.topics.metrics", "unused_" + topic)),
                TableEngine.MERGE_TREE, null);
        try {
            io.tributary.sql.SqlRunner.run(RealServices.concat(new String[] {"../sql/flink/span_metrics.sql"},
                    RealServices.concat(keys, "--flink.restart-strategy.type", "none")));
            assertThat(RealServices.clickHouse().query("SELECT sum(Value), any(ServiceName), count() FROM " + db
                    + ".otel_metrics_sum WHERE MetricName = 'traces.span.metrics.calls' FORMAT TSV").strip())
                    .isEqualTo((SPANS - COMMITTED) + "\tquoted\t1");
            assertThat(RealServices.clickHouse().query("SELECT sum(Count) FROM " + db + ".otel_metrics_histogram FORMAT TSV").strip())
                    .isEqualTo(Integer.toString(SPANS - COMMITTED));
        } finally {
            RealServices.clickHouse().execute("DROP DATABASE IF EXISTS " + db);
        }
    }

    /** One span of the service "quoted", {@code i} seconds into the minute. */
    private static ExportTraceServiceRequest request(int i) {
        long start = T0 + i * 1_000_000_000L;
        Span span = Span.newBuilder()
                .setTraceId(ByteString.copyFrom(ByteBuffer.allocate(16).putLong(9).putLong(i + 1).array()))
                .setSpanId(ByteString.copyFrom(ByteBuffer.allocate(8).putLong(i + 1).array()))
                .setName("op")
                .setKind(Span.SpanKind.SPAN_KIND_SERVER)
                .setStartTimeUnixNano(start)
                .setEndTimeUnixNano(start + 1_000_000)
                .build();
        Resource resource = Resource.newBuilder().addAttributes(KeyValue.newBuilder().setKey("service.name")
                .setValue(AnyValue.newBuilder().setStringValue("quoted"))).build();
        return ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder().setResource(resource)
                .addScopeSpans(ScopeSpans.newBuilder().addSpans(span))).build();
    }
}
