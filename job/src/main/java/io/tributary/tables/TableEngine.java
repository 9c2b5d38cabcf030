package io.tributary.tables;

/** The table engine {@code schema create} uses. */
public enum TableEngine {
    /** What the exporter creates: MergeTree with partitioning, ordering, indexes and TTL. */
    MERGE_TREE("MergeTree()"),
    /**
     * Discards rows after parsing them: for benchmarks of the pipeline, not of storage. ORDER BY,
     * PARTITION BY, indexes, TTL and the trace-id lookup view are left out.
     */
    NULL("Null");

    private final String sql;

    TableEngine(String sql) {
        this.sql = sql;
    }

    public String sql() {
        return sql;
    }

    /** Parses {@code MergeTree} or {@code Null} (case-insensitive). */
    public static TableEngine parse(String s) {
        switch (s.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "mergetree":
            case "mergetree()":
                return MERGE_TREE;
            case "null":
                return NULL;
            default:
                throw new IllegalArgumentException("unknown engine '" + s + "' (MergeTree|Null)");
        }
    }
}
