package io.tributary.schema;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The table engine {@code schema create} uses, as the exporter's {@code table_engine} takes it: a
 * name and its parameters, rendered {@code Name(params)}. MergeTree-family engines get the
 * exporter's partitioning, ordering, indexes and TTL; {@code Null} gets none of them.
 */
public final class TableEngine {

    /** What the exporter creates by default. */
    public static final TableEngine MERGE_TREE = new TableEngine("MergeTree", "");
    /**
     * Discards rows after parsing them: for benchmarks of the pipeline, not of storage. ORDER BY,
     * PARTITION BY, indexes, TTL and the trace-id lookup view are left out.
     */
    public static final TableEngine NULL = new TableEngine("Null", null);
    /**
     * What {@code --cluster} uses unless {@code --engine} says otherwise: ClickHouse fills in the
     * default replication path ({@code /clickhouse/tables/{uuid}/{shard}}) and {@code {replica}}.
     */
    public static final TableEngine REPLICATED_MERGE_TREE = new TableEngine("ReplicatedMergeTree", "");

    private static final Pattern SYNTAX = Pattern.compile("([A-Za-z][A-Za-z0-9_]*)\\s*(?:\\((.*)\\))?", Pattern.DOTALL);

    private final String name;
    private final String params;

    private TableEngine(String name, String params) {
        this.name = name;
        this.params = params;
    }

    /**
     * Parses {@code Name} or {@code Name(params)}, e.g. {@code MergeTree}, {@code Null},
     * {@code ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}')}.
     */
    public static TableEngine parse(String s) {
        Matcher m = SYNTAX.matcher(s.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + s + "' is not an engine: use Name or Name(parameters), e.g. MergeTree,"
                    + " ReplicatedMergeTree or ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}')");
        }
        String name = m.group(1);
        if (name.equalsIgnoreCase("null")) {
            return NULL;
        }
        if (name.equalsIgnoreCase("mergetree")) {
            name = "MergeTree";
        }
        String params = m.group(2) == null ? "" : m.group(2).strip();
        if (!name.endsWith("MergeTree")) {
            throw new IllegalArgumentException("engine '" + name + "': schema create makes MergeTree-family tables (or Null);"
                    + " for a Distributed table over them use --cluster with --distributed");
        }
        return new TableEngine(name, params);
    }

    /** The engine clause, e.g. {@code MergeTree()}. */
    public String sql() {
        return params == null ? name : name + "(" + params + ")";
    }

    public String name() {
        return name;
    }

    /** Whether it stores rows (a MergeTree-family engine) rather than discarding them. */
    public boolean stores() {
        return params != null;
    }

    /**
     * The engine of the traces' {@code _trace_id_ts} lookup table, as the exporter derives it:
     * {@code MergeTree} becomes {@code AggregatingMergeTree()}, {@code ReplicatedMergeTree(p)}
     * {@code ReplicatedAggregatingMergeTree(p)}; other engines stay as they are.
     */
    public String lookupSql() {
        if (name.equals("MergeTree")) {
            return "AggregatingMergeTree()";
        }
        if (name.equals("ReplicatedMergeTree")) {
            return "ReplicatedAggregatingMergeTree(" + params + ")";
        }
        return sql();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TableEngine && ((TableEngine) o).name.equals(name) && Objects.equals(((TableEngine) o).params, params);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, params);
    }

    @Override
    public String toString() {
        return sql();
    }
}
