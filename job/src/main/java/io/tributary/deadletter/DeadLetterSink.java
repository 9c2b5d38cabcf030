package io.tributary.deadletter;

import io.tributary.kafka.KafkaConnection;
import io.tributary.kafka.SourceRecord;

import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.metrics.Counter;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Writes {@link DeadLetter}s to the dead-letter topic, at least once: every letter sent is
 * acknowledged before {@link CommittingSinkWriter#flush} returns, which Flink calls before the
 * checkpoint barrier passes the sink, so a record's offset is never committed before its letter
 * is stored. A letter the broker refuses as too large ({@code MESSAGE_TOO_LARGE}, whatever the
 * job believed the topic's limit to be) is sent again without its value, and a header says why
 * ({@link DeadLetterSerializer#resend}); any other send error fails the job, as Flink's {@code
 * KafkaSink} did, whose per-record errors cannot be handled.
 *
 * <p>State compatibility: releases up to 0.1 wrote dead letters with Flink's {@code KafkaSink}
 * under the same uid. Its writer kept an (empty) list state, which this writer does not read; its
 * committer's state lives under the derived uid {@code "Sink Committer: <uid>"}, which a job
 * without that operator could only restore by dropping state. So this sink keeps a committer
 * too, with nothing to commit: the old savepoints (at least once, no committables in them) and
 * this release's restore alike. Never remove it.
 *
 * <p>Threading: {@link #createWriter} makes one producer per subtask; the producer's callbacks
 * (its I/O thread) only queue refused letters and record failures, which the task thread acts on
 * in {@code write} and {@code flush}.
 */
public final class DeadLetterSink implements Sink<DeadLetter>, SupportsCommitter<Void> {
    private static final long serialVersionUID = 1L;

    private final String topic;
    private final KafkaConnection cluster;
    private final boolean readTopicLimit;

    /**
     * @param topic the dead-letter topic
     * @param cluster the cluster it is on
     */
    public DeadLetterSink(String topic, KafkaConnection cluster) {
        this(topic, cluster, true);
    }

    /**
     * @param readTopicLimit false leaves the topic's size limit unknown, as when {@code
     *     describeConfigs} is denied: for the tests of the refused-for-size path
     */
    DeadLetterSink(String topic, KafkaConnection cluster, boolean readTopicLimit) {
        this.topic = topic;
        this.cluster = cluster;
        this.readTopicLimit = readTopicLimit;
    }

    @Override
    public Writer createWriter(WriterInitContext context) throws IOException {
        DeadLetterSerializer serializer =
                new DeadLetterSerializer(topic, cluster.bootstrapServers(), cluster.properties());
        if (readTopicLimit) {
            serializer.open();
        }
        return new Writer(serializer, producer(cluster), context.metricGroup().getNumRecordsSendCounter(),
                context.metricGroup().getNumRecordsSendErrorsCounter());
    }

    /** The dead-letter producer: the cluster's client properties, room for large letters, all replicas acknowledge. */
    static KafkaProducer<byte[], byte[]> producer(KafkaConnection cluster) {
        Properties p = DeadLetterSerializer.producerProperties(cluster.properties());
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        p.remove(ProducerConfig.CLIENT_ID_CONFIG);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.ACKS_CONFIG, "all"); // a letter stands for a record whose offset moves on
        return new KafkaProducer<>(p);
    }

    @Override
    public Committer<Void> createCommitter(CommitterInitContext context) {
        return new Committer<>() {
            @Override
            public void commit(Collection<CommitRequest<Void>> requests) {
                // every letter was acknowledged in flush: nothing is left to commit
            }

            @Override
            public void close() {}
        };
    }

    @Override
    public SimpleVersionedSerializer<Void> getCommittableSerializer() {
        return NoCommittables.INSTANCE;
    }

    /**
     * The serializer of committables that never exist. The committer state of the old {@code
     * KafkaSink} held none at least once, so restoring it never calls {@link #deserialize}.
     */
    static final class NoCommittables implements SimpleVersionedSerializer<Void> {
        static final NoCommittables INSTANCE = new NoCommittables();

        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(Void v) {
            throw new IllegalStateException("the dead-letter sink has no committables");
        }

        @Override
        public Void deserialize(int version, byte[] serialized) throws IOException {
            throw new IOException("the dead-letter sink's state holds a committable (version " + version + ", "
                    + serialized.length + " bytes): written by an exactly-once Kafka sink, which no release used");
        }
    }

    /** One subtask's writer. */
    static final class Writer implements CommittingSinkWriter<DeadLetter, Void> {
        private static final Logger LOG = LoggerFactory.getLogger(Writer.class);

        /** A letter the topic refused for its size, to send again from the task thread. */
        private record Refused(DeadLetter letter, int refusals, Exception answer) {}

        private final DeadLetterSerializer serializer;
        private final Producer<byte[], byte[]> producer;
        private final Counter sent;
        private final Counter errors;
        private final Queue<Refused> refused = new ConcurrentLinkedQueue<>();
        private final AtomicReference<Exception> failure = new AtomicReference<>();

        Writer(DeadLetterSerializer serializer, Producer<byte[], byte[]> producer, Counter sent, Counter errors) {
            this.serializer = serializer;
            this.producer = producer;
            this.sent = sent;
            this.errors = errors;
        }

        @Override
        public void write(DeadLetter letter, Context context) throws IOException {
            checkFailure();
            resendRefused();
            send(serializer.serialize(letter), letter, 0);
        }

        private void send(ProducerRecord<byte[], byte[]> record, DeadLetter letter, int refusals) {
            producer.send(record, (metadata, e) -> {
                if (e == null) {
                    sent.inc();
                } else if (refusals < DeadLetterSerializer.MAX_RESENDS && DeadLetterSerializer.refusedForSize(e)) {
                    refused.add(new Refused(letter, refusals + 1, e));
                } else {
                    errors.inc();
                    failure.compareAndSet(null, e);
                }
            });
        }

        private void resendRefused() {
            for (Refused r = refused.poll(); r != null; r = refused.poll()) {
                SourceRecord s = r.letter().record;
                LOG.warn("Dead letter of {} refused by the dead-letter topic as too large ({}): sending it again without {}",
                        s.coordinates(), r.answer().getMessage(), r.refusals() == 1 ? "its value" : "its value, key and headers");
                send(serializer.resend(r.letter(), r.refusals(), r.answer()), r.letter(), r.refusals());
            }
        }

        /** Waits until every letter is stored, letters refused for size sent again without their value. */
        @Override
        public void flush(boolean endOfInput) throws IOException {
            while (true) {
                producer.flush(); // returns once every callback of what was sent has run
                checkFailure();
                if (refused.isEmpty()) {
                    return;
                }
                resendRefused();
            }
        }

        private void checkFailure() throws IOException {
            Exception e = failure.get();
            if (e != null) {
                throw new IOException("cannot write a dead letter: " + e, e);
            }
        }

        @Override
        public Collection<Void> prepareCommit() {
            return List.of();
        }

        @Override
        public void close() {
            producer.close(Duration.ofSeconds(30));
        }
    }
}
