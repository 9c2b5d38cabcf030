package io.tributary.schema;

import io.tributary.rowbinary.RowBinaryWriter;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How the job writes one table as the server has it: the columns of the {@link TableSchema} that
 * the table has, each encoded in the table's own type, in an INSERT whose data starts with the
 * {@code RowBinaryWithNamesAndTypes} header naming them, so ClickHouse checks every column's name
 * and type against the table before it reads a row. The table's other columns are left to their
 * defaults.
 *
 * <p>Made once per task when it opens ({@link #resolve}), from {@code system.columns}; a table that
 * changed since fails the INSERT with a permanent error naming the column, and the restarted task
 * resolves again. {@link #canonical} is the layout of a table exactly as {@code schema create}
 * makes it, for what runs without a server.
 *
 * @param <R> the row type
 */
public final class TableLayout<R> {

    private final String table;
    private final List<Planned<R>> columns;
    private final ColumnWriter<R>[] writers;
    private final byte[] header;
    private final List<String> leftToDefaults;
    private final List<String> skipped;

    /** A column the job writes: its name in the table, its type there, its encoder, and the job's own type. */
    private record Planned<R>(String name, String type, String jobType, ColumnWriter<R> writer) {}

    @SuppressWarnings("unchecked")
    private TableLayout(String table, List<Planned<R>> columns, List<String> leftToDefaults, List<String> skipped) {
        this.table = table;
        this.columns = List.copyOf(columns);
        this.writers = columns.stream().map(Planned::writer).toArray(ColumnWriter[]::new);
        this.leftToDefaults = List.copyOf(leftToDefaults);
        this.skipped = List.copyOf(skipped);
        RowBinaryWriter h = new RowBinaryWriter(64 + columns.size() * 48);
        h.writeVarUInt(columns.size());
        for (Planned<R> c : columns) {
            h.writeString(c.name());
        }
        for (Planned<R> c : columns) {
            h.writeString(c.type());
        }
        this.header = h.toByteArray();
    }

    /** The layout of a table exactly as {@code schema create} makes it from {@code schema}. */
    public static <R> TableLayout<R> canonical(TableSchema<R> schema, String table) {
        List<Planned<R>> cs = new ArrayList<>();
        for (Field<R> f : schema.fields()) {
            cs.add(new Planned<>(f.name(), f.type(), f.type(), f.canonicalWriter()));
        }
        return new TableLayout<>(table, cs, List.of(), List.of());
    }

    /**
     * The layout for {@code table} (qualified name, for messages) with {@code columns} as the
     * server lists them; each mismatch is added to {@code problems}, naming the table, the column
     * and both types, and the result is then null.
     */
    public static <R> TableLayout<R> resolve(TableSchema<R> schema, String table, List<ServerColumn> columns,
            List<String> problems) {
        Map<String, ServerColumn> byName = new HashMap<>();
        columns.forEach(c -> byName.put(c.name(), c));
        List<Planned<R>> planned = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        Set<String> used = new HashSet<>();
        int before = problems.size();
        for (Field<R> f : schema.fields()) {
            ServerColumn c = null;
            for (String name : f.names()) {
                c = byName.get(name);
                if (c != null) {
                    break;
                }
            }
            if (c == null || c.computed()) {
                String why = c == null ? "has no column `" + f.name() + "`"
                        : "computes `" + c.name() + "` (" + c.defaultKind() + " " + c.defaultExpression() + ")";
                if (f.optional()) {
                    skipped.add(f.name() + " (" + f.type() + "): the table " + why);
                } else {
                    problems.add(table + " " + why + ", which the job must write (" + f.type() + ")");
                }
                if (c != null) {
                    used.add(c.name());
                }
                continue;
            }
            used.add(c.name());
            ColumnWriter<R> w = f.binder().bind(ChType.parse(c.type()));
            if (w == null) {
                problems.add(table + " has column `" + c.name() + "` as " + c.type() + "; the job writes it as "
                        + f.type() + " and cannot convert that to " + c.type() + " without loss");
                continue;
            }
            planned.add(new Planned<>(c.name(), c.type(), f.type(), w));
        }
        if (problems.size() > before) {
            return null;
        }
        List<String> defaults = new ArrayList<>();
        for (ServerColumn c : columns) {
            if (!used.contains(c.name())) {
                defaults.add(c.name() + " " + c.type() + (c.defaultKind().isEmpty() ? " (its type's default)"
                        : " (" + c.defaultKind() + " " + c.defaultExpression() + ")"));
            }
        }
        return new TableLayout<>(table, planned, defaults, skipped);
    }

    /** Appends one row in this layout. */
    public void writeRow(R row, RowBinaryWriter out) {
        ColumnWriter<R>[] ws = writers;
        for (int i = 0; i < ws.length; i++) {
            ws[i].write(row, out);
        }
    }

    /**
     * The {@code RowBinaryWithNamesAndTypes} header: the number of columns, their names, their
     * types, each string as a LEB128 length and bytes. Shared; never modify it.
     * https://clickhouse.com/docs/interfaces/formats/RowBinaryWithNamesAndTypes
     */
    public byte[] header() {
        return header;
    }

    /** The columns written, in order. */
    public List<String> columnNames() {
        List<String> out = new ArrayList<>(columns.size());
        columns.forEach(c -> out.add(c.name()));
        return out;
    }

    /** What {@code schema check} prints for this table. */
    public String report() {
        StringBuilder sb = new StringBuilder(table).append(": the job writes ").append(columns.size()).append(" columns\n");
        for (Planned<R> c : columns) {
            sb.append("    ").append(c.name()).append(' ').append(c.type());
            if (!ChType.parse(c.type()).onTheWire().toString().equals(ChType.parse(c.jobType()).onTheWire().toString())) {
                sb.append("  (converted from ").append(c.jobType()).append(')');
            }
            sb.append('\n');
        }
        if (!skipped.isEmpty()) {
            sb.append("  not written, the table lacks them (optional):\n");
            skipped.forEach(s -> sb.append("    ").append(s).append('\n'));
        }
        if (!leftToDefaults.isEmpty()) {
            sb.append("  left to ClickHouse:\n");
            leftToDefaults.forEach(s -> sb.append("    ").append(s).append('\n'));
        }
        return sb.toString();
    }

    /** Optional columns the table lacks (or computes), which the job does not write: for warnings. */
    public List<String> skipped() {
        return skipped;
    }

    public String table() {
        return table;
    }
}
