package io.tributary.tables;

import io.tributary.rowbinary.RowBinaryWriter;

import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The rows one Kafka record decodes to, per target table, in RowBinary: what a decoder fills and
 * then emits as {@link EncodedRows}. Reused from record to record by one task.
 *
 * <p>A record may render at most {@link RecordBounds} rows and bytes. The rows are counted in
 * {@link #rowAdded} (a compare per row); the bytes there too, and within a row by the writers,
 * which refuse to grow past what the record has left. The first row past either bound throws
 * {@link OversizedRecordException}, so a hostile record costs at most the bound, never what it
 * would render.
 */
public final class RecordRows {

    private static final int INITIAL_CAPACITY = 1 << 16;
    /** Buffers are dropped after a record when together they hold more than this. */
    private static final int SHRINK_ABOVE = 64 << 20;

    private final RowBinaryWriter[] writers = new RowBinaryWriter[OtelTable.values().length];
    private final int[] rows = new int[writers.length];
    private final byte[][] headers = new byte[writers.length][];
    private final EncodedRows[] emitted = new EncodedRows[writers.length];
    /** Each writer's size when its last row was counted. */
    private final int[] counted = new int[writers.length];
    private final int maxRows;
    private final int maxBytes;
    private final Supplier<OversizedRecordException> tooManyBytes;
    /** Rows and bytes of the record so far, all tables. */
    private int totalRows;
    private long totalBytes;

    /** Rows within {@link RecordBounds#DEFAULT}. */
    public RecordRows(TableLayouts layouts) {
        this(layouts, RecordBounds.DEFAULT);
    }

    /**
     * @param layouts the layouts the rows are written in (their headers go with the rows)
     * @param bounds how many rows and bytes one record may render
     */
    public RecordRows(TableLayouts layouts, RecordBounds bounds) {
        for (OtelTable t : OtelTable.values()) {
            headers[t.ordinal()] = layouts.of(t).header();
        }
        this.maxRows = bounds.maxRows();
        this.maxBytes = bounds.maxBytes();
        this.tooManyBytes = () -> new OversizedRecordException("the record renders more than " + maxBytes
                + " bytes of rows, the most " + RecordBounds.MAX_BYTES_KEY + " allows");
    }

    /**
     * The writer for {@code table}'s rows, which refuses to grow past the bytes the record has
     * left; call {@link #rowAdded} after each row.
     */
    public RowBinaryWriter writer(OtelTable table) {
        RowBinaryWriter w = writers[table.ordinal()];
        if (w == null) {
            w = new RowBinaryWriter(INITIAL_CAPACITY);
            writers[table.ordinal()] = w;
        }
        w.limit((int) Math.min(Integer.MAX_VALUE, w.size() + (maxBytes - totalBytes)), tooManyBytes);
        return w;
    }

    /**
     * Counts the row just written to {@code table}'s writer.
     *
     * @throws OversizedRecordException when the record has now more rows or bytes than its bounds
     */
    public void rowAdded(OtelTable table) {
        int t = table.ordinal();
        rows[t]++;
        int size = writers[t].size();
        totalBytes += size - counted[t];
        counted[t] = size;
        if (++totalRows > maxRows) {
            throw new OversizedRecordException("the record renders more than " + maxRows + " rows, the most "
                    + RecordBounds.MAX_ROWS_KEY + " allows");
        }
        if (totalBytes > maxBytes) {
            throw tooManyBytes.get();
        }
    }

    /** Bytes the record may still render, all tables together. */
    public long bytesLeft() {
        return maxBytes - totalBytes;
    }

    /** The refusal of a record past its bytes bound ({@value RecordBounds#MAX_BYTES_KEY}). */
    public OversizedRecordException overBytes() {
        return tooManyBytes.get();
    }

    /** Rows of all tables. */
    public int total() {
        return totalRows;
    }

    public int rows(OtelTable table) {
        return rows[table.ordinal()];
    }

    /** Forgets every row (after a record failed half-way, or after {@link #emit}). */
    public void clear() {
        long held = 0;
        for (RowBinaryWriter w : writers) {
            held += w == null ? 0 : w.buffer().length;
        }
        totalRows = 0;
        totalBytes = 0;
        for (int t = 0; t < writers.length; t++) {
            rows[t] = 0;
            counted[t] = 0;
            if (held > SHRINK_ABOVE) {
                writers[t] = null; // do not keep huge buffers after a huge record
            } else if (writers[t] != null) {
                writers[t].reset();
            }
        }
    }

    /**
     * Hands one {@link EncodedRows} per table with rows to {@code out}, marked with the Kafka
     * record they come from, then clears. The rows are this object's buffers, lent for the call:
     * {@code out} copies what it keeps.
     */
    public void emit(Consumer<EncodedRows> out, String topic, int partition, long offset) {
        for (int t = 0; t < writers.length; t++) {
            if (rows[t] > 0) {
                EncodedRows e = emitted[t];
                if (e == null) {
                    e = new EncodedRows();
                    emitted[t] = e;
                }
                e.table = t;
                e.rows = rows[t];
                e.data = writers[t].buffer();
                e.length = writers[t].size();
                e.header = headers[t];
                e.topic = topic;
                e.partition = partition;
                e.offset = offset;
                out.accept(e);
            }
        }
        clear();
    }
}
