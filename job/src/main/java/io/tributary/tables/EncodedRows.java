package io.tributary.tables;

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
    /**
     * The {@code RowBinaryWithNamesAndTypes} header of the layout the rows are encoded in: the
     * columns' names and types. Shared by every {@code EncodedRows} of that layout; never modified.
     */
    public byte[] header;
    /** Topic of the Kafka record the rows come from (to read it back for a dead letter). */
    public String topic;
    /** Its partition. */
    public int partition;
    /** Its offset. */
    public long offset;

    /** For Flink's POJO serializer. */
    public EncodedRows() {}

    public EncodedRows(int table, int rows, byte[] data, byte[] header, String topic, int partition, long offset) {
        this.table = table;
        this.rows = rows;
        this.data = data;
        this.header = header;
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
    }
}
