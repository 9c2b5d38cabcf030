package io.tributary.otlp.json;

import io.tributary.otlp.InvalidOtlpException;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;

import java.io.IOException;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Parses OTLP/JSON into the generated protobuf message of any OTLP type ({@code
 * Export*ServiceRequest}, {@code TracesData}, {@code LogsData}, {@code MetricsData}, …), driven
 * by the message's descriptor, in one streaming pass.
 *
 * <p>The mapping is protobuf's JSON mapping with OTLP's deviations
 * (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding), read as the Collector's pdata
 * unmarshaler reads it:
 *
 * <ul>
 *   <li>keys are lowerCamelCase; the original snake_case names are accepted too; unknown keys are
 *       skipped with everything under them;
 *   <li>{@code trace_id}, {@code span_id}, {@code parent_span_id} and {@code profile_id} are hex
 *       strings (either case, "" for empty); other bytes fields are base64;
 *   <li>enums are a value name or a number, and unknown numbers are kept;
 *   <li>integers are numbers or decimal strings, uint64 above 2^63 - 1 wrapping to a negative long;
 *       doubles are numbers, numeric strings, "NaN", "Infinity" or "-Infinity";
 *   <li>{@code null} leaves a field absent; a {@code null} element of a repeated message field is
 *       an empty message.
 * </ul>
 *
 * <p>Map fields and protobuf's well-known types are not supported; OTLP uses neither.
 */
public final class OtlpJsonParser {

    /**
     * By class and descriptor: a generated message and a {@code DynamicMessage} of one descriptor
     * need different setters.
     */
    private static final ConcurrentHashMap<TableKey, Table> TABLES = new ConcurrentHashMap<>();
    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();

    private OtlpJsonParser() {}

    /**
     * Parses {@code length} bytes of UTF-8 JSON from {@code offset} into a message of the type of
     * {@code defaultInstance}.
     *
     * @throws IOException for malformed JSON, or JSON nested deeper than 1000 levels
     * @throws InvalidOtlpException for JSON that is not OTLP (a value of the wrong type, a bad id,
     *     an unknown enum name, a top level that is not an object, content after it); the message
     *     starts with the path of the offending field, e.g. {@code
     *     resourceSpans[0].scopeSpans[0].spans[3].traceId must be 32 hex digits, got 31}
     */
    @SuppressWarnings("unchecked")
    public static <M extends Message> M parse(
            byte[] json, int offset, int length, M defaultInstance) throws IOException {
        Table table = Table.of(defaultInstance);
        try (JsonParser p = OtlpJson.FACTORY.createParser(json, offset, length)) {
            JsonToken t = p.nextToken();
            if (t != JsonToken.START_OBJECT) {
                throw new InvalidOtlpException(
                        "the record must be a JSON object, got " + JsonTokens.describe(t));
            }
            Message.Builder b = defaultInstance.newBuilderForType();
            Reader r = new Reader(p);
            try {
                r.mergeObject(b, table, 0);
            } catch (InvalidOtlpException e) {
                throw r.located(e);
            }
            if (p.nextToken() != null) {
                throw new InvalidOtlpException("trailing content after the JSON object");
            }
            return (M) b.build();
        }
    }

    /** Parses a whole array; see {@link #parse(byte[], int, int, Message)}. */
    public static <M extends Message> M parse(byte[] json, M defaultInstance) throws IOException {
        return parse(json, 0, json.length, defaultInstance);
    }

    /** Stores a value, boxed as {@code Message.Builder.setField} takes it, into a builder. */
    @FunctionalInterface
    private interface Setter {
        void set(Message.Builder builder, Object value);
    }

    private record TableKey(Class<?> type, Descriptor descriptor) {}

    /** The fields of one message type under both their JSON and their proto names. */
    private static final class Table {
        private final Map<String, Field> byName;

        static Table of(Message defaultInstance) {
            TableKey key =
                    new TableKey(
                            defaultInstance.getClass(), defaultInstance.getDescriptorForType());
            Table t = TABLES.get(key);
            if (t == null) {
                // a racing duplicate is harmless
                t = new Table(defaultInstance);
                Table raced = TABLES.putIfAbsent(key, t);
                if (raced != null) {
                    t = raced;
                }
            }
            return t;
        }

