package io.tributary.deadletter;

import io.tributary.deadletter.DeadLetter;
import io.tributary.deadletter.DeadLetterSerializer;
import io.tributary.deadletter.DeadLetterSink;
import io.tributary.kafka.KafkaConnection;
import io.tributary.kafka.SourceRecord;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.flink.metrics.SimpleCounter;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/**
 * The dead-letter writer's answers to the broker, at the producer seam (the real broker's refusal
 * is in {@code OversizedDeadLettersITCase}): a letter refused as too large goes again without its
 * value, then without key and headers; a third refusal or any other error fails the flush.
 */
class DeadLetterSinkWriterTest {

    /** A producer whose broker refuses, as MESSAGE_TOO_LARGE, records larger than {@code limit} bytes, or every record with {@code error}. */
    static final class Broker extends MockProducer<byte[], byte[]> {
        final int limit;
        final RuntimeException error;
        int refusals;

        Broker(int limit, RuntimeException error) {
            super(true, null, new ByteArraySerializer(), new ByteArraySerializer());
            this.limit = limit;
            this.error = error;
        }

        @Override
        public synchronized Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> r, Callback callback) {
            int size = (r.key() == null ? 0 : r.key().length) + (r.value() == null ? 0 : r.value().length);
            for (Header h : r.headers()) {
                size += h.key().length() + h.value().length;
            }
            RuntimeException refuse = error != null ? error : size > limit
                    ? new RecordTooLargeException("The request included a message larger than the max message size the server will accept.")
                    : null;
            if (refuse == null) {
                return super.send(r, callback);
            }
            refusals++;
            callback.onCompletion(null, refuse);
            return CompletableFuture.failedFuture(refuse);
        }
    }

    private static DeadLetter letter(byte[] key, byte[] value) {
        SourceRecord r = new SourceRecord();
        r.topic = "spans";
        r.partition = 3;
        r.offset = 42;
        r.timestamp = 1_764_460_800_000L;
        r.key = key;
        r.value = value;
        r.headerKeys = new String[] {"origin"};
        r.headerValues = new byte[][] {"producer-a".getBytes(StandardCharsets.UTF_8)};
        return new DeadLetter(r, new IllegalArgumentException("invalid OTLP protobuf: truncated"), 1_764_460_900_000L);
    }

    private static Map<String, String> headers(ProducerRecord<byte[], byte[]> r) {
        Map<String, String> h = new HashMap<>();
        r.headers().forEach(x -> h.put(x.key(), new String(x.value(), StandardCharsets.UTF_8)));
        return h;
    }

    private final SimpleCounter sent = new SimpleCounter();
    private final SimpleCounter errors = new SimpleCounter();

    private DeadLetterSink.Writer writer(Broker broker) {
        // the limit the job read is 64 MiB: it does not know the topic's
        return new DeadLetterSink.Writer(new DeadLetterSerializer("dlq", "unused:9092", Map.of()), broker, sent, errors);
    }

    @Test
    void aLetterRefusedAsTooLargeIsSentAgainWithoutItsValue() throws Exception {
        Broker broker = new Broker(1 << 20, null);
        DeadLetterSink.Writer w = writer(broker);
        byte[] key = "k".getBytes(StandardCharsets.UTF_8);
        w.write(letter(key, new byte[2 << 20]), null);
        w.write(letter(key, new byte[10]), null);
        w.flush(false);

        // the refused letter is sent again before the next one is written or the flush ends
        List<ProducerRecord<byte[], byte[]>> stored = broker.history();
        assertThat(stored).hasSize(2);
        assertThat(stored.get(1).value()).hasSize(10);
        assertThat(headers(stored.get(1))).doesNotContainKey(DeadLetterSerializer.VALUE_OMITTED);
        ProducerRecord<byte[], byte[]> resent = stored.get(0);
        assertThat(resent.value()).isEmpty();
        assertThat(resent.key()).isEqualTo(key);
        assertThat(resent.timestamp()).isEqualTo(1_764_460_900_000L);
        assertThat(headers(resent))
                .containsEntry("origin", "producer-a")
                .containsEntry(DeadLetterSerializer.ERROR_MESSAGE, "invalid OTLP protobuf: truncated")
                .containsEntry(DeadLetterSerializer.SOURCE_TOPIC, "spans")
                .containsEntry(DeadLetterSerializer.SOURCE_PARTITION, "3")
                .containsEntry(DeadLetterSerializer.SOURCE_OFFSET, "42")
                .containsEntry(DeadLetterSerializer.VALUE_OMITTED, (2 << 20) + " bytes, left out: the dead-letter topic"
                        + " refused the letter as too large (RecordTooLargeException: The request included a message larger"
                        + " than the max message size the server will accept.)");
        assertThat(broker.refusals).isEqualTo(1);
        assertThat(sent.getCount()).isEqualTo(2);
        assertThat(errors.getCount()).isZero();
    }

    @Test
    void aLetterStillTooLargeWithoutItsValueGoesWithoutKeyAndHeaders() throws Exception {
        Broker broker = new Broker(1 << 20, null);
        DeadLetterSink.Writer w = writer(broker);
        w.write(letter(new byte[2 << 20], new byte[100]), null);
        w.flush(true);
        List<ProducerRecord<byte[], byte[]>> stored = broker.history();
        assertThat(stored).hasSize(1);
        assertThat(stored.get(0).key()).isNull();
        assertThat(stored.get(0).value()).isEmpty();
        assertThat(headers(stored.get(0))).doesNotContainKey("origin")
                .containsEntry(DeadLetterSerializer.SOURCE_OFFSET, "42")
                .containsEntry(DeadLetterSerializer.VALUE_OMITTED, "100 bytes, and the record's key and headers, left out:"
                        + " the dead-letter topic refused the letter as too large (RecordTooLargeException: The request"
                        + " included a message larger than the max message size the server will accept.)");
        assertThat(broker.refusals).isEqualTo(2);
    }

    @Test
    void aThirdRefusalFailsTheFlush() throws Exception {
        Broker broker = new Broker(64, null); // not even the tributary headers fit
        DeadLetterSink.Writer w = writer(broker);
        w.write(letter(null, new byte[10]), null);
        assertThatThrownBy(() -> w.flush(false)).isInstanceOf(java.io.IOException.class)
                .hasMessageContaining("cannot write a dead letter").hasCauseInstanceOf(RecordTooLargeException.class);
        assertThat(broker.refusals).isEqualTo(3);
        assertThat(broker.history()).isEmpty();
        assertThat(errors.getCount()).isEqualTo(1);
    }

    @Test
    void anyOtherErrorFailsAsBefore() throws Exception {
        Broker broker = new Broker(1 << 20, new TopicAuthorizationException("Not authorized to access topics: [dlq]"));
        DeadLetterSink.Writer w = writer(broker);
        w.write(letter(null, new byte[10]), null);
        assertThatThrownBy(() -> w.flush(false)).isInstanceOf(java.io.IOException.class)
                .hasCauseInstanceOf(TopicAuthorizationException.class);
        assertThat(broker.refusals).as("not sent again").isEqualTo(1);
        assertThatThrownBy(() -> w.write(letter(null, new byte[10]), null)).as("nor anything after it")
                .isInstanceOf(java.io.IOException.class);
    }

    @Test
    void theSinkHasACommitterWithNothingToCommit() throws Exception {
        DeadLetterSink sink = new DeadLetterSink("dlq", KafkaConnection.plain("unused:9092", Map.of()));
        assertThat(writer(new Broker(1 << 20, null)).prepareCommit()).isEmpty();
        assertThat(sink.getCommittableSerializer().getVersion()).isEqualTo(1);
        assertThatThrownBy(() -> sink.getCommittableSerializer().deserialize(1, new byte[3]))
                .isInstanceOf(java.io.IOException.class).hasMessageContaining("committable");
    }
}
