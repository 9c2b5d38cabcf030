package io.tributary.schema;

import io.tributary.rowbinary.RowBinaryWriter;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/**
 * Typed column factories: each ties a ClickHouse type to the {@link RowBinaryWriter} method that
 * encodes it, and knows the other types a table of another exporter version may give the column
 * that hold the value without loss ({@link Field.Binder}): wider integers (UInt8 as UInt32 or
 * Int32, UInt64 as Int64 for durations and counts), {@code LowCardinality} or not, {@code Nullable},
 * other {@code DateTime64} precisions (truncated) and time zones, {@code DateTime} as {@code
 * DateTime64}, map keys and values as {@code String} or {@code LowCardinality(String)}.
 */
public final class Columns {

    static final String STRING_MAP = "Map(LowCardinality(String), String)";
    static final String KEYS = "Array(LowCardinality(String))";

    private Columns() {}

    public static <R> Column<R> string(String name, String codec, Function<R, String> value) {
        return plain(name, "String", "String", codec, strings(value));
    }

    public static <R> Column<R> lowCardinalityString(String name, String codec, Function<R, String> value) {
        return plain(name, "LowCardinality(String)", "LowCardinality(String)", codec, strings(value));
    }

    /** {@code String} whose value the row writes itself (a length and bytes, as a String is written). */
    public static <R> Column<R> stringBytes(String name, String codec, ColumnWriter<R> value) {
        return plain(name, "String", "String", codec, stringWriters(value));
    }

    /** {@code LowCardinality(String)} whose value the row writes itself. */
    public static <R> Column<R> lowCardinalityStringBytes(String name, String codec, ColumnWriter<R> value) {
        return plain(name, "LowCardinality(String)", "LowCardinality(String)", codec, stringWriters(value));
    }

    public static <R> Column<R> dateTime64Nanos(String name, String codec, ToLongFunction<R> epochNanos) {
        return plain(name, "DateTime64(9)", "DateTime64(9)", codec, t -> nullable(t, w -> {
            ChType at = dateTime64(w);
            if (at == null) {
                return null;
            }
            long div = divisor(at);
            return div == 1 ? (r, out) -> out.writeDateTime64Nanos(epochNanos.applyAsLong(r))
                    : (r, out) -> out.writeInt64(Long.divideUnsigned(epochNanos.applyAsLong(r), div));
        }));
    }

    public static <R> Column<R> uint64(String name, String codec, ToLongFunction<R> value) {
        return plain(name, "UInt64", "UInt64", codec, integers(IntRange.UINT64, value));
    }

    /**
     * {@code DateTime}: seconds since the epoch as UInt32, from nanoseconds (truncated, as Go's
     * Unix()); as {@code DateTime64(p)} (tables of exporters before v0.157) the nanoseconds at
     * that precision.
     */
    public static <R> Column<R> dateTimeFromNanos(String name, String codec, ToLongFunction<R> epochNanos) {
        return plain(name, "DateTime", "DateTime", codec, t -> nullable(t, w -> {
            if (w.is("DateTime")) {
                return (r, out) -> out.writeInt32((int) Long.divideUnsigned(epochNanos.applyAsLong(r), 1_000_000_000L));
            }
            ChType at = dateTime64(w);
            if (at == null) {
                return null;
            }
            long div = divisor(at);
            return (r, out) -> out.writeInt64(Long.divideUnsigned(epochNanos.applyAsLong(r), div));
        }));
    }

    public static <R> Column<R> uint8(String name, String codec, ToIntFunction<R> value) {
        return plain(name, "UInt8", "UInt8", codec, integers(IntRange.UINT8, value::applyAsInt));
    }

    public static <R> Column<R> uint32(String name, String codec, ToIntFunction<R> value) {
        return plain(name, "UInt32", "UInt32", codec, integers(IntRange.UINT32, r -> value.applyAsInt(r) & 0xFFFFFFFFL));
    }

    public static <R> Column<R> int32(String name, String codec, ToIntFunction<R> value) {
        return plain(name, "Int32", "Int32", codec, integers(IntRange.INT32, value::applyAsInt));
    }

    public static <R> Column<R> float64(String name, String codec, ToDoubleFunction<R> value) {
        return plain(name, "Float64", "Float64", codec, t -> nullable(t, w -> w.is("Float64")
                ? (r, out) -> out.writeFloat64(value.applyAsDouble(r)) : null));
    }

