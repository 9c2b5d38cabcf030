package io.tributary.jdbc;

import org.apache.flink.connector.jdbc.core.database.dialect.AbstractDialectConverter;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Converts between Flink's internal values and what ClickHouse's JDBC driver reads and writes,
 * nested types included ({@code Map}, {@code Array}, maps in arrays). Values the Flink type cannot
 * hold exactly (a {@code UInt64} of 2^63 or more in a {@code BIGINT}) fail naming the column
 * rather than wrap around. Timestamps travel as instants ({@code TIMESTAMP_LTZ}) or as UTC wall
 * clock ({@code TIMESTAMP}), whatever the JVM's time zone.
 */
final class ClickHouseDialectConverter extends AbstractDialectConverter {
    private static final long serialVersionUID = 1L;

    ClickHouseDialectConverter(RowType rowType) {
        super(rowType);
    }

    @Override
    public String converterName() {
        return "ClickHouse";
    }

    @Override
    protected JdbcDeserializationConverter createInternalConverter(LogicalType type) {
        return v -> toInternal(type, v, ZoneOffset.UTC);
    }

    /**
     * Reads timestamps as instants ({@code getObject(i, Instant.class)}), which the driver gets
     * right in every JVM time zone; the plain {@code getObject} gives a {@code Timestamp} of the
     * column's wall clock read in the JVM's zone. Elements of arrays come only that way: they are
     * read in the zone of the column's type, or UTC when it names none.
     */
    @Override
    public RowData toInternal(ResultSet resultSet) throws SQLException {
        GenericRowData row = new GenericRowData(rowType.getFieldCount());
        ResultSetMetaData meta = resultSet.getMetaData();
        for (int pos = 0; pos < rowType.getFieldCount(); pos++) {
            LogicalType t = fieldTypes[pos];
            boolean timestamp = t.getTypeRoot() == LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE
                    || t.getTypeRoot() == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE;
            Object v = timestamp ? resultSet.getObject(pos + 1, Instant.class) : resultSet.getObject(pos + 1);
            row.setField(pos, toInternal(t, v, timestamp ? ZoneOffset.UTC : zone(meta.getColumnTypeName(pos + 1))));
        }
        return row;
    }

    private static final Pattern ZONE = Pattern.compile("DateTime(?:64)?\\((?:\\s*\\d+\\s*,)?\\s*'([^']+)'\\s*\\)");

    /** The time zone a ClickHouse type names ({@code Array(DateTime64(9, 'Asia/Tokyo'))}), or UTC. */
    static ZoneId zone(String chType) {
        Matcher m = ZONE.matcher(chType == null ? "" : chType);
        return m.find() ? ZoneId.of(m.group(1)) : ZoneOffset.UTC;
    }

    @Override
    protected JdbcSerializationConverter createNullableExternalConverter(LogicalType type) {
        RowData.FieldGetter[] getter = new RowData.FieldGetter[1];
        return (row, index, statement) -> {
            if (row.isNullAt(index)) {
                statement.setNull(index, Types.NULL);
                return;
            }
            if (getter[0] == null) {
                getter[0] = RowData.createFieldGetter(type, index);
            }
            statement.setObject(index, toJdbc(type, getter[0].getFieldOrNull(row)));
        };
    }

    @Override
    protected JdbcSerializationConverter createExternalConverter(LogicalType type) {
        return createNullableExternalConverter(type);
    }

