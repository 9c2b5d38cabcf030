package io.tributary.jdbc;

import org.apache.flink.connector.jdbc.core.database.dialect.AbstractDialect;
import org.apache.flink.connector.jdbc.core.database.dialect.JdbcDialectConverter;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The ClickHouse dialect of flink-connector-jdbc: an append-only batched sink, a scan source and a
 * lookup source (with Flink's lookup cache, {@code 'lookup.cache' = 'PARTIAL'}).
 *
 * <p>Flink types and the ClickHouse types they read and write:
 *
 * <table>
 *   <caption>types</caption>
 *   <tr><th>Flink</th><th>ClickHouse</th></tr>
 *   <tr><td>STRING, VARCHAR, CHAR</td><td>String, LowCardinality(String)</td></tr>
 *   <tr><td>BOOLEAN</td><td>Bool</td></tr>
 *   <tr><td>TINYINT, SMALLINT, INT, BIGINT</td><td>Int8, Int16, Int32, Int64, and the UInt types whose
 *       values fit (UInt8 in SMALLINT, UInt16 in INT, UInt32 in BIGINT)</td></tr>
 *   <tr><td>DECIMAL(20, 0)</td><td>UInt64 (every value); BIGINT holds those below 2^63</td></tr>
 *   <tr><td>DECIMAL(p, s)</td><td>Decimal(p, s)</td></tr>
 *   <tr><td>FLOAT, DOUBLE</td><td>Float32, Float64</td></tr>
 *   <tr><td>DATE</td><td>Date, Date32</td></tr>
 *   <tr><td>TIMESTAMP_LTZ(p), TIMESTAMP(p), p up to 9</td><td>DateTime64(p[, tz]), DateTime</td></tr>
 *   <tr><td>MAP&lt;K, V&gt;</td><td>Map(K, V), e.g. Map(LowCardinality(String), String)</td></tr>
 *   <tr><td>ARRAY&lt;T&gt;</td><td>Array(T) of any type above</td></tr>
 * </table>
 *
 * <p>ClickHouse has no UPSERT, UPDATE or row DELETE for a sink to use: a sink table declared with a
 * PRIMARY KEY (which makes flink-connector-jdbc upsert) fails the job when it starts, saying so.
 */
public final class ClickHouseDialect extends AbstractDialect {
    private static final long serialVersionUID = 1L;

    static final String NO_UPSERT = "ClickHouse has no UPSERT, UPDATE or row DELETE: a ClickHouse JDBC sink table"
            + " is append-only. Declare it without PRIMARY KEY and feed it an insert-only query (for the latest"
            + " row per key, write to a ReplacingMergeTree table and read it with FINAL)";

    @Override
    public String dialectName() {
        return "ClickHouse";
    }

    @Override
    public JdbcDialectConverter getRowConverter(RowType rowType) {
        return new ClickHouseDialectConverter(rowType);
    }

    @Override
    public String getLimitClause(long limit) {
        return "LIMIT " + limit;
    }

    @Override
    public Optional<String> defaultDriverName() {
        return Optional.of(ClickHouseSecretsDriver.class.getName());
    }

    @Override
    public String quoteIdentifier(String identifier) {
        return "`" + identifier.replace("\\", "\\\\").replace("`", "\\`") + "`";
    }

    @Override
    public Optional<String> getUpsertStatement(String tableName, String[] fieldNames, String[] uniqueKeyFields) {
        throw new ClickHouseRefusalException(NO_UPSERT + " (table " + tableName + ", primary key "
                + String.join(", ", uniqueKeyFields) + ")");
    }

    @Override
    public String getUpdateStatement(String tableName, String[] fieldNames, String[] conditionFields) {
        throw new ClickHouseRefusalException(NO_UPSERT + " (table " + tableName + ")");
    }

    @Override
    public String getDeleteStatement(String tableName, String[] conditionFields) {
        throw new ClickHouseRefusalException(NO_UPSERT + " (table " + tableName + ")");
    }

    @Override
    public String getRowExistsStatement(String tableName, String[] conditionFields) {
        throw new ClickHouseRefusalException(NO_UPSERT + " (table " + tableName + ")");
    }

    /**
     * The connector's check of each column's root type, and of the element, key and value types
     * inside {@code ARRAY} and {@code MAP}, which it does not look into: a table with a type the
     * converter cannot carry fails when it is planned, naming the column.
     */
    @Override
    public void validate(RowType rowType) throws ValidationException {
        super.validate(rowType);
        for (RowType.RowField f : rowType.getFields()) {
            for (LogicalType nested : f.getType().getChildren()) {
                nestedSupported(f.getName(), nested);
            }
        }
    }

    private void nestedSupported(String column, LogicalType t) {
        if (!supportedTypes().contains(t.getTypeRoot())) {
            throw new ValidationException(String.format(
                    "The ClickHouse dialect doesn't support type %s inside column '%s'.", t, column));
        }
        for (LogicalType nested : t.getChildren()) {
            nestedSupported(column, nested);
        }
    }

    @Override
    public Optional<Range> timestampPrecisionRange() {
        return Optional.of(Range.of(0, 9));
    }

    @Override
    public Optional<Range> decimalPrecisionRange() {
        return Optional.of(Range.of(1, 76));
    }

    @Override
    public Set<LogicalTypeRoot> supportedTypes() {
        return EnumSet.of(
                LogicalTypeRoot.CHAR,
                LogicalTypeRoot.VARCHAR,
                LogicalTypeRoot.BOOLEAN,
                LogicalTypeRoot.TINYINT,
                LogicalTypeRoot.SMALLINT,
                LogicalTypeRoot.INTEGER,
                LogicalTypeRoot.BIGINT,
                LogicalTypeRoot.DECIMAL,
                LogicalTypeRoot.FLOAT,
                LogicalTypeRoot.DOUBLE,
                LogicalTypeRoot.DATE,
                LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE,
                LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
                LogicalTypeRoot.MAP,
                LogicalTypeRoot.ARRAY);
    }
}
