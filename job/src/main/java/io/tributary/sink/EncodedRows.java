package io.tributary.sink;

/**
 * Rows of one table already encoded in RowBinary: what one decoded Kafka record contributes to a
 * batch. Immutable once emitted; the sink keeps the array as a chunk of its batch.
 */
public final class EncodedRows {

    /** Index of the target table in the sink's table list. */
    public int table;
    /** Number of rows in {@link #data}. */
    public int rows;
    /** The rows, back to back. */
    public byte[] data;
    /** The Kafka record the rows come from: for dead letters (and exactly-once batches). */
    public String topic;
    public int partition;
    public long offset;

    /** For Flink's POJO serializer. */
    public EncodedRows() {}

    public EncodedRows(int table, int rows, byte[] data) {
        this.table = table;
        this.rows = rows;
        this.data = data;
    }

    public EncodedRows(int table, int rows, byte[] data, String topic, int partition, long offset) {
        this(table, rows, data);
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
    }
}
