package io.tributary.tables;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.tributary.rowbinary.RowBinaryWriter;

import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
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
 * <p>The paths, types and values are the ones ClickHouse stores when it parses the JSON text the
 * collector's exporter sends ({@code json.Marshal(attributes.AsRaw())}):
 *
 * <ul>
 *   <li>nested maps become dotted paths, as keys with dots do; an empty map adds nothing; of two
 *       equal keys the last wins;
 *   <li>ints are {@code Int64}; doubles {@code Float64}, except whole doubles below 1e21, which Go
 *       prints without a fraction and ClickHouse reads as {@code Int64} (or {@code UInt64} above
 *       its range); bools {@code Bool}; strings {@code String}; bytes their base64 {@code String};
 *       empty values and empty bytes (JSON null) are left out;
 *   <li>arrays as ClickHouse infers them: {@code Array(Nullable(T))} when the elements share a
 *       scalar type (bools with numbers are numbers, ints with doubles {@code Float64}, none
 *       {@code String}), {@code Array(Array(...))} for arrays of arrays, {@code
 *       Array(JSON(max_dynamic_types=16, max_dynamic_paths=256))} for arrays of maps, {@code
 *       Array(Dynamic)} for anything else.
 * </ul>
 *
 * <p>Deliberate differences: ClickHouse turns strings that look like dates into {@code Date} or
 * {@code DateTime64} when it parses JSON text; here strings stay strings, as they were sent. A
 * NaN or infinity, for which the collector fails the whole batch, is stored as the {@code Float64}
 * it is.
 *
 * <p>See https://clickhouse.com/docs/sql-reference/data-types/data-types-binary-encoding.
 */
public final class BinaryJson {

    static final int NOTHING = 0x00;
    static final int UINT64 = 0x04;
    static final int INT64 = 0x0A;
    static final int FLOAT64 = 0x0E;
    static final int STRING = 0x15;
    static final int ARRAY = 0x1E;
    static final int NULLABLE = 0x23;
    static final int DYNAMIC = 0x2B;
    static final int BOOL = 0x2D;
    /** Not a ClickHouse tag: the inferred type of a map (written as a JSON type). */
    static final int OBJECT = -1;
    /** {@code Dynamic(max_types=32)}, the default. */
    static final int DYNAMIC_MAX_TYPES = 32;
    /** {@code JSON} with default parameters: version 0, 1024 dynamic paths, 32 types, no typed or skipped paths. */
    static final byte[] JSON_TYPE = {0x30, 0x00, (byte) 0x80, 0x08, 0x20, 0x00, 0x00, 0x00};
    /** {@code JSON(max_dynamic_types=16, max_dynamic_paths=256)}: what ClickHouse infers in arrays of objects. */
    static final byte[] ARRAY_ELEMENT_JSON_TYPE = {0x30, 0x00, (byte) 0x80, 0x02, 0x10, 0x00, 0x00, 0x00};
    /**
     * The most characters of paths one attribute list may flatten to (its JSON paths and its keys
     * column together): far beyond real attributes, and a few tens of MiB of heap at most. Every
     * path is written into the row, so more would pass {@code decode.max-bytes-per-record}'s
     * default anyway; this stops the paths being made first.
     */
    static final int MAX_PATH_CHARS = 16 << 20;
    private static final double TWO_63 = 0x1p63;
    private static final double TWO_64 = 0x1p64;

    private BinaryJson() {}

    /** The flattened paths of an attribute list, as {@link Attributes} caches them. */
    static final class Paths {
        /** Leaf paths with a value, in arrival order (a later duplicate replaces an earlier one). */
        final List<String> paths = new ArrayList<>();
        final List<AnyValue> values = new ArrayList<>();
        /** The exporter's {@code UniqueFlattenedAttributes}: every leaf path once, sorted by bytes. */
        final List<String> keys = new ArrayList<>();
        private final Set<String> seen = new HashSet<>();
        private final Set<String> seenKeys = new HashSet<>();
        private final Set<String> seenTopKeys = new HashSet<>();
        /** Characters of the paths made so far, against {@link #MAX_PATH_CHARS}. */
        private long pathChars;

        /**
         * Counts a path made: nested maps repeat their key in the path of every leaf below them, so
         * a long key over many leaves would make far more path text than the record holds.
         */
        private void charge(String path) {
            pathChars += path.length();
            if (pathChars > MAX_PATH_CHARS) {
                throw tooManyPathChars();
            }
        }

        void set(List<KeyValue> attributes) {
            pathChars = 0;
            paths.clear();
            values.clear();
            keys.clear();
            seen.clear();
            seenKeys.clear();
            seenTopKeys.clear();
            flatten(null, attributes, seenTopKeys);
            // flatten() walked backwards so that the last of duplicate keys wins, as in AsRaw()
            Collections.reverse(paths);
            Collections.reverse(values);
            collectKeys("", attributes);
            keys.sort(AnyValues::compareUtf8);
        }

