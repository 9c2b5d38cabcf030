package io.tributary.it;

import static io.tributary.testing.Otlp.kv;
import static io.tributary.testing.Otlp.str;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.tributary.TributaryJob;
import io.tributary.clickhouse.ClickHouseClient;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.kafka.DeadLetterSerializer;
import io.tributary.tables.TableEngine;
import io.tributary.topology.SchemaManager;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Records that decode but whose rows ClickHouse refuses for good (here: a CHECK constraint on the
 * table) go to the dead-letter topic with their original bytes; the rest of their batches is
 * written and the job goes on.
 */
class RefusedRowsITCase {

    @RegisterExtension
    static final MiniClusterExtension FLINK = RealServices.miniCluster(2);

    @Test
    void refusedRecordsBecomeDeadLettersAndTheRestIsWritten() throws Exception {
        String topic = RealServices.uniqueName("it_refused");
        String dlq = RealServices.uniqueName("it_refused_dlq");
        String db = RealServices.uniqueName("it_refused");
        RealServices.createTopic(topic, 1);
        RealServices.createTopic(dlq, 1);
        List<byte[]> records = new ArrayList<>();
        List<Integer> poisoned = List.of(7, 8, 30);
        for (int r = 0; r < 40; r++) {
            records.add(record(r, poisoned.contains(r)).toByteArray());
        }
        RealServices.produce(topic, records);

        TributaryConfig config = TributaryConfig.fromArgs(new String[] {
            "--signals", "traces",
            "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
            "--kafka.topics.traces", topic,
            "--kafka.group-id", db,
            "--kafka.bounded", "true",
            "--kafka.starting-offsets", "earliest",
            "--dlq.topic", dlq,
            "--parallelism", "1",
            "--clickhouse.url", RealServices.clickHouseUrl(),
            "--clickhouse.database", db,
            "--sink.batch.max-rows", "100000",
            "--checkpoint.interval", "1h"
        });
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
        ClickHouseClient ch = RealServices.clickHouse();
        ch.execute("ALTER TABLE `" + db + "`.otel_traces ADD CONSTRAINT no_poison CHECK SpanName != 'poison'");
        try {
            TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), config);

            // all 40 records were one batch: every record but the three poisoned ones is written
            assertThat(ch.query("SELECT count(), uniqExact(SpanAttributes['record']) FROM `" + db
                    + "`.otel_traces FORMAT TSV").strip()).isEqualTo((37 * 10) + "\t37");
            assertThat(ch.query("SELECT count() FROM `" + db + "`.otel_traces WHERE SpanAttributes['record'] IN ('7', '8', '30')"
                    + " FORMAT TSV").strip()).isEqualTo("0");
            List<ConsumerRecord<byte[], byte[]>> letters = RealServices.consumeAll(dlq);
            assertThat(letters).as("one letter per refused record").hasSize(3);
            Map<Long, ConsumerRecord<byte[], byte[]>> byOffset = new HashMap<>();
            for (ConsumerRecord<byte[], byte[]> l : letters) {
                String offset = new String(l.headers().lastHeader(DeadLetterSerializer.SOURCE_OFFSET).value(), StandardCharsets.UTF_8);
                byOffset.put(Long.parseLong(offset), l);
                assertThat(new String(l.headers().lastHeader(DeadLetterSerializer.ERROR_MESSAGE).value(), StandardCharsets.UTF_8))
                        .contains("VIOLATED_CONSTRAINT").contains("no_poison");
                assertThat(new String(l.headers().lastHeader(DeadLetterSerializer.SOURCE_TOPIC).value(), StandardCharsets.UTF_8))
                        .isEqualTo(topic);
            }
            assertThat(byOffset).containsOnlyKeys(7L, 8L, 30L);
            for (long o : byOffset.keySet()) {
                assertThat(byOffset.get(o).value()).isEqualTo(records.get((int) o));
            }
        } finally {
            ch.execute("DROP DATABASE IF EXISTS `" + db + "`");
        }
    }

    private static ExportTraceServiceRequest record(int r, boolean poisoned) {
        ScopeSpans.Builder ss = ScopeSpans.newBuilder();
        for (int i = 0; i < 10; i++) {
            ss.addSpans(Span.newBuilder()
                    .setTraceId(ByteString.copyFrom(new byte[] {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, (byte) r}))
                    .setSpanId(ByteString.copyFrom(new byte[] {2, 2, 2, 2, 2, 2, (byte) r, (byte) (i + 1)}))
                    .setName(poisoned && i == 5 ? "poison" : "fine")
                    .addAttributes(kv("record", str(Integer.toString(r)))));
        }
        return ExportTraceServiceRequest.newBuilder()
                .addResourceSpans(ResourceSpans.newBuilder()
                        .setResource(Resource.newBuilder().addAttributes(kv("service.name", str("refused"))))
                        .addScopeSpans(ss))
                .build();
    }
}