        private Table(Message defaultInstance) {
            Descriptor d = defaultInstance.getDescriptorForType();
            Message.Builder builder = defaultInstance.newBuilderForType();
            HashMap<String, Field> m = new HashMap<>();
            for (FieldDescriptor fd : d.getFields()) {
                OtlpJsonKind kind = OtlpJsonKind.of(fd);
                Message child =
                        fd.getJavaType() == FieldDescriptor.JavaType.MESSAGE
                                ? builder.newBuilderForField(fd).getDefaultInstanceForType()
                                : null;
                Field f = new Field(fd, kind, child, builder.getClass());
                m.put(fd.getJsonName(), f);
                m.put(fd.getName(), f);
            }
            this.byName = m;
        }

        Field get(String name) {
            return byName.get(name);
        }
    }

    private static final class Field {
        final FieldDescriptor fd;
        final String jsonName;
        final OtlpJsonKind kind;
        final boolean repeated;
        /** Length in bytes of a hex id field, else 0. */
        final int idLength;
        /** The default instance of a message field's type, else null. */
        final Message childDefault;
        /** Sets a singular field or adds an element to a repeated one. */
        final Setter store;
        /**
         * Resolved on first use, as message types nest recursively (AnyValue → ArrayValue →
         * AnyValue); a race only resolves it twice, and Table's state is final.
         */
        private Table child;

        Field(FieldDescriptor fd, OtlpJsonKind kind, Message childDefault, Class<?> builderClass) {
            this.fd = fd;
            this.jsonName = fd.getJsonName();
            this.kind = kind;
            this.repeated = fd.isRepeated();
            this.childDefault = childDefault;
            this.idLength = OtlpJsonKind.idLength(fd);
            this.store = setter(builderClass);
        }

        /**
         * A direct call of the generated builder's {@code setX}/{@code addX} (or {@code setXValue}
         * for enums), bound once here: {@code Message.Builder.setField} goes through {@code
         * Method.invoke} with an access check on every call, which costs as much as the parsing.
         * Builders without those methods, such as {@code DynamicMessage}'s, get {@code setField} /
         * {@code addRepeatedField}.
         */
        private Setter setter(Class<?> builderClass) {
            String name =
                    (repeated ? "add" : "set")
                            + javaName(fd.getName())
                            + (kind == OtlpJsonKind.ENUM ? "Value" : "");
            Setter direct;
            try {
                direct = bind(builderClass, name, javaType());
            } catch (VirtualMachineError e) {
                throw e;
            } catch (Throwable e) {
                // no such method (a DynamicMessage, an unusual name) or a class loader that will
                // not link the lambda: setField is slower but always right
                FieldDescriptor d = fd;
                return repeated
                        ? (b, v) -> b.addRepeatedField(d, v)
                        : (b, v) -> b.setField(d, v);
            }
            if (kind == OtlpJsonKind.ENUM) {
                return (b, v) -> direct.set(b, ((EnumValueDescriptor) v).getNumber());
            }
            return direct;
        }

        /** A Setter calling {@code builderClass.name(param)}, unboxing the value for it. */
        private static Setter bind(Class<?> builderClass, String name, Class<?> param)
                throws Throwable {
            MethodHandle impl =
                    LOOKUP.findVirtual(
                            builderClass, name, MethodType.methodType(builderClass, param));
            Class<?> boxed = MethodType.methodType(param).wrap().returnType();
            MethodType erased =
                    MethodType.methodType(void.class, Message.Builder.class, Object.class);
            MethodType exact = MethodType.methodType(void.class, builderClass, boxed);
            MethodType factory = MethodType.methodType(Setter.class);
            return (Setter)
                    LambdaMetafactory.metafactory(LOOKUP, "set", factory, erased, impl, exact)
                            .getTarget()
                            .invoke();
        }

        /** The parameter type of the generated setter. */
        private Class<?> javaType() {
            switch (kind) {
                case MESSAGE:
                    return childDefault.getClass();
                case ENUM:
                case INT32:
                case UINT32:
                    return int.class;
                case STRING:
                    return String.class;
                case BOOL:
                    return boolean.class;
                case INT64:
                case UINT64:
                    return long.class;
                case DOUBLE:
                    return double.class;
                case FLOAT:
                    return float.class;
                case BYTES:
                case HEX_ID:
                    return ByteString.class;
                default:
                    throw new AssertionError(kind);
            }
        }

