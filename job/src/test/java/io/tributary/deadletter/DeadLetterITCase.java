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
import io.tributary.TributaryJob;
import io.tributary.clickhouse.ClickHouseClient;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.deadletter.DeadLetterSerializer;
import io.tributary.otlp.json.OtlpJsonWriter;
import io.tributary.schema.TableEngine;
import io.tributary.testing.RealServices;
import io.tributary.topology.SchemaManager;

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
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The bad-input corpus on the real services: every record ends up either in ClickHouse (where the
 * collector would accept it) or in the dead-letter topic with its original bytes and the reason,
 * the job does not fail, and the good records around the bad ones on the same partitions land.
 */
class DeadLetterITCase {

    @RegisterExtension
    static final MiniClusterExtension FLINK = RealServices.miniCluster(2);

    private static final int MAX_MESSAGE = 64 << 20;

    /** A record of the corpus and where it must end up. */
    record Case(String name, byte[] value, boolean deadLetter, String reason) {}

    /** A produced record, its key, its coordinates and timestamp. */
    record Produced(Case c, byte[] key, int partition, long offset, long timestamp) {}

    @Test
    void badRecordsGoToTheDeadLetterTopicAndNothingStalls() throws Exception {
        String topic = RealServices.uniqueName("it_corpus");
        String dlq = RealServices.uniqueName("it_dlq");
        String db = RealServices.uniqueName("it_corpus");
        createTopic(topic, 2);
        createTopic(dlq, 1);

        List<Case> corpus = new ArrayList<>();
        int good = 0;
        byte[] valid = spans("good-0", 10, 0).toByteArray();
        corpus.add(new Case("truncated protobuf", Arrays.copyOf(valid, valid.length - 7), true, "invalid OTLP protobuf"));
        byte[] flipped = valid.clone();
        flipped[0] = (byte) (flipped[0] | 0x07); // field 1 with wire type 7, which does not exist
        corpus.add(new Case("bit-flipped protobuf", flipped, true, "invalid wire type"));
        corpus.add(new Case("invalid JSON", "{\"resourceSpans\":[{\"scopeSpans\":".getBytes(StandardCharsets.UTF_8),
                true, "invalid OTLP/JSON"));
        corpus.add(new Case("a field of the wrong type",
                "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"name\":5}]}]}]}".getBytes(StandardCharsets.UTF_8),
                true, "name"));
        ExportTraceServiceRequest shortId = spans("short-id", 1, 0);
        corpus.add(new Case("a trace id of 5 bytes", shortId.toBuilder().setResourceSpans(0, shortId.getResourceSpans(0).toBuilder()
                .setScopeSpans(0, shortId.getResourceSpans(0).getScopeSpans(0).toBuilder()
                        .setSpans(0, shortId.getResourceSpans(0).getScopeSpans(0).getSpans(0).toBuilder()
                                .setTraceId(ByteString.copyFrom(new byte[5]))))).build().toByteArray(),
                true, "traceId must be 16 bytes, got 5"));
        corpus.add(new Case("a span id of 3 hex digits in JSON",
                "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"spanId\":\"abc\"}]}]}]}".getBytes(StandardCharsets.UTF_8),
                true, "spanId"));
        corpus.add(new Case("an empty record", new byte[0], false, null));
        // accepted, as the collector accepts them
        byte[] badUtf8 = spans("utf8-@@", 1, 0).toByteArray();
        replace(badUtf8, "@@", new byte[] {(byte) 0xC3, (byte) 0x28});
        corpus.add(new Case("invalid UTF-8 in a span name", badUtf8, false, null));
        byte[] big = new byte[16 << 20];
        Arrays.fill(big, (byte) 'x');
        corpus.add(new Case("a 16 MiB attribute value", spans("big", 1, 0).toBuilder()
                .setResourceSpans(0, spans("big", 1, 0).getResourceSpans(0).toBuilder()
                        .setScopeSpans(0, spans("big", 1, 0).getResourceSpans(0).getScopeSpans(0).toBuilder()
                                .setSpans(0, spans("big", 1, 0).getResourceSpans(0).getScopeSpans(0).getSpans(0).toBuilder()
                                        .addAttributes(KeyValue.newBuilder().setKey("big")
                                                .setValue(AnyValue.newBuilder().setStringValueBytes(ByteString.copyFrom(big)))))))
                .build().toByteArray(), false, null));
        corpus.add(new Case("100,000 spans in one record", spans("many", 100_000, 0).toByteArray(), false, null));
        // larger than the producer's default buffer.memory (32 MiB), which failed the job and replayed it forever
        byte[] huge = spans("huge", 1, 0).toBuilder()
                .setResourceSpans(0, spans("huge", 1, 0).getResourceSpans(0).toBuilder()
                        .setScopeSpans(0, spans("huge", 1, 0).getResourceSpans(0).getScopeSpans(0).toBuilder()
                                .setSpans(0, spans("huge", 1, 0).getResourceSpans(0).getScopeSpans(0).getSpans(0).toBuilder()
                                        .addAttributes(KeyValue.newBuilder().setKey("huge")
                                                .setValue(AnyValue.newBuilder().setStringValueBytes(ByteString.copyFrom(new byte[40 << 20])))))))
                .build().toByteArray();
        corpus.add(new Case("a 40 MiB truncated protobuf", Arrays.copyOf(huge, huge.length - 3), true, "invalid OTLP protobuf"));

        // every bad record sits between good ones, on both partitions
        List<Case> all = new ArrayList<>();
        int goodSpans = 0;
        for (Case c : corpus) {
            for (int k = 0; k < 2; k++) {
                ExportTraceServiceRequest g = spans("good-" + good++, 20, 0);
                all.add(new Case("good", k == 0 ? g.toByteArray() : OtlpJsonWriter.write(g), false, null));
                goodSpans += 20;
            }
            all.add(c);
        }
        List<Produced> produced = produce(topic, all);

        TributaryConfig config = TributaryConfig.fromArgs(new String[] {
            "--signals", "traces",
            "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
            "--kafka.topics.traces", topic,
            "--kafka.group-id", db,
            "--kafka.bounded", "true",
            "--kafka.starting-offsets", "earliest",
            "--dlq.topic", dlq,
            "--parallelism", "2",
            "--clickhouse.url", RealServices.clickHouseUrl(),
            "--clickhouse.database", db,
            "--checkpoint.interval", "1s"
        });
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
        try {
            TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), config);

