package io.tributary.kafka;

import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.nio.charset.StandardCharsets;

/**
 * Writes a {@link DeadLetter} to the dead-letter topic: the original key and value byte for byte,
 * the original headers, and {@code tributary.*} headers naming the error and where the record came
 * from. The record keeps its original timestamp.
 */
public final class DeadLetterSerializer implements KafkaRecordSerializationSchema<DeadLetter> {
    private static final long serialVersionUID = 1L;

    public static final String ERROR_CLASS = "tributary.error.class";
    public static final String ERROR_MESSAGE = "tributary.error.message";
    public static final String SOURCE_TOPIC = "tributary.source.topic";
    public static final String SOURCE_PARTITION = "tributary.source.partition";
    public static final String SOURCE_OFFSET = "tributary.source.offset";
    public static final String SOURCE_TIMESTAMP = "tributary.source.timestamp";
    public static final String FAILED_AT = "tributary.failed.at";

    /** Header values are kept short: a message can quote a lot of the record. */
    private static final int MAX_MESSAGE_CHARS = 4096;

    private final String topic;

    public DeadLetterSerializer(String topic) {
        this.topic = topic;
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(DeadLetter d, KafkaSinkContext context, Long timestamp) {
        SourceRecord r = d.record;
        RecordHeaders headers = new RecordHeaders();
        for (int i = 0; i < r.headerKeys.length; i++) {
            headers.add(r.headerKeys[i], r.headerValues[i]);
        }
        String message = d.errorMessage.length() > MAX_MESSAGE_CHARS
                ? d.errorMessage.substring(0, MAX_MESSAGE_CHARS) + "..."
                : d.errorMessage;
        headers.add(ERROR_CLASS, utf8(d.errorClass));
        headers.add(ERROR_MESSAGE, utf8(message));
        headers.add(SOURCE_TOPIC, utf8(r.topic));
        headers.add(SOURCE_PARTITION, utf8(Integer.toString(r.partition)));
        headers.add(SOURCE_OFFSET, utf8(Long.toString(r.offset)));
        headers.add(SOURCE_TIMESTAMP, utf8(Long.toString(r.timestamp)));
        headers.add(FAILED_AT, utf8(java.time.Instant.ofEpochMilli(d.failedAt).toString()));
        return new ProducerRecord<>(topic, null, r.timestamp >= 0 ? r.timestamp : null, r.key, r.value, headers);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