        /** The capitalized camel-case name protoc gives a field's accessors. */
        private static String javaName(String protoName) {
            StringBuilder out = new StringBuilder(protoName.length());
            boolean upper = true;
            for (int i = 0; i < protoName.length(); i++) {
                char c = protoName.charAt(i);
                if (c >= 'a' && c <= 'z') {
                    out.append(upper ? (char) (c - 'a' + 'A') : c);
                    upper = false;
                } else if (c >= 'A' && c <= 'Z') {
                    out.append(c);
                    upper = false;
                } else if (c >= '0' && c <= '9') {
                    out.append(c);
                    upper = true;
                } else {
                    upper = true;
                }
            }
            return out.toString();
        }

        Table child() {
            Table t = child;
            if (t == null) {
                t = Table.of(childDefault);
                child = t;
            }
            return t;
        }
    }

    /**
     * One parse: the parser and the path to the field being read, kept as plain arrays that are
     * only turned into text when a value is invalid.
     */
    private static final class Reader {
        private final JsonParser p;
        private Field[] pathField = new Field[16];
        private int[] pathIndex = new int[16];
        /** The level of the innermost field being read; levels above it are stale. */
        private int depth = -1;

        Reader(JsonParser p) {
            this.p = p;
        }

        /** Reads the object whose START_OBJECT is the current token into {@code b}. */
        void mergeObject(Message.Builder b, Table table, int level) throws IOException {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                Field f = table.get(p.currentName());
                JsonToken t = p.nextToken();
                if (f == null) {
                    p.skipChildren();
                    continue;
                }
                if (t == JsonToken.VALUE_NULL) {
                    continue;
                }
                enter(level, f);
                if (f.repeated) {
                    readArray(b, f, t, level);
                } else {
                    f.store.set(b, value(f, t, level));
                }
            }
        }

        private void readArray(Message.Builder b, Field f, JsonToken t, int level)
                throws IOException {
            if (t != JsonToken.START_ARRAY) {
                throw new InvalidOtlpException("must be a JSON array, got " + JsonTokens.describe(t));
            }
            int i = 0;
            while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                pathIndex[level] = i++;
                depth = level;
                if (t != JsonToken.VALUE_NULL) {
                    f.store.set(b, value(f, t, level));
                } else if (f.kind == OtlpJsonKind.MESSAGE) {
                    f.store.set(b, f.childDefault);
                } else {
                    throw new InvalidOtlpException("must not be null");
                }
            }
        }

        /** The value at the current, non-null token {@code t}, boxed as setField wants it. */
        private Object value(Field f, JsonToken t, int level) throws IOException {
            switch (f.kind) {
                case MESSAGE:
                    if (t != JsonToken.START_OBJECT) {
                        throw new InvalidOtlpException(
                                "must be a JSON object, got " + JsonTokens.describe(t));
                    }
                    Message.Builder child = f.childDefault.newBuilderForType();
                    mergeObject(child, f.child(), level + 1);
                    return child.build();
                case ENUM:
                    return OtlpJson.enumValue(p, f.fd.getEnumType());
                case STRING:
                    return OtlpJson.string(p);
                case BOOL:
                    return OtlpJson.bool(p);
                case INT32:
                    return OtlpJson.int32(p, false);
                case UINT32:
                    return OtlpJson.int32(p, true);
                case INT64:
                    return OtlpJson.int64(p, false);
                case UINT64:
                    return OtlpJson.int64(p, true);
                case DOUBLE:
                    return OtlpJson.float64(p);
                case FLOAT:
                    return (float) OtlpJson.float64(p);
                case BYTES:
                    return OtlpJson.base64(p);
                case HEX_ID:
                    return OtlpJson.hexId(p, f.idLength);
                default:
                    throw new AssertionError(f.kind);
            }
        }

        private void enter(int level, Field f) {
            if (level == pathField.length) {
                pathField = Arrays.copyOf(pathField, level * 2);
                pathIndex = Arrays.copyOf(pathIndex, level * 2);
            }
            pathField[level] = f;
            pathIndex[level] = -1;
            depth = level;
        }

        /** {@code e} with the path of the field being read, e.g. {@code resourceSpans[0].…}. */
        InvalidOtlpException located(InvalidOtlpException e) {
            if (depth < 0) {
                return e;
            }
            StringBuilder path = new StringBuilder();
            for (int i = 0; i <= depth; i++) {
                if (i > 0) {
                    path.append('.');
                }
                path.append(pathField[i].jsonName);
                if (pathIndex[i] >= 0) {
                    path.append('[').append(pathIndex[i]).append(']');
                }
            }
            return new InvalidOtlpException(path + " " + e.getMessage(), e);
        }
    }
}
