package io.tributary.schema;

/**
 * A column of a table as the server describes it ({@code system.columns}).
 *
 * @param name the column's name (a Nested column's fields appear as {@code Name.Field})
 * @param type its type as the server prints it
 * @param defaultKind {@code DEFAULT}, {@code MATERIALIZED}, {@code ALIAS}, {@code EPHEMERAL}, or "" for none
 * @param defaultExpression the expression of that default, or ""
 */
public record ServerColumn(String name, String type, String defaultKind, String defaultExpression) {

    /** True when an INSERT cannot write the column: ClickHouse computes it. */
    public boolean computed() {
        return defaultKind.equals("MATERIALIZED") || defaultKind.equals("ALIAS");
    }
}
