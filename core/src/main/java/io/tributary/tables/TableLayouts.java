package io.tributary.tables;

import io.tributary.schema.SchemaFlavor;
import io.tributary.schema.ServerColumn;
import io.tributary.schema.Sql;
import io.tributary.schema.TableCatalog;
import io.tributary.schema.TableLayout;
import io.tributary.schema.TableMismatchException;
import io.tributary.schema.TableName;
import io.tributary.schema.TableSchema;
import io.tributary.tables.logs.LogView;
import io.tributary.tables.metrics.MetricView;
import io.tributary.tables.profiles.SampleView;
import io.tributary.tables.traces.SpanView;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The {@link TableLayout} of every table the job writes, by {@link OtelTable}. */
public final class TableLayouts {

    private final SchemaFlavor flavor;
    private final TableLayout<?>[] layouts;

    private TableLayouts(SchemaFlavor flavor, TableLayout<?>[] layouts) {
        this.flavor = flavor;
        this.layouts = layouts;
    }

    /** The flavour the tables are written in. */
    public SchemaFlavor flavor() {
        return flavor;
    }

    /** Every table exactly as {@code schema create} makes it in {@code flavor} (for what runs without a server). */
    public static TableLayouts canonical(SchemaFlavor flavor) {
        TableLayout<?>[] ls = new TableLayout<?>[OtelTable.values().length];
        for (OtelTable t : OtelTable.values()) {
            ls[t.ordinal()] = canonical(t, flavor);
        }
        return new TableLayouts(flavor, ls);
    }

    private static <R> TableLayout<R> canonical(OtelTable t, SchemaFlavor flavor) {
        @SuppressWarnings("unchecked")
        TableSchema<R> schema = (TableSchema<R>) t.schema(flavor);
        return TableLayout.canonical(schema, t.name().toLowerCase(java.util.Locale.ROOT));
    }

    /**
     * The layouts of {@code tables} (their names in the catalog's database) as the server has
     * them, the others canonical.
     *
     * @throws TableMismatchException naming every table, column and type that does not fit, or
     *     the tables that do not exist
     * @throws IOException when the server cannot be asked
     */
    public static TableLayouts read(TableCatalog catalog, SchemaFlavor flavor, Map<OtelTable, TableName> tables)
            throws IOException {
        Map<String, List<ServerColumn>> columns = catalog.columns(names(tables));
        TableLayout<?>[] ls = canonical(flavor).layouts.clone();
        List<String> problems = new ArrayList<>();
        for (Map.Entry<OtelTable, TableName> e : tables.entrySet()) {
            String qualified = Sql.qualified(catalog.database(), e.getValue().name());
            List<ServerColumn> cs = columns.get(e.getValue().name());
            if (cs == null) {
                problems.add(qualified + " does not exist (" + e.getValue().setting() + ")");
                continue;
            }
            ls[e.getKey().ordinal()] = TableLayout.resolve(e.getKey().schema(flavor), qualified, cs, problems);
        }
        if (!problems.isEmpty()) {
            throw new TableMismatchException("the tables do not fit what the job writes (clickhouse.schema = "
                    + flavor.name().toLowerCase(java.util.Locale.ROOT) + "):\n  " + String.join("\n  ", problems)
                    + "\nAdd or change those columns (ALTER TABLE ... ADD COLUMN / MODIFY COLUMN), point the job at"
                    + " other tables, or see `bin/tributary schema check`.");
        }
        return new TableLayouts(flavor, ls);
    }

    /** What {@code schema check} prints: per table, what the job writes and leaves to ClickHouse, or what does not fit. */
    public record Check(String text, boolean ok) {}

    /** Resolves each of {@code tables} against the server and describes the outcome. */
    public static Check check(TableCatalog catalog, SchemaFlavor flavor, Map<OtelTable, TableName> tables) throws IOException {
        Map<String, List<ServerColumn>> columns = catalog.columns(names(tables));
        StringBuilder sb = new StringBuilder();
        boolean ok = true;
        for (Map.Entry<OtelTable, TableName> e : tables.entrySet()) {
            String qualified = Sql.qualified(catalog.database(), e.getValue().name());
            List<ServerColumn> cs = columns.get(e.getValue().name());
            List<String> problems = new ArrayList<>();
            TableLayout<?> l = null;
            if (cs == null) {
                problems.add(qualified + " does not exist (" + e.getValue().setting()
                        + "); `schema create` makes it");
            } else {
                l = TableLayout.resolve(e.getKey().schema(flavor), qualified, cs, problems);
            }
            if (l != null) {
                sb.append(l.report());
            } else {
                ok = false;
                sb.append(qualified).append(": does not fit\n");
                problems.forEach(p -> sb.append("    ").append(p).append('\n'));
            }
            sb.append('\n');
        }
        return new Check(sb.toString(), ok);
    }

    private static List<String> names(Map<OtelTable, TableName> tables) {
        List<String> out = new ArrayList<>();
        tables.values().forEach(t -> out.add(t.name()));
        return out;
    }

    @SuppressWarnings("unchecked")
    public <R> TableLayout<R> of(OtelTable table) {
        return (TableLayout<R>) layouts[table.ordinal()];
    }

    public TableLayout<SpanView> traces() {
        return of(OtelTable.TRACES);
    }

    public TableLayout<LogView> logs() {
        return of(OtelTable.LOGS);
    }

    public TableLayout<SampleView> profiles() {
        return of(OtelTable.PROFILES);
    }

    /** The layout of one of the metrics tables. */
    public TableLayout<MetricView> metrics(OtelTable table) {
        if (table.signal() != io.tributary.otlp.Signal.METRICS) {
            throw new IllegalArgumentException(table + " is not a metrics table");
        }
        return of(table);
    }
}