    /** {@code Boolean} (an alias of Bool, which the server prints): one byte. */
    public static <R> Column<R> bool(String name, String codec, Predicate<R> value) {
        return plain(name, "Boolean", "Bool", codec, integers(IntRange.BOOL, r -> value.test(r) ? 1 : 0));
    }

    /** {@code Array(UInt64)}. */
    public static <R> Column<R> uint64Array(String name, String codec, Function<R, List<Long>> value) {
        return plain(name, "Array(UInt64)", "Array(UInt64)", codec, t -> nullable(t, w -> {
            if (!w.is("Array") || intWidth(w.arg(0).onTheWire(), IntRange.UINT64) != 8) {
                return null;
            }
            return (r, out) -> {
                List<Long> v = value.apply(r);
                out.writeArrayLength(v.size());
                for (int i = 0, n = v.size(); i < n; i++) {
                    out.writeUInt64(v.get(i));
                }
            };
        }));
    }

    /** {@code Int64}. */
    public static <R> Column<R> int64(String name, String codec, ToLongFunction<R> value) {
        return plain(name, "Int64", "Int64", codec, t -> nullable(t, w -> w.is("Int64")
                ? (r, out) -> out.writeInt64(value.applyAsLong(r)) : null));
    }

    /**
     * A column of {@code type} whose value the row writes itself in RowBinary, such as {@code
     * Array(LowCardinality(String))} or {@code Map(LowCardinality(String), String)}: it takes a
     * table's column whose type has the same bytes on the wire ({@code LowCardinality} or not, at
     * any depth; {@code Nullable} around the whole).
     */
    public static <R> Column<R> written(String name, String type, String codec, ColumnWriter<R> value) {
        String wire = wireForm(ChType.parse(type));
        return plain(name, type, type, codec, t -> nullable(t, w -> wireForm(w).equals(wire) ? value : null));
    }

    /** The type without {@code LowCardinality} at any depth. */
    private static String wireForm(ChType t) {
        if (t.isLiteral()) {
            return t.name();
        }
        if (t.is("LowCardinality") && t.args().size() == 1) {
            return wireForm(t.arg(0));
        }
        if (t.args().isEmpty()) {
            return t.name();
        }
        StringBuilder sb = new StringBuilder(t.name()).append('(');
        for (int i = 0; i < t.args().size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(wireForm(t.arg(i)));
        }
        return sb.append(')').toString();
    }

    /** {@code Array(Float64)}. */
    public static <R> Column<R> float64Array(String name, String codec, Function<R, List<Double>> value) {
        return plain(name, "Array(Float64)", "Array(Float64)", codec, t -> nullable(t, w -> {
            if (!w.is("Array") || !w.arg(0).onTheWire().is("Float64")) {
                return null;
            }
            return (r, out) -> {
                List<Double> v = value.apply(r);
                out.writeArrayLength(v.size());
                for (int i = 0, n = v.size(); i < n; i++) {
                    out.writeFloat64(v.get(i));
                }
            };
        }));
    }

    /**
     * {@code Array(UInt64)} whose value the row writes itself: the length, then each element in
     * 8 bytes, little-endian (an {@code Array(Int64)} takes the same bytes).
     */
    public static <R> Column<R> uint64ArrayBytes(String name, String codec, ColumnWriter<R> value) {
        return plain(name, "Array(UInt64)", "Array(UInt64)", codec, t -> nullable(t, w ->
                w.is("Array") && intWidth(w.arg(0).onTheWire(), IntRange.UINT64) == 8 ? value : null));
    }

    /** {@code Array(Float64)} whose value the row writes itself: the length, then each element in 8 bytes. */
    public static <R> Column<R> float64ArrayBytes(String name, String codec, ColumnWriter<R> value) {
        return plain(name, "Array(Float64)", "Array(Float64)", codec, t -> nullable(t, w ->
                w.is("Array") && w.arg(0).onTheWire().is("Float64") ? value : null));
    }

    /**
     * An attributes column in the table's flavour: {@code Map(LowCardinality(String), String)}
     * for {@code map}; for {@code json} a {@code JSON} column in native binary encoding followed by
     * its {@code <name>Keys Array(LowCardinality(String))} column (optional: JSON tables before
     * v0.141 have none).
     */
    public static <R> List<Column<R>> attributes(
            String name, String codec, SchemaFlavor flavor, Function<R, ? extends AttributeValue> value) {
        if (flavor == SchemaFlavor.MAP) {
            return List.of(stringMap(name, codec, (r, out) -> value.apply(r).writeStringMap(out)));
        }
        return List.of(
                plain(name, "JSON", "JSON", codec, t -> nullable(t, w -> plainJson(w)
                        ? (r, out) -> value.apply(r).writeJson(out) : null)),
                Columns.<R>plain(name + "Keys", KEYS, KEYS, codec, t -> nullable(t, w -> w.is("Array") && w.arg(0).onTheWire().is("String")
                        ? (r, out) -> value.apply(r).writeJsonKeys(out) : null)).optional());
    }

