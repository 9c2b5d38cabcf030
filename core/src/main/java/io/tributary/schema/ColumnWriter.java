package io.tributary.schema;

import io.tributary.rowbinary.RowBinaryWriter;

/** Writes one column's value of a row of type {@code R}. */
@FunctionalInterface
public interface ColumnWriter<R> {
    void write(R row, RowBinaryWriter out);
}
