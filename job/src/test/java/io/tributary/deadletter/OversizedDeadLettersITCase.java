package io.tributary.deadletter;

import static org.assertj.core.api.Assertions.assertThat;

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
import io.tributary.deadletter.DeadLetterSerializer;
import io.tributary.deadletter.DeadLetterSink;
import io.tributary.deadletter.RefusedRecords;
import io.tributary.kafka.KafkaConnection;
import io.tributary.schema.TableEngine;
import io.tributary.testing.RealServices;
import io.tributary.topology.SchemaManager;
import io.tributary.topology.TributaryTopology;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Issue 17, item 6, on the real broker: a dead-letter topic created with Kafka's usual {@code
 * max.message.bytes} of 1 MiB, while the job does not know that limit (as when a producer-only
 * ACL denies {@code describeConfigs}: the package-private constructors leave the limit unread, the
 * broker's refusal is real). A letter carrying an undecodable 2 MiB record is refused by the broker
 * as too large; it arrives once, its value left out and a header saying why, and the bounded run
 * ends OK. The same for a record ClickHouse refused, through {@link RefusedRecords}; and a letter
 * still too large without its value (a 2 MiB key) goes without key and headers.
 *
 * <p>Before, Flink's {@code KafkaSink} failed the job on the refusal, and the restarted job met the
 * same record again: the run never ended.
 */
class OversizedDeadLettersITCase {

    @RegisterExtension
    static final MiniClusterExtension FLINK = RealServices.miniCluster(2);

    private static final int TOPIC_LIMIT = 1 << 20;
    private static final int BIG = 2 << 20;
    private static final String REFUSED_FOR_SIZE = "left out: the dead-letter topic refused the letter as too large"
            + " (RecordTooLargeException: ";

    /** Random bytes (lz4 cannot shrink them under the limit) that are neither protobuf nor JSON. */
    private static byte[] undecodable(int n) {
        byte[] b = new byte[n];
        new SplittableRandom(6).nextBytes(b);
        b[0] = (byte) 0xFF; // field 31, wire type 7: no such wire type
        return b;
    }

    private static void createTopic(String topic, int maxMessageBytes) throws Exception {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, RealServices.kafkaBootstrap());
        try (Admin admin = Admin.create(p)) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1)
                    .configs(Map.of("max.message.bytes", Integer.toString(maxMessageBytes))))).all().get();
        }
    }

    /** Sends the records to partition 0 with the keys and an "origin" header; returns their offsets. */
    private static List<Long> produce(String topic, List<byte[]> keys, List<byte[]> values) throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, RealServices.kafkaBootstrap());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(16 << 20));
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        List<Long> offsets = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (int i = 0; i < values.size(); i++) {
                ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(topic, 0, keys.get(i), values.get(i));
                r.headers().add(new RecordHeader("origin", ("record " + i).getBytes(StandardCharsets.UTF_8)));
                RecordMetadata md = producer.send(r).get();
                offsets.add(md.offset());
            }
        }
        return offsets;
    }

    private static Map<String, String> headers(ConsumerRecord<byte[], byte[]> r) {
        Map<String, String> h = new HashMap<>();
        r.headers().forEach(x -> h.put(x.key(), new String(x.value(), StandardCharsets.UTF_8)));
        return h;
    }

    private static byte[] spans(String name, int n) {
        ScopeSpans.Builder ss = ScopeSpans.newBuilder();
        for (int i = 0; i < n; i++) {
            ss.addSpans(Span.newBuilder().setName(name).setStartTimeUnixNano(1_764_460_800_000_000_000L + i)
                    .setSpanId(ByteString.copyFrom(new byte[] {1, 2, 3, 4, 5, 6, 7, (byte) i})));
        }
        return ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                .setResource(Resource.newBuilder().addAttributes(KeyValue.newBuilder().setKey("service.name")
                        .setValue(AnyValue.newBuilder().setStringValue("dlq-size"))))
                .addScopeSpans(ss)).build().toByteArray();
    }

    @Test
    void aLetterTheTopicRefusesAsTooLargeArrivesOnceWithoutItsValueAndTheRunEnds() throws Exception {
        String topic = RealServices.uniqueName("it_dlqsize_spans");
        String dlq = RealServices.uniqueName("it_dlqsize_dlq");
        String db = RealServices.uniqueName("it_dlqsize");
        createTopic(topic, 8 << 20);
        createTopic(dlq, TOPIC_LIMIT);
        byte[] key = "the-key".getBytes(StandardCharsets.UTF_8);
        byte[] bad = undecodable(BIG);
        List<Long> offsets = produce(topic, java.util.Arrays.asList(null, key, null),
                List.of(spans("before", 5), bad, spans("after", 7)));

        TributaryConfig config = TributaryConfig.fromArgs(RealServices.boundedTraces(topic, dlq, db,
                "--checkpoint.interval", "1s", "--sink.batch.max-age", "300ms"));
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
        try {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            TributaryTopology.build(env, config, TributaryTopology.kafkaSource(config), TributaryTopology.clickHouseSink(config),
                    new DeadLetterSink(dlq, config.deadLetterKafka(), false));
            JobClient job = env.executeAsync("oversized dead letters");
            try {
                // ends, and without a failure (a failed run throws here; one that restarts forever times out)
                job.getJobExecutionResult().get(150, TimeUnit.SECONDS);
            } finally {
                if (!job.getJobStatus().get().isGloballyTerminalState()) {
                    job.cancel().get(60, TimeUnit.SECONDS);
                }
            }

            assertThat(RealServices.clickHouse().query("SELECT SpanName, count() FROM `" + db + "`.otel_traces"
                    + " GROUP BY SpanName ORDER BY SpanName FORMAT TSV").strip()).isEqualTo("after\t7\nbefore\t5");
            List<ConsumerRecord<byte[], byte[]>> letters = RealServices.consumeAll(dlq);
            assertThat(letters).as("one letter").hasSize(1);
            ConsumerRecord<byte[], byte[]> letter = letters.get(0);
            Map<String, String> h = headers(letter);
            assertThat(letter.value()).isEmpty();
            assertThat(h.get(DeadLetterSerializer.VALUE_OMITTED)).startsWith(BIG + " bytes, " + REFUSED_FOR_SIZE);
            assertThat(letter.key()).as("the original key").isEqualTo(key);
            assertThat(h.get("origin")).as("the original headers").isEqualTo("record 1");
            assertThat(h.get(DeadLetterSerializer.SOURCE_TOPIC)).isEqualTo(topic);
            assertThat(h.get(DeadLetterSerializer.SOURCE_OFFSET)).isEqualTo(Long.toString(offsets.get(1)));
            assertThat(h.get(DeadLetterSerializer.ERROR_MESSAGE)).startsWith("invalid OTLP protobuf");
        } finally {
            RealServices.dropDatabases(db);
        }
    }

    /**
     * {@link RefusedRecords} (rows ClickHouse refused) on the same topic: the 2 MiB record's letter
     * goes without its value; a letter with a 2 MiB key, refused again without its value, goes
     * without key and headers; a small one as it is.
     */
    @Test
    void refusedRowsLettersTheTopicRefusesAsTooLargeGoWithoutTheirValue() throws Exception {
        String topic = RealServices.uniqueName("it_dlqsize_refused");
        String dlq = RealServices.uniqueName("it_dlqsize_dlq");
        createTopic(topic, 8 << 20);
        createTopic(dlq, TOPIC_LIMIT);
        byte[] bigKey = undecodable(BIG);
        List<Long> offsets = produce(topic, java.util.Arrays.asList("k0".getBytes(StandardCharsets.UTF_8), bigKey,
                "k2".getBytes(StandardCharsets.UTF_8)), List.of(undecodable(BIG), spans("small", 1), spans("fits", 1)));
        KafkaConnection kafka = KafkaConnection.plain(RealServices.kafkaBootstrap(), Map.of());
        try (RefusedRecords refused = new RefusedRecords(kafka, kafka, dlq, false)) {
            for (int i = 0; i < 3; i++) {
                assertThat(refused.send(topic, 0, offsets.get(i),
                        new IllegalArgumentException("Code: 469. DB::Exception: Constraint `poison` is violated"))).isTrue();
            }
        }
        List<ConsumerRecord<byte[], byte[]>> letters = RealServices.consumeAll(dlq);
        assertThat(letters).hasSize(3);
        for (int i = 0; i < 3; i++) {
            Map<String, String> h = headers(letters.get(i));
            assertThat(h.get(DeadLetterSerializer.SOURCE_OFFSET)).isEqualTo(Long.toString(offsets.get(i)));
            assertThat(h.get(DeadLetterSerializer.ERROR_MESSAGE)).isEqualTo("Code: 469. DB::Exception: Constraint `poison` is violated");
        }
        assertThat(letters.get(0).value()).isEmpty();
        assertThat(letters.get(0).key()).isEqualTo("k0".getBytes(StandardCharsets.UTF_8));
        assertThat(headers(letters.get(0)).get(DeadLetterSerializer.VALUE_OMITTED)).startsWith(BIG + " bytes, " + REFUSED_FOR_SIZE);
        assertThat(headers(letters.get(0)).get("origin")).isEqualTo("record 0");

        assertThat(letters.get(1).value()).isEmpty();
        assertThat(letters.get(1).key()).as("the key left out too").isNull();
        assertThat(headers(letters.get(1))).doesNotContainKey("origin");
        assertThat(headers(letters.get(1)).get(DeadLetterSerializer.VALUE_OMITTED))
                .startsWith(spans("small", 1).length + " bytes, and the record's key and headers, " + REFUSED_FOR_SIZE);

        assertThat(letters.get(2).value()).isEqualTo(spans("fits", 1));
        assertThat(headers(letters.get(2))).doesNotContainKey(DeadLetterSerializer.VALUE_OMITTED).containsEntry("origin", "record 2");
    }
}
