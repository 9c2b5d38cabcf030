package io.tributary.schema;

import java.util.List;

/**
 * A column of a table: its name and ClickHouse type as the DDL declares them, and how a row's
 * value is encoded. The type and the encoder are chosen together by the factories in {@link
 * Columns}, so a column cannot declare one type and write another.
 *
 * @param name column name in the DDL
 * @param type ClickHouse type in the DDL (for Nested: the whole {@code Nested(...)} clause)
 * @param codec the {@code CODEC(...)} clause, or "" for none
 * @param insertNames names in the INSERT column list ({@code Events.Timestamp, ...} for Nested;
 *     empty for ALIAS and MATERIALIZED columns, which are never written)
 * @param defaultExpression {@code ALIAS expr} or {@code MATERIALIZED expr}, or ""
 * @param writer encodes the value(s) for {@code insertNames}, in that order; null when not written
 * @param comment the {@code COMMENT} text, or ""
 */
public record Column<R>(
        String name,
        String type,
        String codec,
        List<String> insertNames,
        String defaultExpression,
        ColumnWriter<R> writer,
        String comment) {

    Column(String name, String type, String codec, List<String> insertNames, String defaultExpression, ColumnWriter<R> writer) {
        this(name, type, codec, insertNames, defaultExpression, writer, "");
    }

    /** This column with a {@code COMMENT}. */
    public Column<R> comment(String text) {
        return new Column<>(name, type, codec, insertNames, defaultExpression, writer, text);
    }

    /** True when the sink writes this column (not ALIAS or MATERIALIZED). */
    public boolean isWritten() {
        return writer != null;
    }
}