    /** A Flink internal value as the Java object the driver writes. */
    static Object toJdbc(LogicalType type, Object v) {
        if (v == null) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case CHAR:
            case VARCHAR:
                return v.toString();
            case BOOLEAN:
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT:
            case FLOAT:
            case DOUBLE:
                return v;
            case DECIMAL:
                return ((DecimalData) v).toBigDecimal();
            case DATE:
                return LocalDate.ofEpochDay((Integer) v);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return ((TimestampData) v).toLocalDateTime().atOffset(ZoneOffset.UTC).toZonedDateTime();
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return ((TimestampData) v).toInstant().atZone(ZoneOffset.UTC);
            case MAP: {
                MapType m = (MapType) type;
                MapData data = (MapData) v;
                ArrayData keys = data.keyArray();
                ArrayData values = data.valueArray();
                ArrayData.ElementGetter kg = ArrayData.createElementGetter(m.getKeyType());
                ArrayData.ElementGetter vg = ArrayData.createElementGetter(m.getValueType());
                Map<Object, Object> out = new LinkedHashMap<>();
                for (int i = 0; i < data.size(); i++) {
                    out.put(toJdbc(m.getKeyType(), kg.getElementOrNull(keys, i)),
                            toJdbc(m.getValueType(), vg.getElementOrNull(values, i)));
                }
                return out;
            }
            case ARRAY: {
                LogicalType e = ((ArrayType) type).getElementType();
                ArrayData data = (ArrayData) v;
                ArrayData.ElementGetter g = ArrayData.createElementGetter(e);
                List<Object> out = new ArrayList<>(data.size());
                for (int i = 0; i < data.size(); i++) {
                    out.add(toJdbc(e, g.getElementOrNull(data, i)));
                }
                return out;
            }
            default:
                throw new IllegalStateException("ClickHouse dialect: no conversion for " + type + " (validate refuses it)");
        }
    }

    /** What the driver read, as Flink's internal value of {@code type}. */
    static Object toInternal(LogicalType type, Object v, ZoneId zone) throws SQLException {
        if (v == null) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case CHAR:
            case VARCHAR:
                return StringData.fromString(v.toString());
            case BOOLEAN:
                return v instanceof Boolean ? v : ((Number) v).intValue() != 0;
            case TINYINT:
                return (byte) exact(type, v, Byte.MIN_VALUE, Byte.MAX_VALUE);
            case SMALLINT:
                return (short) exact(type, v, Short.MIN_VALUE, Short.MAX_VALUE);
            case INTEGER:
                return (int) exact(type, v, Integer.MIN_VALUE, Integer.MAX_VALUE);
            case BIGINT:
                return exact(type, v, Long.MIN_VALUE, Long.MAX_VALUE);
            case FLOAT:
                return ((Number) v).floatValue();
            case DOUBLE:
                return ((Number) v).doubleValue();
            case DECIMAL: {
                DecimalType d = (DecimalType) type;
                BigDecimal b = v instanceof BigDecimal ? (BigDecimal) v
                        : v instanceof BigInteger ? new BigDecimal((BigInteger) v) : new BigDecimal(v.toString());
                DecimalData out = DecimalData.fromBigDecimal(b, d.getPrecision(), d.getScale());
                if (out == null) {
                    throw new SQLException(b + " does not fit " + type);
                }
                return out;
            }
            case DATE:
                if (v instanceof java.sql.Date) {
                    return (int) ((java.sql.Date) v).toLocalDate().toEpochDay();
                }
                return (int) ((LocalDate) v).toEpochDay();
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return TimestampData.fromLocalDateTime(LocalDateTime.ofInstant(instant(v, zone), ZoneOffset.UTC));
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return TimestampData.fromInstant(instant(v, zone));
            case MAP: {
                MapType m = (MapType) type;
                Map<Object, Object> out = new LinkedHashMap<>();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    out.put(toInternal(m.getKeyType(), e.getKey(), zone), toInternal(m.getValueType(), e.getValue(), zone));
                }
                return new GenericMapData(out);
            }
            case ARRAY: {
                LogicalType e = ((ArrayType) type).getElementType();
                Object a = v instanceof java.sql.Array ? ((java.sql.Array) v).getArray() : v;
                List<?> items = a instanceof List ? (List<?>) a : boxed(a);
                Object[] out = new Object[items.size()];
                for (int i = 0; i < out.length; i++) {
                    out[i] = toInternal(e, items.get(i), zone);
                }
                return new GenericArrayData(out);
            }
            default:
                throw new IllegalStateException("ClickHouse dialect: no conversion for " + type + " (validate refuses it)");
        }
    }

    private static long exact(LogicalType type, Object v, long min, long max) throws SQLException {
        if (v instanceof Boolean) {
            return (Boolean) v ? 1 : 0;
        }
        BigInteger b = v instanceof BigInteger ? (BigInteger) v
                : v instanceof BigDecimal ? ((BigDecimal) v).toBigIntegerExact() : BigInteger.valueOf(((Number) v).longValue());
        if (b.compareTo(BigInteger.valueOf(min)) < 0 || b.compareTo(BigInteger.valueOf(max)) > 0) {
            throw new SQLException(b + " does not fit " + type + " (declare a wider type, DECIMAL(20, 0) for UInt64)");
        }
        return b.longValue();
    }

    /** A driver's timestamp value as an instant; wall clocks ({@code Timestamp}, {@code LocalDateTime}) are in {@code zone}. */
    private static Instant instant(Object v, ZoneId zone) {
        if (v instanceof Instant) {
            return (Instant) v;
        }
        if (v instanceof ZonedDateTime) {
            return ((ZonedDateTime) v).toInstant();
        }
        if (v instanceof OffsetDateTime) {
            return ((OffsetDateTime) v).toInstant();
        }
        if (v instanceof java.sql.Timestamp) {
            return ((java.sql.Timestamp) v).toLocalDateTime().atZone(zone).toInstant();
        }
        return ((LocalDateTime) v).atZone(zone).toInstant();
    }

    private static List<Object> boxed(Object array) {
        int n = java.lang.reflect.Array.getLength(array);
        List<Object> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(java.lang.reflect.Array.get(array, i));
        }
        return out;
    }
}
