package io.tributary.tables;

import io.tributary.rowbinary.RowBinaryWriter;

import java.util.function.Consumer;

/**
 * The rows one Kafka record decodes to, per target table, in RowBinary: what a decoder fills and
 * then emits as {@link EncodedRows}. Reused from record to record by one task.
 */
public final class TableRows {

    private static final int INITIAL_CAPACITY = 1 << 16;
    /** Buffers are dropped after a record when together they hold more than this. */
    private static final int SHRINK_ABOVE = 64 << 20;

    private final RowBinaryWriter[] writers = new RowBinaryWriter[OtelTable.values().length];
    private final int[] rows = new int[writers.length];
    private final byte[][] headers = new byte[writers.length][];
    private final EncodedRows[] emitted = new EncodedRows[writers.length];

    /** @param layouts the layouts the rows are written in (their headers go with the rows) */
    public TableRows(TableLayouts layouts) {
        for (OtelTable t : OtelTable.values()) {
            headers[t.ordinal()] = layouts.of(t).header();
        }
    }

    /** The writer for {@code table}'s rows; call {@link #rowAdded} after each row. */
    public RowBinaryWriter writer(OtelTable table) {
        RowBinaryWriter w = writers[table.ordinal()];
        if (w == null) {
            w = new RowBinaryWriter(INITIAL_CAPACITY);
            writers[table.ordinal()] = w;
        }
        return w;
    }

    public void rowAdded(OtelTable table) {
        rows[table.ordinal()]++;
    }

    /** Rows of all tables. */
    public int total() {
        int n = 0;
        for (int r : rows) {
            n += r;
        }
        return n;
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
        for (int t = 0; t < writers.length; t++) {
            rows[t] = 0;
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
