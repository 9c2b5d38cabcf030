package io.tributary.transcode;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.tributary.rowbinary.RowBinaryWriter;

import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes OTLP attributes as a ClickHouse {@code JSON} value in RowBinary's native binary
 * encoding: the number of paths, then per path its name and its value as a {@code Dynamic} (the
 * binary type tag, then the value's RowBinary bytes). A typed path of the column ({@code JSON(a
 * Int64)}) is written without a tag.
 *
 * <p>The values are the ones ClickHouse stores when it parses the JSON text the collector's
 * exporter sends ({@code json.Marshal(attributes.AsRaw())}): nested maps become dotted paths (as
 * keys with dots do), ints stay {@code Int64}, doubles {@code Float64}, bools {@code Bool},
 * strings {@code String}, bytes their base64 {@code String}, empty values are left out; arrays of
 * one scalar kind become {@code Array(Nullable(T))} (ints mixed with doubles: {@code Float64};
 * empty: {@code Array(Nullable(String))}), arrays of objects {@code Array(JSON(max_dynamic_types=16,
 * max_dynamic_paths=256))}, any other array (mixed kinds, nested arrays) {@code Array(Dynamic)} with
 * objects in it as {@code JSON} values. Where the collector fails the whole batch (NaN or infinity in an
 * attribute), the value is stored as the {@code Float64} it is.
 *
 * <p>See https://clickhouse.com/docs/sql-reference/data-types/data-types-binary-encoding.
 */
public final class BinaryJson {

    static final int NOTHING = 0x00;
    static final int INT64 = 0x0A;
    static final int FLOAT64 = 0x0E;
    static final int STRING = 0x15;
    static final int ARRAY = 0x1E;
    static final int NULLABLE = 0x23;
    static final int DYNAMIC = 0x2B;
    static final int BOOL = 0x2D;
    static final int JSON = 0x30;
    /** {@code Dynamic(max_types=32)}, the default. */
    static final int DYNAMIC_MAX_TYPES = 32;
    /** {@code JSON} with default parameters: version 0, 1024 dynamic paths, 32 types, no typed or skipped paths. */
    private static final byte[] JSON_TYPE = {0x30, 0x00, (byte) 0x80, 0x08, 0x20, 0x00, 0x00, 0x00};
    /**
     * {@code JSON(max_dynamic_types=16, max_dynamic_paths=256)}: the element type ClickHouse infers
     * for an array of objects.
     */
    private static final byte[] ARRAY_ELEMENT_JSON_TYPE = {0x30, 0x00, (byte) 0x80, 0x02, 0x10, 0x00, 0x00, 0x00};
    /** The kind of an array whose elements are all objects. */
    private static final int OBJECTS = -1;

    private BinaryJson() {}

    /** The flattened paths of an attribute list, as {@link Attributes} caches them. */
    static final class Paths {
        /** Leaf paths with a value, in arrival order (a later duplicate replaces an earlier one). */
        final List<String> paths = new ArrayList<>();
        final List<AnyValue> values = new ArrayList<>();
        /** The exporter's {@code UniqueFlattenedAttributes}: every leaf path once, sorted by bytes. */
        final List<String> keys = new ArrayList<>();
        private final Set<String> seen = new HashSet<>();

        void set(List<KeyValue> attributes) {
            paths.clear();
            values.clear();
            keys.clear();
            seen.clear();
            flatten("", attributes);
            // flatten() walked backwards so that the last of duplicate keys wins, as in AsRaw()
            java.util.Collections.reverse(paths);
            java.util.Collections.reverse(values);
            keys.sort(AnyValues::compareUtf8);
        }

        private void flatten(String prefix, List<KeyValue> kvs) {
            for (int i = kvs.size() - 1; i >= 0; i--) {
                KeyValue kv = kvs.get(i);
                String path = prefix.isEmpty() ? kv.getKey() : prefix + '.' + kv.getKey();
                AnyValue v = kv.getValue();
                if (v.getValueCase() == AnyValue.ValueCase.KVLIST_VALUE) {
                    flatten(path, v.getKvlistValue().getValuesList());
                    continue;
                }
                if (!seen.add(path)) {
                    continue;
                }
                keys.add(path);
                if (v.getValueCase() != AnyValue.ValueCase.VALUE_NOT_SET) {
                    paths.add(path);
                    values.add(v);
                }
            }
        }
    }

    /** Writes the JSON value of {@code p}; {@code typed} maps a typed path to its type's tag. */
    static void write(RowBinaryWriter out, Paths p, Map<String, Integer> typed) {
        int n = p.paths.size();
        out.writeVarUInt(n);
        for (int i = 0; i < n; i++) {
            String path = p.paths.get(i);
            out.writeString(path);
            Integer type = typed.isEmpty() ? null : typed.get(path);
            if (type == null) {
                writeDynamic(out, p.values.get(i));
            } else {
                writeTyped(out, type, p.values.get(i));
            }
        }
    }