    /** A {@code MATERIALIZED} column: declared in the DDL, computed by ClickHouse, never written. */
    public static <R> Column<R> materialized(String name, String type, String codec, String expression) {
        return new Column<>(name, type, codec, "MATERIALIZED " + expression, "", List.of());
    }

    /** An {@code ALIAS} column: declared in the DDL, computed by ClickHouse, never written. */
    public static <R> Column<R> alias(String name, String type, String expression) {
        return new Column<>(name, type, "", "ALIAS " + expression, "", List.of());
    }

    /**
     * A {@code Nested} column; ClickHouse flattens it to one {@code Array} column per field, all
     * of the same length, named {@code Name.Field} in the INSERT.
     */
    @SafeVarargs
    public static <R> Column<R> nested(String name, String codec, NestedLength<R> length, NestedField<R>... fields) {
        StringBuilder type = new StringBuilder("Nested (\n");
        List<Field<R>> fs = new ArrayList<>(fields.length);
        for (int i = 0; i < fields.length; i++) {
            NestedField<R> f = fields[i];
            type.append("        ").append(f.name()).append(' ').append(f.type());
            type.append(i + 1 < fields.length ? ",\n" : "\n");
            fs.add(new Field<>(List.of(name + "." + f.name()), "Array(" + f.serverType() + ")", false, t -> {
                ChType w = t.onTheWire();
                if (!w.is("Array")) {
                    return null;
                }
                ElementWriter<R> e = element(w.arg(0), f.binder());
                if (e == null) {
                    return null;
                }
                return (r, out) -> {
                    int n = length.of(r);
                    out.writeArrayLength(n);
                    for (int k = 0; k < n; k++) {
                        e.write(r, k, out);
                    }
                };
            }));
        }
        type.append("    )");
        return new Column<>(name, type.toString(), codec, "", "", fs);
    }

    /** The element count of a Nested column in a row. */
    @FunctionalInterface
    public interface NestedLength<R> {
        int of(R row);
    }

    /** Writes element {@code i} of a Nested field. */
    @FunctionalInterface
    public interface ElementWriter<R> {
        void write(R row, int i, RowBinaryWriter out);
    }

    /** The element encoder for a ClickHouse element type, or null when it cannot hold the value. */
    @FunctionalInterface
    public interface ElementBinder<R> {
        ElementWriter<R> bind(ChType elementType);
    }

    /**
     * A field of a Nested column.
     *
     * @param type the element type as the DDL writes it
     * @param serverType ... and as the server prints it
     */
    public record NestedField<R>(String name, String type, String serverType, ElementBinder<R> binder) {}

    public static <R> NestedField<R> nestedDateTime64Nanos(String name, IndexedLong<R> value) {
        return new NestedField<>(name, "DateTime64(9)", "DateTime64(9)", t -> {
            ChType at = dateTime64(t);
            if (at == null) {
                return null;
            }
            long div = divisor(at);
            return div == 1 ? (r, i, out) -> out.writeDateTime64Nanos(value.get(r, i))
                    : (r, i, out) -> out.writeInt64(Long.divideUnsigned(value.get(r, i), div));
        });
    }

    public static <R> NestedField<R> nestedString(String name, IndexedValue<R, String> value) {
        return new NestedField<>(name, "String", "String", stringElements(value));
    }

    public static <R> NestedField<R> nestedLowCardinalityString(String name, IndexedValue<R, String> value) {
        return new NestedField<>(name, "LowCardinality(String)", "LowCardinality(String)", stringElements(value));
    }

    /** A String field of a Nested column whose elements the row writes itself. */
    public static <R> NestedField<R> nestedStringBytes(String name, ElementWriter<R> value) {
        return new NestedField<>(name, "String", "String", t -> t.is("String") ? value : null);
    }

    /** A LowCardinality(String) field of a Nested column whose elements the row writes itself. */
    public static <R> NestedField<R> nestedLowCardinalityStringBytes(String name, ElementWriter<R> value) {
        return new NestedField<>(name, "LowCardinality(String)", "LowCardinality(String)", t -> t.is("String") ? value : null);
    }

