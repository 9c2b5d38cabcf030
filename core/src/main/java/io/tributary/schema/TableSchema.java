package io.tributary.schema;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A ClickHouse table as the collector's {@code clickhouseexporter} creates it, and the one source
 * of its columns: the DDL, the INSERT column list and the RowBinary row encoding all come from
 * {@link #columns()}.
 *
 * @param <R> the row type the columns read from
 */
public final class TableSchema<R> {

    private final List<Column<R>> columns;
    private final List<String> indexes;
    private final String partitionBy;
    private final String primaryKey;
    private final String orderBy;
    private final String ttlTimeExpression;
    private final String settings;
    private final List<Field<R>> fields;
    private final List<String> insertColumns;

    private TableSchema(Builder<R> b) {
        this.columns = List.copyOf(b.columns);
        this.indexes = List.copyOf(b.indexes);
        this.partitionBy = b.partitionBy;
        this.primaryKey = b.primaryKey;
        this.orderBy = b.orderBy;
        this.ttlTimeExpression = b.ttlTimeExpression;
        this.settings = b.settings;
        List<Field<R>> fs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (Column<R> c : columns) {
            fs.addAll(c.fields());
            names.addAll(c.insertNames());
        }
        this.fields = List.copyOf(fs);
        this.insertColumns = List.copyOf(names);
    }

    public static <R> Builder<R> builder() {
        return new Builder<>();
    }

    public List<Column<R>> columns() {
        return columns;
    }

    /** The column names of the INSERT of a table as {@code schema create} makes it, in DDL order. */
    public List<String> insertColumns() {
        return insertColumns;
    }

    /** What the INSERT writes, in DDL order: each column's fields ({@link TableLayout} picks from them). */
    public List<Field<R>> fields() {
        return fields;
    }

    /**
     * {@code INSERT INTO `db`.`table` (cols) FORMAT RowBinary} with every written column of a
     * table as {@code schema create} makes it: how release 0.1 inserted, which the exactly-once
     * batches in its checkpoints need.
     */
    public String insertSql(String database, String table) {
        StringBuilder sb = new StringBuilder(512);
        sb.append("INSERT INTO ").append(Sql.qualified(database, table)).append(" (");
        for (int i = 0; i < insertColumns.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(Sql.ident(insertColumns.get(i)));
        }
        return sb.append(") FORMAT RowBinary").toString();
    }

    /** The CREATE TABLE statement, as the exporter renders it for this engine and TTL. */
    public String createTableSql(String database, String table, TableEngine engine, Duration ttl) {
        return createTableSql(database, table, engine, ttl, "");
    }

    /**
     * The CREATE TABLE statement, as the exporter renders it for this engine and TTL, with {@code
     * extraSettings} (e.g. a deduplication window) appended to its SETTINGS when not empty.
     */
    public String createTableSql(String database, String table, TableEngine engine, Duration ttl, String extraSettings) {
        return createTableSql(database, table, Placement.of(engine), ttl, extraSettings);
    }

    /** As {@link #createTableSql(String, String, TableEngine, Duration, String)}, {@code ON CLUSTER} when placed on one. */
    public String createTableSql(String database, String table, Placement placement, Duration ttl, String extraSettings) {
        TableEngine engine = placement.engine();
        boolean mergeTree = engine.stores();
        StringBuilder sb = new StringBuilder(4096);
        sb.append("CREATE TABLE IF NOT EXISTS ").append(Sql.qualified(database, table)).append(placement.onCluster())
                .append(" (\n");
        List<String> items = new ArrayList<>();
        for (Column<R> c : columns) {
            StringBuilder line = new StringBuilder("    ").append(Sql.columnName(c.name())).append(' ').append(c.type());
            if (!c.defaultExpression().isEmpty()) {
                line.append(' ').append(c.defaultExpression());
            }
            if (!c.comment().isEmpty()) {
                line.append(" COMMENT ").append(Sql.string(c.comment()));
            }
            if (!c.codec().isEmpty()) {
                line.append(' ').append(c.codec());
            }
            items.add(line.toString());
        }
        if (mergeTree) {
            for (String index : indexes) {
                items.add("    INDEX " + index);
            }
        }
        sb.append(String.join(",\n", items)).append("\n) ENGINE = ").append(engine.sql()).append('\n');
        if (mergeTree) {
            sb.append("PARTITION BY ").append(partitionBy).append('\n');
            if (primaryKey != null) {
                sb.append("PRIMARY KEY ").append(primaryKey).append('\n');
            }
            sb.append("ORDER BY ").append(orderBy).append('\n');
            String ttlSql = Sql.ttl(ttl, ttlTimeExpression);
            if (!ttlSql.isEmpty()) {
                sb.append(ttlSql).append('\n');
            }
            sb.append("SETTINGS ").append(settings);
            if (!extraSettings.isEmpty()) {
                sb.append(", ").append(extraSettings);
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** Builds a {@link TableSchema}. */
    public static final class Builder<R> {
        private final List<Column<R>> columns = new ArrayList<>();
        private final List<String> indexes = new ArrayList<>();
        private String partitionBy;
        private String primaryKey;
        private String orderBy;
        private String ttlTimeExpression;
        private String settings;

        public Builder<R> column(Column<R> c) {
            columns.add(c);
            return this;
        }

        /** Several columns in order (e.g. a JSON attributes column and its keys column). */
        public Builder<R> columns(List<Column<R>> cs) {
            columns.addAll(cs);
            return this;
        }

        /** An index clause without the leading INDEX keyword. */
        public Builder<R> index(String clause) {
            indexes.add(clause);
            return this;
        }

        public Builder<R> partitionBy(String expr) {
            this.partitionBy = expr;
            return this;
        }

        public Builder<R> primaryKey(String expr) {
            this.primaryKey = expr;
            return this;
        }

        public Builder<R> orderBy(String expr) {
            this.orderBy = expr;
            return this;
        }

        /** The DateTime expression the TTL clause adds its interval to. */
        public Builder<R> ttlOn(String expr) {
            this.ttlTimeExpression = expr;
            return this;
        }

        public Builder<R> settings(String s) {
            this.settings = s;
            return this;
        }

        public TableSchema<R> build() {
            return new TableSchema<>(this);
        }
    }
}