            ClickHouseClient ch = RealServices.clickHouse();
            String t = "`" + db + "`.otel_traces";
            assertThat(ch.query("SELECT count() FROM " + t + " WHERE SpanName LIKE 'good-%' FORMAT TSV").strip())
                    .isEqualTo(Integer.toString(goodSpans));
            assertThat(ch.query("SELECT count(), uniqExact(SpanId) FROM " + t + " WHERE SpanName = 'many' FORMAT TSV").strip())
                    .isEqualTo("100000\t100000");
            assertThat(ch.query("SELECT length(SpanAttributes['big']), replaceAll(SpanAttributes['big'], 'x', '') = '' FROM "
                    + t + " WHERE SpanName = 'big' FORMAT TSV").strip()).isEqualTo("16777216\t1");
            assertThat(ch.query("SELECT SpanName FROM " + t + " WHERE SpanName LIKE 'utf8-%' FORMAT TSV").strip())
                    .isEqualTo("utf8-\uFFFD(");
            assertThat(ch.query("SELECT count() FROM " + t + " FORMAT TSV").strip())
                    .isEqualTo(Integer.toString(goodSpans + 100_000 + 2));

            Map<String, Produced> expected = new HashMap<>();
            for (Produced p : produced) {
                if (p.c().deadLetter()) {
                    expected.put(p.partition() + "@" + p.offset(), p);
                }
            }
            List<ConsumerRecord<byte[], byte[]>> letters = RealServices.consumeAll(dlq);
            assertThat(letters).hasSize(expected.size());
            for (ConsumerRecord<byte[], byte[]> r : letters) {
                Map<String, String> h = new HashMap<>();
                r.headers().forEach(x -> h.put(x.key(), new String(x.value(), StandardCharsets.UTF_8)));
                assertThat(h.get(DeadLetterSerializer.SOURCE_TOPIC)).isEqualTo(topic);
                Produced p = expected.remove(h.get(DeadLetterSerializer.SOURCE_PARTITION) + "@" + h.get(DeadLetterSerializer.SOURCE_OFFSET));
                assertThat(p).as("dead letter for %s", h).isNotNull();
                assertThat(r.value()).as(p.c().name()).isEqualTo(p.c().value());
                assertThat(r.key()).as("original key").isEqualTo(p.key());
                assertThat(h.get(DeadLetterSerializer.SOURCE_TIMESTAMP)).isEqualTo(Long.toString(p.timestamp()));
                assertThat(r.timestamp()).as("the letter's time is the failure's").isGreaterThanOrEqualTo(p.timestamp());
                assertThat(h.get(DeadLetterSerializer.ERROR_MESSAGE)).as(p.c().name()).contains(p.c().reason());
                assertThat(h.get(DeadLetterSerializer.ERROR_CLASS)).as(p.c().name()).isNotBlank();
                assertThat(h.get(DeadLetterSerializer.FAILED_AT)).as(p.c().name()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
                assertThat(h.get("origin")).as("original headers are kept").isEqualTo(p.c().name());
            }
            assertThat(expected).isEmpty();
        } finally {
            RealServices.clickHouse().execute("DROP DATABASE IF EXISTS `" + db + "`");
        }
    }

    /**
     * A dead letter larger than the dead-letter topic takes keeps everything but the value, and
     * says so; the job goes on.
     */
    @Test
    void aLetterLargerThanTheTopicTakesLeavesOutTheValueAndSaysSo() throws Exception {
        String topic = RealServices.uniqueName("it_big");
        String dlq = RealServices.uniqueName("it_dlq_small");
        String db = RealServices.uniqueName("it_big");
        createTopic(topic, 2);
        Properties ap = new Properties();
        ap.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, RealServices.kafkaBootstrap());
        try (Admin admin = Admin.create(ap)) {
            admin.createTopics(List.of(new NewTopic(dlq, 1, (short) 1)
                    .configs(Map.of("max.message.bytes", Integer.toString(8 << 20))))).all().get();
        }
        byte[] bad = new byte[20 << 20];
        Arrays.fill(bad, (byte) 0xFF); // not protobuf, not JSON
        List<Produced> produced = produce(topic, List.of(
                new Case("good", spans("before", 5, 0).toByteArray(), false, null),
                new Case("20 MiB of garbage", bad, true, ""),
                new Case("good", spans("after", 5, 0).toByteArray(), false, null)));
        TributaryConfig config = TributaryConfig.fromArgs(new String[] {
            "--signals", "traces",
            "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
            "--kafka.topics.traces", topic,
            "--kafka.group-id", db,
            "--kafka.bounded", "true",
            "--kafka.starting-offsets", "earliest",
            "--dlq.topic", dlq,
            "--clickhouse.url", RealServices.clickHouseUrl(),
            "--clickhouse.database", db,
            "--checkpoint.interval", "1s"
        });
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
        try {
            TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), config);
            assertThat(RealServices.clickHouse().query("SELECT count() FROM `" + db + "`.otel_traces FORMAT TSV").strip())
                    .isEqualTo("10");
            List<ConsumerRecord<byte[], byte[]>> letters = RealServices.consumeAll(dlq);
            assertThat(letters).hasSize(1);
            ConsumerRecord<byte[], byte[]> r = letters.get(0);
            Map<String, String> h = new HashMap<>();
            r.headers().forEach(x -> h.put(x.key(), new String(x.value(), StandardCharsets.UTF_8)));
            assertThat(r.value()).isEmpty();
            assertThat(h.get(DeadLetterSerializer.VALUE_OMITTED)).startsWith((20 << 20) + " bytes, more than the "
                    + ((8 << 20) - (64 << 10)) + " a dead letter's value may have here");
            assertThat(h.get(DeadLetterSerializer.SOURCE_OFFSET)).isEqualTo(Long.toString(produced.get(1).offset()));
            assertThat(h.get(DeadLetterSerializer.ERROR_MESSAGE)).isNotBlank();
            assertThat(r.key()).isEqualTo(produced.get(1).key());
        } finally {
            RealServices.clickHouse().execute("DROP DATABASE IF EXISTS `" + db + "`");
        }
    }

    private static ExportTraceServiceRequest spans(String name, int n, int seed) {
        ScopeSpans.Builder ss = ScopeSpans.newBuilder();
        for (int i = 0; i < n; i++) {
            byte[] spanId = new byte[8];
            long id = (long) name.hashCode() << 32 | i;
            for (int b = 0; b < 8; b++) {
                spanId[b] = (byte) (id >>> (8 * b));
            }
            ss.addSpans(Span.newBuilder()
                    .setTraceId(ByteString.copyFrom(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, (byte) seed}))
                    .setSpanId(ByteString.copyFrom(spanId))
                    .setName(name).setStartTimeUnixNano(1_764_460_800_000_000_000L + i));
        }
        return ExportTraceServiceRequest.newBuilder()
                .addResourceSpans(ResourceSpans.newBuilder()
                        .setResource(Resource.newBuilder().addAttributes(KeyValue.newBuilder().setKey("service.name")
                                .setValue(AnyValue.newBuilder().setStringValue("corpus"))))
                        .addScopeSpans(ss))
                .build();
    }

    private static void replace(byte[] bytes, String marker, byte[] with) {
        byte[] m = marker.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i + m.length <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + m.length, m, 0, m.length)) {
                System.arraycopy(with, 0, bytes, i, with.length);
                return;
            }
        }
        throw new AssertionError("marker not found");
    }

    private static void createTopic(String topic, int partitions) throws Exception {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, RealServices.kafkaBootstrap());
        try (Admin admin = Admin.create(p)) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1)
                    .configs(Map.of("max.message.bytes", Integer.toString(MAX_MESSAGE))))).all().get();
        }
    }

    /** Sends the records alternately to both partitions, each with an "origin" header naming its case. */
    private static List<Produced> produce(String topic, List<Case> records) throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, RealServices.kafkaBootstrap());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(MAX_MESSAGE));
        p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Integer.toString(2 * MAX_MESSAGE));
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        List<Produced> out = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (int i = 0; i < records.size(); i++) {
                Case c = records.get(i);
                ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(topic, i % 2, ("k" + i).getBytes(StandardCharsets.UTF_8), c.value());
                r.headers().add(new RecordHeader("origin", c.name().getBytes(StandardCharsets.UTF_8)));
                RecordMetadata md = producer.send(r).get();
                out.add(new Produced(c, r.key(), md.partition(), md.offset(), md.timestamp()));
            }
        }
        return out;
    }
}