    /**
     * A {@code Map(LowCardinality(String), String)} column whose value the row writes itself (the
     * entry count, then each key and value as a String).
     */
    public static <R> Column<R> stringMap(String name, String codec, ColumnWriter<R> value) {
        return plain(name, STRING_MAP, STRING_MAP, codec, t -> nullable(t, w -> isStringMap(w) ? value : null));
    }

    /** A {@code Map(LowCardinality(String), String)} field of a Nested column whose elements the row writes itself. */
    public static <R> NestedField<R> nestedStringMap(String name, ElementWriter<R> value) {
        return new NestedField<>(name, STRING_MAP, STRING_MAP, t -> isStringMap(t) ? value : null);
    }

    /** Attributes inside a Nested column: a Map, or for {@code json} a JSON value (no keys column). */
    public static <R> NestedField<R> nestedAttributes(String name, SchemaFlavor flavor,
            IndexedValue<R, ? extends AttributeValue> value) {
        if (flavor == SchemaFlavor.MAP) {
            return nestedStringMap(name, (r, i, out) -> value.get(r, i).writeStringMap(out));
        }
        return new NestedField<>(name, "JSON", "JSON", t -> plainJson(t) ? (r, i, out) -> value.get(r, i).writeJson(out) : null);
    }

    public static <R> NestedField<R> nestedFloat64(String name, IndexedDouble<R> value) {
        return new NestedField<>(name, "Float64", "Float64", t -> t.is("Float64")
                ? (r, i, out) -> out.writeFloat64(value.get(r, i)) : null);
    }

    public static <R> NestedField<R> nestedDateTimeFromNanos(String name, IndexedLong<R> epochNanos) {
        return new NestedField<>(name, "DateTime", "DateTime", t -> {
            if (t.is("DateTime")) {
                return (r, i, out) -> out.writeInt32((int) Long.divideUnsigned(epochNanos.get(r, i), 1_000_000_000L));
            }
            ChType at = dateTime64(t);
            if (at == null) {
                return null;
            }
            long div = divisor(at);
            return (r, i, out) -> out.writeInt64(Long.divideUnsigned(epochNanos.get(r, i), div));
        });
    }

    /** Element {@code i} of a row's nested floating-point field. */
    @FunctionalInterface
    public interface IndexedDouble<R> {
        double get(R row, int i);
    }

    /** Element {@code i} of a row's nested field. */
    @FunctionalInterface
    public interface IndexedValue<R, T> {
        T get(R row, int i);
    }

    /** Element {@code i} of a row's nested numeric field. */
    @FunctionalInterface
    public interface IndexedLong<R> {
        long get(R row, int i);
    }

    // ---------------------------------------------------------------------------------------
    // Binding to a table's type

    private static <R> Column<R> plain(String name, String ddlType, String serverType, String codec, Field.Binder<R> binder) {
        return new Column<>(name, ddlType, codec, "", "", List.of(new Field<>(List.of(name), serverType, false, binder)));
    }

    /**
     * The writer for {@code target} without its {@code LowCardinality}; for {@code Nullable(T)} a
     * 0 byte (not null) before the value in {@code T}.
     */
    private static <R> ColumnWriter<R> nullable(ChType target, Function<ChType, ColumnWriter<R>> base) {
        ChType w = target.onTheWire();
        if (!w.isNullable()) {
            return base.apply(w);
        }
        ColumnWriter<R> inner = base.apply(w.arg(0));
        if (inner == null) {
            return null;
        }
        return (r, out) -> {
            out.writeUInt8(0);
            inner.write(r, out);
        };
    }

    /** An element writer for {@code target} (with a 0 byte first for {@code Nullable}). */
    private static <R> ElementWriter<R> element(ChType target, ElementBinder<R> binder) {
        ChType w = target.onTheWire();
        if (!w.isNullable()) {
            return binder.bind(w);
        }
        ElementWriter<R> inner = binder.bind(w.arg(0));
        if (inner == null) {
            return null;
        }
        return (r, i, out) -> {
            out.writeUInt8(0);
            inner.write(r, i, out);
        };
    }

    private static <R> Field.Binder<R> strings(Function<R, String> value) {
        return t -> nullable(t, w -> w.is("String") ? (r, out) -> out.writeString(value.apply(r)) : null);
    }

