package io.tributary.deadletter;

import io.tributary.kafka.KafkaConnection;
import io.tributary.kafka.SourceRecord;
import io.tributary.kafka.SourceRecordDeserializer;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;

/**
 * Dead letters for records whose rows ClickHouse refused for good. The sink keeps only where a
 * record came from, so the original is read back from Kafka by topic, partition and offset and
 * written to the dead-letter topic as the decode operator's dead letters are; one the topic refuses
 * as too large is sent again without its value, as {@link DeadLetterSink} does. Rare; thread-safe.
 */
public final class RefusedRecords implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RefusedRecords.class);
    private static final Duration FETCH_TIMEOUT = Duration.ofSeconds(60);

    private final KafkaConnection source;
    private final KafkaConnection deadLetters;
    private final String topic;
    private final boolean readTopicLimit;
    private final Set<String> sent = new HashSet<>();
    private DeadLetterSerializer serializer;
    private KafkaConsumer<byte[], byte[]> consumer;
    private KafkaProducer<byte[], byte[]> producer;

    /**
     * @param source the cluster the records are read back from
     * @param deadLetters the cluster of the dead-letter topic
     * @param topic the dead-letter topic; empty: log and drop
     */
    public RefusedRecords(KafkaConnection source, KafkaConnection deadLetters, String topic) {
        this(source, deadLetters, topic, true);
    }

    /**
     * @param readTopicLimit false leaves the topic's size limit unknown, as when {@code
     *     describeConfigs} is denied: for the tests of the refused-for-size path
     */
    RefusedRecords(KafkaConnection source, KafkaConnection deadLetters, String topic, boolean readTopicLimit) {
        this.source = source;
        this.deadLetters = deadLetters;
        this.topic = topic;
        this.readTopicLimit = readTopicLimit;
    }

    /**
     * Writes the record at these coordinates to the dead-letter topic, once: a record whose rows
     * several tables refused (metrics) gets one letter until {@link #forget}. With no topic, logs.
     *
     * @return true when a letter was written now
     */
    public synchronized boolean send(String sourceTopic, int partition, long offset, Throwable error)
            throws IOException, InterruptedException {
        String where = sourceTopic + "-" + partition + "@" + offset;
        if (topic.isEmpty()) {
            LOG.warn("Dropping record {} (dlq.topic is empty): ClickHouse refused its rows: {}", where, error.getMessage());
            return false;
        }
        if (!sent.add(where)) {
            return false;
        }
        SourceRecord record = fetch(sourceTopic, partition, offset);
        DeadLetter d = new DeadLetter(record, error, System.currentTimeMillis());
        ProducerRecord<byte[], byte[]> letter = serializer().serialize(d);
        for (int refusals = 0; ; refusals++) {
            try {
                producer().send(letter).get();
                break;
            } catch (ExecutionException e) {
                if (refusals < DeadLetterSerializer.MAX_RESENDS && DeadLetterSerializer.refusedForSize(e.getCause())) {
                    LOG.warn("Dead letter of {} refused by {} as too large ({}): sending it again without its value",
                            where, topic, e.getCause().getMessage());
                    letter = serializer().resend(d, refusals + 1, e.getCause());
                    continue;
                }
                sent.remove(where);
                throw new IOException("cannot write dead letter for " + where + " to " + topic + ": " + e.getCause(), e.getCause());
            }
        }
        LOG.warn("Record {} sent to {}: ClickHouse refused its rows: {}", where, topic, error.getMessage());
        return true;
    }

    /** Forgets which records got letters: called once they are safe (the checkpoint barrier passes). */
    public synchronized void forget() {
        sent.clear();
    }

    private DeadLetterSerializer serializer() throws IOException {
        if (serializer == null) {
            DeadLetterSerializer s = new DeadLetterSerializer(topic, deadLetters.bootstrapServers(), deadLetters.properties());
            if (readTopicLimit) {
                s.open();
            }
            serializer = s;
        }
        return serializer;
    }

    private SourceRecord fetch(String sourceTopic, int partition, long offset) throws IOException {
        TopicPartition tp = new TopicPartition(sourceTopic, partition);
        KafkaConsumer<byte[], byte[]> c = consumer();
        c.assign(List.of(tp));
        c.seek(tp, offset);
        long deadline = System.nanoTime() + FETCH_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            List<ConsumerRecord<byte[], byte[]>> polled;
            try {
                polled = c.poll(Duration.ofMillis(500)).records(tp);
            } catch (OffsetOutOfRangeException e) {
                return gone(sourceTopic, partition, offset);
            }
            for (ConsumerRecord<byte[], byte[]> r : polled) {
                if (r.offset() == offset) {
                    return SourceRecordDeserializer.of(r);
                }
                if (r.offset() > offset) {
                    return gone(sourceTopic, partition, offset);
                }
            }
        }
        throw new IOException("could not read back record " + tp + "@" + offset + " within " + FETCH_TIMEOUT);
    }

    /**
     * A letter for a record no longer in Kafka (retention or compaction; e.g. an exactly-once
     * batch restored from an old savepoint): its coordinates, no value, and a header saying why.
     * Failing instead would fail every restore of the checkpoint that holds its batch.
     */
    private static SourceRecord gone(String sourceTopic, int partition, long offset) {
        LOG.warn("Record {}-{}@{} is gone from Kafka (retention or compaction): its dead letter has no value",
                sourceTopic, partition, offset);
        SourceRecord r = new SourceRecord(sourceTopic, partition, offset, -1, new byte[0]);
        r.headerKeys = new String[] {DeadLetterSerializer.VALUE_OMITTED};
        r.headerValues = new byte[][] {("the record is gone from Kafka (retention or compaction): it could not be read"
                + " back").getBytes(java.nio.charset.StandardCharsets.UTF_8)};
        return r;
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        if (consumer == null) {
            Properties p = source.clientProperties();
            p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
            p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
            p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
            p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "1");
            p.remove(ConsumerConfig.GROUP_ID_CONFIG);
            p.remove(ConsumerConfig.CLIENT_ID_CONFIG);
            p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none"); // a record gone must fail, not wait
            consumer = new KafkaConsumer<>(p);
        }
        return consumer;
    }

    private KafkaProducer<byte[], byte[]> producer() {
        if (producer == null) {
            producer = DeadLetterSink.producer(deadLetters);
        }
        return producer;
    }

    @Override
    public synchronized void close() {
        if (consumer != null) {
            consumer.close(Duration.ofSeconds(5));
        }
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
    }
}
