package io.tributary.kafka;

/**
 * A Kafka record as the job reads it: the raw value and where it came from (for dead letters
 * and logs). A POJO so Flink serializes it without Kryo.
 */
public final class SourceRecord {

    public String topic;
    public int partition;
    public long offset;
    public long timestamp;
    public byte[] value;

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