    private static <R> Field.Binder<R> stringWriters(ColumnWriter<R> value) {
        return t -> nullable(t, w -> w.is("String") ? value : null);
    }

    private static <R> ElementBinder<R> stringElements(IndexedValue<R, String> value) {
        return t -> t.is("String") ? (r, i, out) -> out.writeString(value.get(r, i)) : null;
    }

    /**
     * {@code JSON}, or {@code JSON(max_dynamic_paths = N, max_dynamic_types = M)}: every path
     * dynamic, which is how the job writes them. Typed paths ({@code JSON(a.b UInt32)}) expect
     * their values untagged, and SKIP clauses are not the job's to second-guess: those are refused.
     */
    private static boolean plainJson(ChType w) {
        if (!w.is("JSON")) {
            return false;
        }
        for (ChType a : w.args()) {
            if (!a.isLiteral() || !a.name().matches("(?i)\\s*max_dynamic_(paths|types)\\s*=\\s*\\d+\\s*")) {
                return false;
            }
        }
        return true;
    }

    private static boolean isStringMap(ChType w) {
        return w.is("Map") && w.args().size() == 2 && w.arg(0).onTheWire().is("String") && w.arg(1).onTheWire().is("String");
    }

    /** {@code DateTime64(p[, tz])} with a precision 0..9, or null. */
    private static ChType dateTime64(ChType w) {
        if (!w.is("DateTime64") || w.args().isEmpty() || !w.arg(0).isLiteral() || !w.arg(0).name().matches("[0-9]")) {
            return null;
        }
        return w;
    }

    /** What nanoseconds are divided by for a {@code DateTime64}'s precision. */
    private static long divisor(ChType dateTime64) {
        long d = 1;
        for (int p = Integer.parseInt(dateTime64.arg(0).name()); p < 9; p++) {
            d *= 10;
        }
        return d;
    }

    /** The values an integer column of the job takes. */
    private enum IntRange {
        BOOL(0, 1),
        UINT8(0, 255),
        UINT32(0, 0xFFFF_FFFFL),
        INT32(Integer.MIN_VALUE, Integer.MAX_VALUE),
        /** All of UInt64: only UInt64 holds it, and Int64 as the same bytes (durations, counts). */
        UINT64(0, Long.MAX_VALUE);

        final long min;
        final long max;

        IntRange(long min, long max) {
            this.min = min;
            this.max = max;
        }
    }

    /** Bytes of an integer type that holds every value of {@code range}, or 0 when none does. */
    private static int intWidth(ChType w, IntRange range) {
        if (range == IntRange.UINT64) {
            return w.is("UInt64") || w.is("Int64") ? 8 : 0;
        }
        long min;
        long max;
        int width;
        switch (w.name()) {
            case "Bool":
                min = 0;
                max = 1;
                width = 1;
                break;
            case "UInt8":
                min = 0;
                max = 255;
                width = 1;
                break;
            case "UInt16":
                min = 0;
                max = 65_535;
                width = 2;
                break;
            case "UInt32":
                min = 0;
                max = 0xFFFF_FFFFL;
                width = 4;
                break;
            case "UInt64":
                min = 0;
                max = Long.MAX_VALUE;
                width = 8;
                break;
            case "Int8":
                min = Byte.MIN_VALUE;
                max = Byte.MAX_VALUE;
                width = 1;
                break;
            case "Int16":
                min = Short.MIN_VALUE;
                max = Short.MAX_VALUE;
                width = 2;
                break;
            case "Int32":
                min = Integer.MIN_VALUE;
                max = Integer.MAX_VALUE;
                width = 4;
                break;
            case "Int64":
                min = Long.MIN_VALUE;
                max = Long.MAX_VALUE;
                width = 8;
                break;
            default:
                return 0;
        }
        return !w.isLiteral() && min <= range.min && range.max <= max ? width : 0;
    }

    private static <R> Field.Binder<R> integers(IntRange range, ToLongFunction<R> value) {
        return t -> nullable(t, w -> {
            switch (intWidth(w, range)) {
                case 1:
                    return (r, out) -> out.writeUInt8((int) value.applyAsLong(r));
                case 2:
                    return (r, out) -> out.writeInt16((short) value.applyAsLong(r));
                case 4:
                    return (r, out) -> out.writeInt32((int) value.applyAsLong(r));
                case 8:
                    return (r, out) -> out.writeInt64(value.applyAsLong(r));
                default:
                    return null;
            }
        });
    }
}
