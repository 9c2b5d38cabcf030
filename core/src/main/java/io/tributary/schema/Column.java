package io.tributary.schema;

import java.util.ArrayList;
import java.util.List;

/**
 * A column of a table: its name and ClickHouse type as the DDL declares them, and the fields the
 * INSERT writes for it (one for a plain column, one per field for {@code Nested}, none for ALIAS
 * and MATERIALIZED columns). The type and the encoders are chosen together by the factories in
 * {@link Columns}, so a column cannot declare one type and write another.
 *
 * @param name column name in the DDL
 * @param type ClickHouse type in the DDL (for Nested: the whole {@code Nested(...)} clause)
 * @param codec the {@code CODEC(...)} clause, or "" for none
 * @param defaultExpression {@code ALIAS expr} or {@code MATERIALIZED expr}, or ""
 * @param comment the {@code COMMENT} text, or ""
 * @param fields what the INSERT writes for this column, in order; empty when not written
 */
public record Column<R>(
        String name,
        String type,
        String codec,
        String defaultExpression,
        String comment,
        List<Field<R>> fields) {

    public Column {
        fields = List.copyOf(fields);
    }

    /** This column with a {@code COMMENT}. */
    public Column<R> comment(String text) {
        return new Column<>(name, type, codec, defaultExpression, text, fields);
    }

    /**
     * This column as optional: tables of exporter versions that lack it are written without it
     * (with a warning) instead of refused.
     */
    public Column<R> optional() {
        List<Field<R>> fs = new ArrayList<>();
        fields.forEach(f -> fs.add(f.asOptional()));
        return new Column<>(name, type, codec, defaultExpression, comment, fs);
    }

    /** This column, also found in tables under {@code oldName} (an earlier exporter's name). */
    public Column<R> formerly(String oldName) {
        if (fields.size() != 1) {
            throw new IllegalStateException("only a plain column can have had another name");
        }
        return new Column<>(name, type, codec, defaultExpression, comment, List.of(fields.get(0).formerly(oldName)));
    }

    /** True when the sink writes this column (not ALIAS or MATERIALIZED). */
    public boolean isWritten() {
        return !fields.isEmpty();
    }

    /** Names in the INSERT ({@code Events.Timestamp, ...} for Nested). */
    public List<String> insertNames() {
        List<String> out = new ArrayList<>(fields.size());
        fields.forEach(f -> out.add(f.name()));
        return out;
    }
}
