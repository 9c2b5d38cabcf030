package io.tributary.udf;

import io.tributary.otlp.Signal;
import io.tributary.rowbinary.RowBinaryReader;
import io.tributary.schema.ChType;
import io.tributary.schema.SchemaFlavor;
import io.tributary.schema.TableLayout;
import io.tributary.tables.OtelTable;
import io.tributary.tables.TableLayouts;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.DataType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The Flink row type of a signal's exporter tables, and the reader that turns the rows the job
 * encodes for them (RowBinary, {@code clickhouse.schema = map}) into Flink's internal rows: the SQL
 * functions' values are the job's, decoded once by the job's own code and read back here.
 *
 * <p>The columns are the tables' own, named as there, typed from the one schema source: {@code
 * String} (and {@code LowCardinality(String)}) as {@code STRING}, {@code DateTime64(9)} as {@code
 * TIMESTAMP_LTZ(9)}, {@code DateTime} as {@code TIMESTAMP_LTZ(0)}, {@code UInt8} as {@code
 * SMALLINT}, {@code Int32} as {@code INT}, {@code UInt32}, {@code Int64} and {@code UInt64} as
 * {@code BIGINT} ({@code UInt64} as its 64 bits: 2^63 and above read as negative), {@code Float64}
 * as {@code DOUBLE}, {@code Bool} as {@code BOOLEAN}, {@code Map(K, V)} as {@code MAP<K, V>},
 * {@code Array(T)} as {@code ARRAY<T>} ({@code Array(UInt64)} as {@code ARRAY<BIGINT>}, ...). The
 * columns of a {@code Nested} structure ({@code Events.Timestamp}, {@code Events.Name}, ...) become
 * one {@code ARRAY<ROW<Timestamp, Name, ...>>} column ({@code Events}). Metrics, whose points go to
 * five tables, get the union of their columns (those a point's table lacks are NULL) after a
 * {@code MetricType} column naming the table: {@code gauge}, {@code sum}, {@code histogram},
 * {@code exponential_histogram} or {@code summary}.
 */
public final class OtlpRowType {

    /** The name of the column that says which metrics table a point belongs to. */
    public static final String METRIC_TYPE = "MetricType";

    private final List<String> names;
    private final List<DataType> types;
    private final EnumMap<OtelTable, TablePlan> plans = new EnumMap<>(OtelTable.class);

    private OtlpRowType(List<String> names, List<DataType> types) {
        this.names = names;
        this.types = types;
    }

    /** The row type of {@code signal}'s rows, as the job writes them into tables it created. */
    public static OtlpRowType of(Signal signal) {
        TableLayouts layouts = TableLayouts.canonical(SchemaFlavor.MAP);
        List<OtelTable> tables = new ArrayList<>();
        for (OtelTable t : OtelTable.values()) {
            if (t.signal() == signal) {
                tables.add(t);
            }
        }
        boolean metrics = signal == Signal.METRICS;
        List<String> names = new ArrayList<>();
        List<DataType> types = new ArrayList<>();
        if (metrics) {
            names.add(METRIC_TYPE);
            types.add(DataTypes.STRING());
        }
        OtlpRowType type = new OtlpRowType(names, types);
        for (OtelTable t : tables) {
            type.plans.put(t, type.plan(t, layouts.of(t)));
        }
        return type;
    }

    /** The value of {@link #METRIC_TYPE} for a metrics table: its name after {@code otel_metrics_}. */
    public static String metricType(OtelTable t) {
        return t.name().substring("METRICS_".length()).toLowerCase(Locale.ROOT);
    }

    /** Column names, in order. */
    public List<String> names() {
        return List.copyOf(names);
    }

    /** {@code ROW<...>} of every column. */
    public DataType dataType() {
        DataTypes.Field[] fields = new DataTypes.Field[names.size()];
        for (int i = 0; i < fields.length; i++) {
            fields[i] = DataTypes.FIELD(names.get(i), types.get(i));
        }
        return DataTypes.ROW(fields);
    }

    /**
     * Reads one row of {@code table} as Flink's internal {@link RowData}, of the fields {@code
     * projection} names (their indexes in this type, in the order wanted); the table's other
     * columns are skipped, not decoded.
     */
    public RowData read(OtelTable table, RowBinaryReader in, int[] projection) {
        TablePlan p = plans.get(table);
        if (p == null) {
            throw new IllegalArgumentException(table + " rows are not of this type");
        }
        int[] out = p.outputOf(projection, names.size());
        GenericRowData row = new GenericRowData(projection.length);
        if (p.metricType != null && out[0] >= 0) {
            row.setField(out[0], StringData.fromString(p.metricType));
        }
        Object[][] nested = null;
        for (int c = 0; c < p.columns.length; c++) {
            Column col = p.columns[c];
            int target = col.member < 0 ? out[col.field] : out[p.nestedFields[col.group]];
            if (target < 0) {
                col.decoder.skip(in);
            } else if (col.member < 0) {
                Object v = col.decoder.readInternal(in);
                row.setField(target, v instanceof Object[] ? new GenericArrayData((Object[]) v) : v);
            } else {
                if (nested == null) {
                    nested = new Object[p.nestedFields.length][];
                }
                if (nested[col.group] == null) {
                    nested[col.group] = new Object[p.nestedWidth[col.group]];
                }
                nested[col.group][col.member] = col.decoder.readInternal(in);
            }
        }
        if (nested != null) {
            for (int g = 0; g < nested.length; g++) {
                if (nested[g] != null) {
                    row.setField(out[p.nestedFields[g]], zipInternal(nested[g]));
                }
            }
        }
        return row;
    }

    private static GenericArrayData zipInternal(Object[] columns) {
        int n = 0;
        for (Object c : columns) {
            n = Math.max(n, c == null ? 0 : ((Object[]) c).length);
        }
        GenericRowData[] out = new GenericRowData[n];
        for (int i = 0; i < n; i++) {
            GenericRowData r = new GenericRowData(columns.length);
            for (int m = 0; m < columns.length; m++) {
                Object[] c = (Object[]) columns[m];
                r.setField(m, c != null && i < c.length ? c[i] : null);
            }
            out[i] = r;
        }
        return new GenericArrayData(out);
    }

    // ---- planning -------------------------------------------------------------------------

    /** How one table's columns land in the row. */
    private static final class TablePlan {
        String metricType;
        Column[] columns;
        /** Per Nested group: the row field it fills and its member count. */
        int[] nestedFields;
        int[] nestedWidth;
        private int[] lastProjection;
        private int[] lastOutput;

        /** For each field of the type, where the projection puts it, or -1 (cached for the last projection). */
        int[] outputOf(int[] projection, int fields) {
            if (projection != lastProjection) {
                int[] o = new int[fields];
                Arrays.fill(o, -1);
                for (int i = 0; i < projection.length; i++) {
                    o[projection[i]] = i;
                }
                lastOutput = o;
                lastProjection = projection;
            }
            return lastOutput;
        }
    }

    /** One column of the table's RowBinary: its decoder and where its value goes. */
    private record Column(Decoder decoder, int field, int group, int member) {}

    private TablePlan plan(OtelTable t, TableLayout<?> layout) {
        List<String> columnNames = layout.columnNames();
        List<ChType> columnTypes = headerTypes(layout.header(), columnNames.size());
        TablePlan p = new TablePlan();
        p.metricType = t.signal() == Signal.METRICS ? metricType(t) : null;
        p.columns = new Column[columnNames.size()];
        List<String> groups = new ArrayList<>();
        List<Integer> groupFields = new ArrayList<>();
        Map<String, List<DataTypes.Field>> members = new LinkedHashMap<>();
        for (int c = 0; c < columnNames.size(); c++) {
            String name = columnNames.get(c);
            ChType type = columnTypes.get(c).onTheWire();
            Decoder d = decoder(type, name, t);
            int dot = name.indexOf('.');
            if (dot < 0) {
                p.columns[c] = new Column(d, field(name, d.type, t), -1, -1);
                continue;
            }
            if (!type.is("Array")) {
                throw new IllegalStateException(t + "." + name + ": a Nested column must be an Array, not " + type);
            }
            String group = name.substring(0, dot);
            int g = groups.indexOf(group);
            if (g < 0) {
                g = groups.size();
                groups.add(group);
                groupFields.add(-1);
                members.put(group, new ArrayList<>());
            }
            List<DataTypes.Field> ms = members.get(group);
            ms.add(DataTypes.FIELD(name.substring(dot + 1), d.elementType));
            p.columns[c] = new Column(d, -1, g, ms.size() - 1);
        }
        p.nestedFields = new int[groups.size()];
        p.nestedWidth = new int[groups.size()];
        for (int g = 0; g < groups.size(); g++) {
            List<DataTypes.Field> ms = members.get(groups.get(g));
            DataType rowArray = DataTypes.ARRAY(DataTypes.ROW(ms.toArray(new DataTypes.Field[0])));
            p.nestedFields[g] = field(groups.get(g), rowArray, t);
            p.nestedWidth[g] = ms.size();
        }
        return p;
    }

    /** The index of the row field {@code name}, added when new; the same name must mean the same type in every table. */
    private int field(String name, DataType type, OtelTable t) {
        int i = names.indexOf(name);
        if (i < 0) {
            names.add(name);
            types.add(type);
            return names.size() - 1;
        }
        if (!Objects.equals(types.get(i), type)) {
            throw new IllegalStateException(t + "." + name + " is " + type + " but " + types.get(i) + " elsewhere");
        }
        return i;
    }

    /** The column types of a {@code RowBinaryWithNamesAndTypes} header of {@code n} columns. */
    private static List<ChType> headerTypes(byte[] header, int n) {
        RowBinaryReader r = new RowBinaryReader(header, 0, header.length);
        if (r.readVarUInt() != n) {
            throw new IllegalStateException("header column count differs from the layout's");
        }
        for (int i = 0; i < n; i++) {
            r.readString();
        }
        List<ChType> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(ChType.parse(r.readString()));
        }
        return out;
    }

    // ---- values ---------------------------------------------------------------------------

    /** Reads one value of a ClickHouse type as the Java object of its Flink type's default conversion class. */
    private abstract static class Decoder {
        final DataType type;
        /** For an array: the element's type; else null. */
        final DataType elementType;

        Decoder(DataType type, DataType elementType) {
            this.type = type;
            this.elementType = elementType;
        }

        /** The value as Flink's internal data structure ({@code StringData}, {@code TimestampData}, ...). */
        abstract Object readInternal(RowBinaryReader in);

        abstract void skip(RowBinaryReader in);
    }

    /** A fixed-width value ({@code width} bytes), or a length-prefixed one ({@code width} -1). */
    private static Decoder scalar(DataType type, Function<RowBinaryReader, Object> internal, int width) {
        return new Decoder(type, null) {
            @Override
            Object readInternal(RowBinaryReader in) {
                return internal.apply(in);
            }

            @Override
            void skip(RowBinaryReader in) {
                if (width < 0) {
                    in.skipString();
                } else {
                    in.skip(width);
                }
            }
        };
    }

    private static TimestampData timestampOfNanos(long n) {
        return TimestampData.fromEpochMillis(Math.floorDiv(n, 1_000_000L), (int) Math.floorMod(n, 1_000_000L));
    }

    private static Decoder decoder(ChType type, String column, OtelTable t) {
        switch (type.name()) {
            case "String":
                return scalar(DataTypes.STRING(), in -> StringData.fromBytes(in.readStringBytes()), -1);
            case "Bool":
                return scalar(DataTypes.BOOLEAN(), RowBinaryReader::readBool, 1);
            case "UInt8":
                return scalar(DataTypes.SMALLINT(), in -> (short) in.readUInt8(), 1);
            case "Int32":
                return scalar(DataTypes.INT(), RowBinaryReader::readInt32, 4);
            case "UInt32":
                return scalar(DataTypes.BIGINT(), RowBinaryReader::readUInt32, 4);
            case "UInt64":
            case "Int64":
                return scalar(DataTypes.BIGINT(), RowBinaryReader::readInt64, 8);
            case "Float64":
                return scalar(DataTypes.DOUBLE(), RowBinaryReader::readFloat64, 8);
            case "DateTime":
                return scalar(DataTypes.TIMESTAMP_LTZ(0), in -> TimestampData.fromEpochMillis(in.readDateTime() * 1000), 4);
            case "DateTime64":
                if (!type.args().isEmpty() && type.arg(0).name().equals("9")) {
                    return scalar(DataTypes.TIMESTAMP_LTZ(9), in -> timestampOfNanos(in.readDateTime64()), 8);
                }
                break;
            case "Map": {
                Decoder k = decoder(type.arg(0).onTheWire(), column, t);
                Decoder v = decoder(type.arg(1).onTheWire(), column, t);
                return new Decoder(DataTypes.MAP(k.type, v.type), null) {
                    @Override
                    Object readInternal(RowBinaryReader in) {
                        int n = in.readLength();
                        Map<Object, Object> m = new LinkedHashMap<>(Math.max(4, n * 2));
                        for (int i = 0; i < n; i++) {
                            Object key = k.readInternal(in);
                            m.put(key, v.readInternal(in));
                        }
                        return new GenericMapData(m);
                    }

                    @Override
                    void skip(RowBinaryReader in) {
                        int n = in.readLength();
                        for (int i = 0; i < n; i++) {
                            k.skip(in);
                            v.skip(in);
                        }
                    }
                };
            }
            case "Array": {
                Decoder e = decoder(type.arg(0).onTheWire(), column, t);
                return new Decoder(DataTypes.ARRAY(e.type), e.type) {
                    @Override
                    Object readInternal(RowBinaryReader in) {
                        int n = in.readLength();
                        Object[] a = new Object[n];
                        for (int i = 0; i < n; i++) {
                            a[i] = e.readInternal(in);
                        }
                        return a; // the caller wraps it (GenericArrayData), or zips it with the other Nested columns
                    }

                    @Override
                    void skip(RowBinaryReader in) {
                        int n = in.readLength();
                        for (int i = 0; i < n; i++) {
                            e.skip(in);
                        }
                    }
                };
            }
            default:
                break;
        }
        throw new IllegalStateException(t + "." + column + ": no Flink type for ClickHouse " + type);
    }
}
