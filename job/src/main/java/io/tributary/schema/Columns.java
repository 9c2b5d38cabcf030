package io.tributary.schema;

import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.transcode.StringMap;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Typed column factories: each ties a ClickHouse type to the {@link RowBinaryWriter} method that
 * encodes it.
 */
public final class Columns {

    static final String STRING_MAP = "Map(LowCardinality(String), String)";

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

    public static <R> Column<R> stringMap(String name, String codec, Function<R, StringMap> value) {
        return written(name, STRING_MAP, codec, (r, out) -> writeStringMap(out, value.apply(r)));
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

    public static <R> NestedField<R> nestedStringMap(
            String name, IndexedValue<R, StringMap> value) {
        return new NestedField<>(
                name, STRING_MAP, (r, i, out) -> writeStringMap(out, value.get(r, i)));
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
