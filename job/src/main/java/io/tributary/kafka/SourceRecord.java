package io.tributary.kafka;

/**
 * A Kafka record as the job reads it: the raw value, and its key, headers and coordinates for
 * dead letters and logs. A POJO so Flink serializes it without Kryo.
 */
public final class SourceRecord {

    static final String[] NO_HEADER_KEYS = new String[0];
    static final byte[][] NO_HEADER_VALUES = new byte[0][];

    public String topic;
    public int partition;
    public long offset;
    public long timestamp;
    /** The record key, or null. */
    public byte[] key;
    public byte[] value;
    /** Header keys, in order (a key may repeat). */
    public String[] headerKeys = NO_HEADER_KEYS;
    /** Header values, index by index with {@link #headerKeys}; an element may be null. */
    public byte[][] headerValues = NO_HEADER_VALUES;

    public SourceRecord() {}

    public SourceRecord(String topic, int partition, long offset, long timestamp, byte[] value) {
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.timestamp = timestamp;
        this.value = value;
    }

    /** {@code topic-partition@offset}, for messages. */
    public String coordinates() {
        return topic + "-" + partition + "@" + offset;
    }
}