        /**
         * @param prefix the JSON path of the enclosing map, null at the top level
         * @param levelKeys the keys seen in this map: of repeated keys only the last counts, as in
         *     the Go map {@code AsRaw()} makes
         */
        private void flatten(String prefix, List<KeyValue> kvs, Set<String> levelKeys) {
            for (int i = kvs.size() - 1; i >= 0; i--) {
                KeyValue kv = kvs.get(i);
                String key = kv.getKey();
                if (!levelKeys.add(key)) {
                    continue;
                }
                String path = prefix == null ? key : prefix + '.' + key;
                charge(path);
                AnyValue v = kv.getValue();
                if (v.getValueCase() == AnyValue.ValueCase.KVLIST_VALUE) {
                    flatten(path, v.getKvlistValue().getValuesList(), new HashSet<>());
                } else if (seen.add(path) && type(v) != NOTHING) {
                    paths.add(path);
                    values.add(v);
                }
            }
        }

        /**
         * The exporter's {@code UniqueFlattenedAttributes}: every leaf path (maps recursed, arrays
         * are leaves, repeated keys too), joined with dots unless the prefix is empty.
         */
        private void collectKeys(String keyPrefix, List<KeyValue> kvs) {
            for (KeyValue kv : kvs) {
                String keyPath = keyPrefix.isEmpty() ? kv.getKey() : keyPrefix + '.' + kv.getKey();
                charge(keyPath);
                if (kv.getValue().getValueCase() == AnyValue.ValueCase.KVLIST_VALUE) {
                    collectKeys(keyPath, kv.getValue().getKvlistValue().getValuesList());
                } else if (seenKeys.add(keyPath)) {
                    keys.add(keyPath);
                }
            }
        }
    }

