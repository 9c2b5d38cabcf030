package io.tributary.schema;

import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.transcode.Attributes;
import io.tributary.transcode.StringMap;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/**
 * Typed column factories: each ties a ClickHouse type to the {@link RowBinaryWriter} method that
 * encodes it.
 */
public final class Columns {

    static final String STRING_MAP = "Map(LowCardinality(String), String)";
    static final String KEYS = "Array(LowCardinality(String))";

    private Columns() {}

    public static <R> Column<R> string(String name, String codec, Function<R, String> value) {
        return written(name, "String", codec, (r, out) -> out.writeString(value.apply(r)));
    }

    public static <R> Column<R> lowCardinalityString(
            String name, String codec, Function<R, String> value) {
        return written(
                name,
                "LowCardinality(String)",
                codec,
                (r, out) -> out.writeLowCardinalityString(value.apply(r)));
    }

    public static <R> Column<R> dateTime64Nanos(
            String name, String codec, ToLongFunction<R> epochNanos) {
        return written(
                name,
                "DateTime64(9)",
                codec,
                (r, out) -> out.writeDateTime64Nanos(epochNanos.applyAsLong(r)));
    }

    public static <R> Column<R> uint64(String name, String codec, ToLongFunction<R> value) {
        return written(name, "UInt64", codec, (r, out) -> out.writeUInt64(value.applyAsLong(r)));
    }

    /** {@code DateTime}: seconds since the epoch as UInt32, from nanoseconds (truncated, as Go's Unix()). */
    public static <R> Column<R> dateTimeFromNanos(String name, String codec, ToLongFunction<R> epochNanos) {
        return written(
                name,
                "DateTime",
                codec,
                (r, out) -> out.writeInt32((int) Long.divideUnsigned(epochNanos.applyAsLong(r), 1_000_000_000L)));
    }

    public static <R> Column<R> uint8(String name, String codec, ToIntFunction<R> value) {
        return written(name, "UInt8", codec, (r, out) -> out.writeUInt8(value.applyAsInt(r)));
    }

    public static <R> Column<R> uint32(String name, String codec, ToIntFunction<R> value) {
        return written(name, "UInt32", codec, (r, out) -> out.writeInt32(value.applyAsInt(r)));
    }

    public static <R> Column<R> int32(String name, String codec, ToIntFunction<R> value) {
        return written(name, "Int32", codec, (r, out) -> out.writeInt32(value.applyAsInt(r)));
    }

    public static <R> Column<R> float64(String name, String codec, ToDoubleFunction<R> value) {
        return written(name, "Float64", codec, (r, out) -> out.writeFloat64(value.applyAsDouble(r)));
    }

    /** {@code Boolean} (an alias of Bool): one byte. */
    public static <R> Column<R> bool(String name, String codec, Predicate<R> value) {
        return written(name, "Boolean", codec, (r, out) -> out.writeBool(value.test(r)));
    }

    /** {@code Array(UInt64)}. */
    public static <R> Column<R> uint64Array(String name, String codec, Function<R, List<Long>> value) {
        return written(
                name,
                "Array(UInt64)",
                codec,
                (r, out) -> {
                    List<Long> v = value.apply(r);
                    out.writeArrayLength(v.size());
                    for (int i = 0, n = v.size(); i < n; i++) {
                        out.writeUInt64(v.get(i));
                    }
                });
    }

    /** {@code Array(Float64)}. */
    public static <R> Column<R> float64Array(String name, String codec, Function<R, List<Double>> value) {
        return written(
                name,
                "Array(Float64)",
                codec,
                (r, out) -> {
                    List<Double> v = value.apply(r);
                    out.writeArrayLength(v.size());
                    for (int i = 0, n = v.size(); i < n; i++) {
                        out.writeFloat64(v.get(i));
                    }
                });
    }

    /**
     * An attributes column in the table's flavour: {@code Map(LowCardinality(String), String)}
     * for {@code map}; for {@code json} a {@code JSON} column in native binary encoding followed by
     * its {@code <name>Keys Array(LowCardinality(String))} column.
     */
    public static <R> List<Column<R>> attributes(
            String name, String codec, SchemaFlavor flavor, Function<R, Attributes> value) {
        if (flavor == SchemaFlavor.MAP) {
            return List.of(written(name, STRING_MAP, codec, (r, out) -> writeStringMap(out, value.apply(r).asStringMap())));
        }
        return List.of(
                written(name, "JSON", codec, (r, out) -> value.apply(r).writeJson(out)),
                written(name + "Keys", KEYS, codec, (r, out) -> value.apply(r).writeJsonKeys(out)));
    }