    /** An array of strings: the {@code *AttributesKeys} columns. */
    static void writeKeys(RowBinaryWriter out, Paths p) {
        out.writeArrayLength(p.keys.size());
        for (String k : p.keys) {
            out.writeString(k);
        }
    }

    /** A value as a {@code Dynamic}: its type, then its bytes. */
    static void writeDynamic(RowBinaryWriter out, AnyValue v) {
        switch (v.getValueCase()) {
            case STRING_VALUE:
                out.writeUInt8(STRING);
                out.writeString(v.getStringValue());
                break;
            case BOOL_VALUE:
                out.writeUInt8(BOOL);
                out.writeBool(v.getBoolValue());
                break;
            case INT_VALUE:
                out.writeUInt8(INT64);
                out.writeInt64(v.getIntValue());
                break;
            case DOUBLE_VALUE:
                out.writeUInt8(FLOAT64);
                out.writeFloat64(v.getDoubleValue());
                break;
            case BYTES_VALUE:
                out.writeUInt8(STRING);
                out.writeString(base64(v));
                break;
            case ARRAY_VALUE:
                writeArray(out, v.getArrayValue());
                break;
            case KVLIST_VALUE:
                out.writeRaw(JSON_TYPE, 0, JSON_TYPE.length);
                Paths nested = new Paths();
                nested.set(v.getKvlistValue().getValuesList());
                write(out, nested, Map.of());
                break;
            default:
                out.writeUInt8(NOTHING);
        }
    }

    private static void writeArray(RowBinaryWriter out, ArrayValue a) {
        int kind = elementKind(a);
        int n = a.getValuesCount();
        out.writeUInt8(ARRAY);
        if (kind == OBJECTS) {
            out.writeRaw(ARRAY_ELEMENT_JSON_TYPE, 0, ARRAY_ELEMENT_JSON_TYPE.length);
            out.writeArrayLength(n);
            for (int i = 0; i < n; i++) {
                Paths nested = new Paths();
                nested.set(a.getValues(i).getKvlistValue().getValuesList()); // an empty value: {}
                write(out, nested, Map.of());
            }
            return;
        }
        if (kind == DYNAMIC) {
            out.writeUInt8(DYNAMIC);
            out.writeUInt8(DYNAMIC_MAX_TYPES);
            out.writeArrayLength(n);
            for (int i = 0; i < n; i++) {
                writeDynamic(out, a.getValues(i));
            }
            return;
        }
        out.writeUInt8(NULLABLE);
        out.writeUInt8(kind);
        out.writeArrayLength(n);
        for (int i = 0; i < n; i++) {
            AnyValue e = a.getValues(i);
            if (e.getValueCase() == AnyValue.ValueCase.VALUE_NOT_SET) {
                out.writeUInt8(1);
                continue;
            }
            out.writeUInt8(0);
            writeTyped(out, kind, e);
        }
    }

    /**
     * The element type ClickHouse infers for the array as JSON text: the scalar kind all
     * non-empty elements share ({@code Float64} for ints with doubles, {@code String} when there
     * are none), objects, or {@code Dynamic}.
     */
    static int elementKind(ArrayValue a) {
        int kind = NOTHING;
        for (AnyValue e : a.getValuesList()) {
            int k;
            switch (e.getValueCase()) {
                case STRING_VALUE:
                case BYTES_VALUE:
                    k = STRING;
                    break;
                case INT_VALUE:
                    k = INT64;
                    break;
                case DOUBLE_VALUE:
                    k = FLOAT64;
                    break;
                case BOOL_VALUE:
                    k = BOOL;
                    break;
                case KVLIST_VALUE:
                    k = OBJECTS;
                    break;
                case VALUE_NOT_SET:
                    continue;
                default:
                    return DYNAMIC;
            }
            if (kind == NOTHING || kind == k) {
                kind = k;
            } else if ((kind == INT64 && k == FLOAT64) || (kind == FLOAT64 && k == INT64)) {
                kind = FLOAT64;
            } else {
                return DYNAMIC;
            }
        }
        return kind == NOTHING ? STRING : kind;
    }

    /** A value in the plain encoding of type {@code tag} (no tag byte), converted as ClickHouse would. */
    private static void writeTyped(RowBinaryWriter out, int tag, AnyValue v) {
        switch (tag) {
            case INT64:
                out.writeInt64(v.getValueCase() == AnyValue.ValueCase.DOUBLE_VALUE ? (long) v.getDoubleValue() : v.getIntValue());
                break;
            case FLOAT64:
                out.writeFloat64(v.getValueCase() == AnyValue.ValueCase.INT_VALUE ? (double) v.getIntValue() : v.getDoubleValue());
                break;
            case BOOL:
                out.writeBool(v.getBoolValue());
                break;
            default:
                out.writeString(
                        v.getValueCase() == AnyValue.ValueCase.BYTES_VALUE ? base64(v) : AnyValues.asString(v));
        }
    }

    private static String base64(AnyValue v) {
        return Base64.getEncoder().encodeToString(v.getBytesValue().toByteArray());
    }
}