    /** The failure of an attribute list whose paths pass {@link #MAX_PATH_CHARS}. */
    static OversizedRecordException tooManyPathChars() {
        return new OversizedRecordException("attributes flatten to more than " + MAX_PATH_CHARS
                + " characters of JSON paths (nested maps under long keys), more than a JSON column takes here");
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
                writeAs(out, type, p.values.get(i));
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

    /** A value as a {@code Dynamic}: its type, then its bytes; {@code Nothing} for JSON null. */
    static void writeDynamic(RowBinaryWriter out, AnyValue v) {
        int t = type(v);
        switch (t) {
            case NOTHING:
                out.writeUInt8(NOTHING);
                break;
            case ARRAY:
                writeArray(out, v.getArrayValue());
                break;
            case OBJECT:
                out.writeRaw(JSON_TYPE, 0, JSON_TYPE.length);
                writeObject(out, v);
                break;
            default:
                out.writeUInt8(t);
                writeAs(out, t, v);
        }
    }

    /** A whole array value: its type ({@code Array(...)}) then its elements. */
    private static void writeArray(RowBinaryWriter out, ArrayValue a) {
        ElementType e = elementType(a);
        out.writeUInt8(ARRAY);
        e.writeType(out);
        e.writeElements(out, a);
    }

    private static void writeObject(RowBinaryWriter out, AnyValue v) {
        Paths nested = new Paths();
        nested.set(v.getKvlistValue().getValuesList()); // an empty value: {}
        write(out, nested, Map.of());
    }

    /**
     * The type ClickHouse gives the value in JSON text: a scalar tag, {@code ARRAY}, {@code
     * OBJECT}, or {@code NOTHING} for null.
     */
    static int type(AnyValue v) {
        switch (v.getValueCase()) {
            case STRING_VALUE:
                return STRING;
            case BOOL_VALUE:
                return BOOL;
            case INT_VALUE:
                return INT64;
            case DOUBLE_VALUE:
                return doubleType(v.getDoubleValue());
            case BYTES_VALUE:
                return v.getBytesValue().isEmpty() ? NOTHING : STRING; // AsRaw gives nil: null
            case ARRAY_VALUE:
                return ARRAY;
            case KVLIST_VALUE:
                return OBJECT;
            default:
                return NOTHING;
        }
    }

    /** Go prints whole doubles below 1e21 without a fraction; ClickHouse then reads an integer. */
    static int doubleType(double d) {
        if (d != Math.rint(d) || Double.isInfinite(d) || Math.abs(d) >= 1e21) {
            return FLOAT64;
        }
        if (d >= -TWO_63 && d < TWO_63) {
            return INT64;
        }
        return d > 0 && d < TWO_64 ? UINT64 : FLOAT64;
    }

    /** A scalar in the plain encoding of type {@code tag} (no tag byte), converted as ClickHouse would. */
    private static void writeAs(RowBinaryWriter out, int tag, AnyValue v) {
        switch (tag) {
            case INT64:
            case UINT64:
                out.writeInt64(v.getValueCase() == AnyValue.ValueCase.DOUBLE_VALUE ? toLong(v.getDoubleValue())
                        : v.getValueCase() == AnyValue.ValueCase.BOOL_VALUE ? (v.getBoolValue() ? 1 : 0)
                        : v.getIntValue());
                break;
            case FLOAT64:
                out.writeFloat64(v.getValueCase() == AnyValue.ValueCase.INT_VALUE ? (double) v.getIntValue()
                        : v.getValueCase() == AnyValue.ValueCase.BOOL_VALUE ? (v.getBoolValue() ? 1.0 : 0.0)
                        : v.getDoubleValue());
                break;
            case BOOL:
                out.writeBool(v.getBoolValue());
                break;
            default:
                out.writeString(v.getValueCase() == AnyValue.ValueCase.BYTES_VALUE
                        ? Base64.getEncoder().encodeToString(v.getBytesValue().toByteArray())
                        : AnyValues.asString(v));
        }
    }

    /** A whole double as its two's-complement long (values from 2^63 to 2^64 as UInt64 bits). */
    static long toLong(double d) {
        return d < TWO_63 ? (long) d : (long) (d - TWO_63) ^ Long.MIN_VALUE;
    }

    /** The element type of an array, as ClickHouse infers it from JSON text. */
    static ElementType elementType(ArrayValue a) {
        ElementType t = ElementType.NONE;
        for (AnyValue e : a.getValuesList()) {
            t = t.unify(ElementType.of(e));
        }
        return t;
    }

    /** An inferred array element type: a scalar tag, an array of a type, objects, or Dynamic. */
    record ElementType(int kind, ElementType element) {
        static final ElementType NONE = new ElementType(NOTHING, null);
        static final ElementType ANY = new ElementType(DYNAMIC, null);

        static ElementType of(AnyValue v) {
            int t = type(v);
            return t == ARRAY ? new ElementType(ARRAY, elementType(v.getArrayValue())) : new ElementType(t, null);
        }

        ElementType unify(ElementType o) {
            if (kind == NOTHING) {
                return o;
            }
            if (o.kind == NOTHING || equals(o)) {
                return this;
            }
            if (kind == ARRAY && o.kind == ARRAY) {
                return new ElementType(ARRAY, element.unify(o.element));
            }
            if (numeric(kind) && numeric(o.kind)) {
                int k = kind == FLOAT64 || o.kind == FLOAT64 ? FLOAT64
                        : kind == UINT64 || o.kind == UINT64 ? UINT64
                        : INT64; // Bool with Int64
                return new ElementType(k, null);
            }
            return ANY;
        }

        private static boolean numeric(int k) {
            return k == BOOL || k == INT64 || k == UINT64 || k == FLOAT64;
        }

        /** The element type's binary encoding, inside {@code Array(...)}. */
        void writeType(RowBinaryWriter out) {
            switch (kind) {
                case NOTHING:
                    out.writeUInt8(NULLABLE);
                    out.writeUInt8(STRING);
                    break;
                case ARRAY:
                    out.writeUInt8(ARRAY);
                    element.writeType(out);
                    break;
                case OBJECT:
                    out.writeRaw(ARRAY_ELEMENT_JSON_TYPE, 0, ARRAY_ELEMENT_JSON_TYPE.length);
                    break;
                case DYNAMIC:
                    out.writeUInt8(DYNAMIC);
                    out.writeUInt8(DYNAMIC_MAX_TYPES);
                    break;
                default:
                    out.writeUInt8(NULLABLE);
                    out.writeUInt8(kind);
            }
        }

        /** The element count, then each element in this type's encoding. */
        void writeElements(RowBinaryWriter out, ArrayValue a) {
            int n = a.getValuesCount();
            out.writeArrayLength(n);
            for (int i = 0; i < n; i++) {
                AnyValue e = a.getValues(i);
                boolean isNull = type(e) == NOTHING;
                switch (kind) {
                    case ARRAY:
                        if (isNull) {
                            out.writeArrayLength(0); // arrays are not nullable: null reads as []
                        } else {
                            element.writeElements(out, e.getArrayValue());
                        }
                        break;
                    case OBJECT:
                        writeObject(out, e);
                        break;
                    case DYNAMIC:
                        writeDynamic(out, e);
                        break;
                    default:
                        out.writeUInt8(isNull ? 1 : 0);
                        if (!isNull) {
                            writeAs(out, kind == NOTHING ? STRING : kind, e);
                        }
                }
            }
        }
    }
}