    /** A {@code MATERIALIZED} column: declared in the DDL, computed by ClickHouse, never written. */
    public static <R> Column<R> materialized(String name, String type, String codec, String expression) {
        return new Column<>(name, type, codec, List.of(), "MATERIALIZED " + expression, null);
    }

    /** An {@code ALIAS} column: declared in the DDL, computed by ClickHouse, never written. */
    public static <R> Column<R> alias(String name, String type, String expression) {
        return new Column<>(name, type, "", List.of(), "ALIAS " + expression, null);
    }

    /**
     * A {@code Nested} column; ClickHouse flattens it to one {@code Array} column per field, all
     * of the same length, named {@code Name.Field} in the INSERT.
     */
    @SafeVarargs
    public static <R> Column<R> nested(
            String name, String codec, NestedLength<R> length, NestedField<R>... fields) {
        StringBuilder type = new StringBuilder("Nested (\n");
        List<String> insertNames = new ArrayList<>(fields.length);
        for (int i = 0; i < fields.length; i++) {
            type.append("        ").append(fields[i].name()).append(' ').append(fields[i].type());
            type.append(i + 1 < fields.length ? ",\n" : "\n");
            insertNames.add(name + "." + fields[i].name());
        }
        type.append("    )");
        NestedField<R>[] fs = fields.clone();
        ColumnWriter<R> writer =
                (r, out) -> {
                    int n = length.of(r);
                    for (NestedField<R> f : fs) {
                        out.writeArrayLength(n);
                        for (int i = 0; i < n; i++) {
                            f.writer().write(r, i, out);
                        }
                    }
                };
        return new Column<>(name, type.toString(), codec, List.copyOf(insertNames), "", writer);
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

    /** A field of a Nested column. */
    public record NestedField<R>(String name, String type, ElementWriter<R> writer) {}

    public static <R> NestedField<R> nestedDateTime64Nanos(String name, IndexedLong<R> value) {
        return new NestedField<>(
                name, "DateTime64(9)", (r, i, out) -> out.writeDateTime64Nanos(value.get(r, i)));
    }

    public static <R> NestedField<R> nestedString(String name, IndexedValue<R, String> value) {
        return new NestedField<>(name, "String", (r, i, out) -> out.writeString(value.get(r, i)));
    }

    public static <R> NestedField<R> nestedLowCardinalityString(
            String name, IndexedValue<R, String> value) {
        return new NestedField<>(
                name,
                "LowCardinality(String)",
                (r, i, out) -> out.writeLowCardinalityString(value.get(r, i)));
    }

    /** Attributes inside a Nested column: a Map, or for {@code json} a JSON value (no keys column). */
    public static <R> NestedField<R> nestedAttributes(
            String name, SchemaFlavor flavor, IndexedValue<R, Attributes> value) {
        if (flavor == SchemaFlavor.MAP) {
            return new NestedField<>(
                    name, STRING_MAP, (r, i, out) -> writeStringMap(out, value.get(r, i).asStringMap()));
        }
        return new NestedField<>(name, "JSON", (r, i, out) -> value.get(r, i).writeJson(out));
    }

    public static <R> NestedField<R> nestedFloat64(String name, IndexedDouble<R> value) {
        return new NestedField<>(name, "Float64", (r, i, out) -> out.writeFloat64(value.get(r, i)));
    }

    public static <R> NestedField<R> nestedDateTimeFromNanos(String name, IndexedLong<R> epochNanos) {
        return new NestedField<>(
                name,
                "DateTime",
                (r, i, out) -> out.writeInt32((int) Long.divideUnsigned(epochNanos.get(r, i), 1_000_000_000L)));
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

    static void writeStringMap(RowBinaryWriter out, StringMap m) {
        int n = m.size();
        out.writeMapSize(n);
        for (int i = 0; i < n; i++) {
            out.writeString(m.key(i));
            out.writeString(m.value(i));
        }
    }

    private static <R> Column<R> written(
            String name, String type, String codec, ColumnWriter<R> writer) {
        return new Column<>(name, type, codec, List.of(name), "", writer);
    }
}
