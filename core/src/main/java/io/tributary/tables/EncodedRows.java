package io.tributary.tables;

/**
 * Rows of one table already encoded in RowBinary: what one decoded Kafka record contributes to a
 * batch. The decoder lends its buffers: {@link #data} holds the rows in {@code [0, length)} only
 * while the call that receives them runs (the sink, chained to the decoder, copies them into its
 * batch; between tasks Flink serializes them at once). Never modified by a receiver.
 */
public final class EncodedRows {

    /** Index of the target table in the sink's table list. */
    public int table;
    /** Number of rows in {@link #data}. */
    public int rows;
    /** The rows, back to back, in {@code data[0, length)}; see the class comment for how long. */
    public byte[] data;
    /** Bytes of rows in {@link #data}. */
    public int length;
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
        this(table, rows, data, data.length, header, topic, partition, offset);
    }

    public EncodedRows(int table, int rows, byte[] data, int length, byte[] header, String topic, int partition,
            long offset) {
        this.table = table;
        this.rows = rows;
        this.data = data;
        this.length = length;
        this.header = header;
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
    }
}
