package io.tributary.decode;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.google.protobuf.ByteString;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.resource.v1.Resource;
import io.tributary.transcode.Hex;
import io.tributary.transcode.InvalidOtlpException;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Base64;
import java.util.List;

/**
 * Reading primitives for OTLP/JSON, the protobuf JSON mapping with OTLP's deviations
 * (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding): trace and span ids are hex
 * strings, not base64; enums may be integers or names; 64-bit integers may be strings or numbers;
 * keys are lowerCamelCase (the original snake_case names are accepted too, as the protobuf JSON
 * mapping requires of parsers); unknown fields are ignored; {@code null} means the default.
 */
final class OtlpJson {

    static final JsonFactory FACTORY =
            JsonFactory.builder()
                    .streamReadConstraints(
                            StreamReadConstraints.builder()
                                    .maxStringLength(Integer.MAX_VALUE)
                                    .maxNestingDepth(1000)
                                    .build())
                    .build();

    private OtlpJson() {}

    /** Consumes the value at the current token when it is an object; false when it is null. */
    static boolean startObject(JsonParser p, String what) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NULL) {
            return false;
        }
        if (t != JsonToken.START_OBJECT) {
            throw new InvalidOtlpException(what + " must be a JSON object, got " + t);
        }
        return true;
    }

    /** Checks the current token starts an array; false when it is null. */
    static boolean startArray(JsonParser p, String what) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NULL) {
            return false;
        }
        if (t != JsonToken.START_ARRAY) {
            throw new InvalidOtlpException(what + " must be a JSON array, got " + t);
        }
        return true;
    }

    static String string(JsonParser p, String what) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_STRING) {
            return p.getText();
        }
        if (t == JsonToken.VALUE_NULL) {
            return "";
        }
        throw new InvalidOtlpException(what + " must be a string, got " + t);
    }

    /** A hex id: "" (or null) is the empty id; otherwise exactly {@code length} bytes. */
    static ByteString id(JsonParser p, int length, String what) throws IOException {
        String s = string(p, what);
        if (s.isEmpty()) {
            return ByteString.EMPTY;
        }
        if (s.length() != length * 2) {
            throw new InvalidOtlpException(
                    what + " must be " + (length * 2) + " hex digits, got " + s.length());
        }
        return ByteString.copyFrom(Hex.decode(s, what));
    }

    /** A 64-bit integer given as a number or a decimal string; unsigned values above 2^63 wrap. */
    static long int64(JsonParser p, String what) throws IOException {
        JsonToken t = p.currentToken();
        try {
            switch (t) {
                case VALUE_NUMBER_INT:
                    if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                        return unsigned(p.getBigIntegerValue(), what);
                    }
                    return p.getLongValue();
                case VALUE_NUMBER_FLOAT:
                    return exact(p.getDecimalValue(), what);
                case VALUE_STRING:
                    String s = p.getText().trim();
                    if (s.isEmpty()) {
                        throw new InvalidOtlpException(what + " is an empty string");
                    }
                    return exact(new BigDecimal(s), what);
                case VALUE_NULL:
                    return 0;
                default:
                    throw new InvalidOtlpException(what + " must be an integer, got " + t);
            }
        } catch (NumberFormatException | ArithmeticException e) {
            throw new InvalidOtlpException(what + " is not an integer: " + p.getText(), e);
        }
    }

    private static long exact(BigDecimal d, String what) {
        BigInteger i = d.toBigIntegerExact();
        if (i.bitLength() < 64) {
            return i.longValue();
        }
        return unsigned(i, what);
    }

    private static long unsigned(BigInteger i, String what) {
        if (i.signum() < 0 || i.bitLength() > 64) {
            throw new InvalidOtlpException(what + " is out of the 64-bit range: " + i);
        }
        return i.longValue();
    }

    /** A uint32 / int32 field as a number or decimal string. */
    static int int32(JsonParser p, String what) throws IOException {
        long v = int64(p, what);
        if (v < Integer.MIN_VALUE || v > 0xFFFF_FFFFL) {
            throw new InvalidOtlpException(what + " is out of the 32-bit range: " + v);
        }
        return (int) v;
    }

    /** An enum given as its number or its name in {@code names} (index = number). */
    static int enumValue(JsonParser p, String[] names, String what) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_STRING) {
            String s = p.getText();
            for (int i = 0; i < names.length; i++) {
                if (names[i].equals(s)) {
                    return i;
                }
            }
            try {
                return Integer.parseInt(s.trim());
            } catch (NumberFormatException e) {
                throw new InvalidOtlpException(what + " has an unknown value: " + s);
            }
        }
        return int32(p, what);
    }

    static double float64(JsonParser p, String what) throws IOException {
        JsonToken t = p.currentToken();
        switch (t) {
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                return p.getDoubleValue();
            case VALUE_STRING:
                String s = p.getText().trim();
                switch (s) {
                    case "NaN":
                        return Double.NaN;
                    case "Infinity":
                        return Double.POSITIVE_INFINITY;
                    case "-Infinity":
                        return Double.NEGATIVE_INFINITY;
                    default:
                        try {
                            return Double.parseDouble(s);
                        } catch (NumberFormatException e) {
                            throw new InvalidOtlpException(what + " is not a number: " + s);
                        }
                }
            case VALUE_NULL:
                return 0;
            default:
                throw new InvalidOtlpException(what + " must be a number, got " + t);
        }
    }

    static boolean bool(JsonParser p, String what) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_TRUE) {
            return true;
        }
        if (t == JsonToken.VALUE_FALSE || t == JsonToken.VALUE_NULL) {
            return false;
        }
        throw new InvalidOtlpException(what + " must be true or false, got " + t);
    }

    /** Base64 bytes (standard or URL-safe alphabet, padding optional), per the JSON mapping. */
    static ByteString bytes(JsonParser p, String what) throws IOException {
        String s = string(p, what);
        try {
            if (s.indexOf('-') >= 0 || s.indexOf('_') >= 0) {
                return ByteString.copyFrom(Base64.getUrlDecoder().decode(s));
            }
            return ByteString.copyFrom(Base64.getDecoder().decode(s));
        } catch (IllegalArgumentException e) {
            throw new InvalidOtlpException(what + " is not base64", e);
        }
    }

    /** A list of {@code KeyValue}s into {@code out}. */
    static void keyValues(JsonParser p, List<KeyValue> out, String what) throws IOException {
        if (!startArray(p, what)) {
            return;
        }
        while (p.nextToken() != JsonToken.END_ARRAY) {
            out.add(keyValue(p, what));
        }
    }

    static KeyValue keyValue(JsonParser p, String what) throws IOException {
        KeyValue.Builder kv = KeyValue.newBuilder();
        if (!startObject(p, what)) {
            return kv.build();
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            p.nextToken();
            switch (f) {
                case "key":
                    kv.setKey(string(p, "key"));
                    break;
                case "value":
                    kv.setValue(anyValue(p));
                    break;
                default:
                    p.skipChildren();
            }
        }
        return kv.build();
    }

    static AnyValue anyValue(JsonParser p) throws IOException {
        AnyValue.Builder v = AnyValue.newBuilder();
        if (!startObject(p, "value")) {
            return v.build();
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            p.nextToken();
            if (p.currentToken() == JsonToken.VALUE_NULL) {
                continue;
            }
            switch (f) {
                case "stringValue":
                case "string_value":
                    v.setStringValue(string(p, f));
                    break;
                case "boolValue":
                case "bool_value":
                    v.setBoolValue(bool(p, f));
                    break;
                case "intValue":
                case "int_value":
                    v.setIntValue(int64(p, f));
                    break;
                case "doubleValue":
                case "double_value":
                    v.setDoubleValue(float64(p, f));
                    break;
                case "bytesValue":
                case "bytes_value":
                    v.setBytesValue(bytes(p, f));
                    break;
                case "arrayValue":
                case "array_value":
                    ArrayValue.Builder arr = ArrayValue.newBuilder();
                    if (startObject(p, f)) {
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String g = p.currentName();
                            p.nextToken();
                            if ("values".equals(g) && startArray(p, "arrayValue.values")) {
                                while (p.nextToken() != JsonToken.END_ARRAY) {
                                    arr.addValues(anyValue(p));
                                }
                            } else {
                                p.skipChildren();
                            }
                        }
                    }
                    v.setArrayValue(arr);
                    break;
                case "kvlistValue":
                case "kvlist_value":
                    KeyValueList.Builder kvl = KeyValueList.newBuilder();
                    if (startObject(p, f)) {
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String g = p.currentName();
                            p.nextToken();
                            if ("values".equals(g) && startArray(p, "kvlistValue.values")) {
                                while (p.nextToken() != JsonToken.END_ARRAY) {
                                    kvl.addValues(keyValue(p, "kvlistValue.values"));
                                }
                            } else {
                                p.skipChildren();
                            }
                        }
                    }
                    v.setKvlistValue(kvl);
                    break;
                default:
                    p.skipChildren();
            }
        }
        return v.build();
    }

    static Resource resource(JsonParser p) throws IOException {
        Resource.Builder r = Resource.newBuilder();
        if (!startObject(p, "resource")) {
            return r.build();
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            p.nextToken();
            switch (f) {
                case "attributes":
                    java.util.ArrayList<KeyValue> attrs = new java.util.ArrayList<>();
                    keyValues(p, attrs, "resource.attributes");
                    r.addAllAttributes(attrs);
                    break;
                case "droppedAttributesCount":
                case "dropped_attributes_count":
                    r.setDroppedAttributesCount(int32(p, f));
                    break;
                default:
                    p.skipChildren();
            }
        }
        return r.build();
    }

    static InstrumentationScope scope(JsonParser p) throws IOException {
        InstrumentationScope.Builder s = InstrumentationScope.newBuilder();
        if (!startObject(p, "scope")) {
            return s.build();
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            p.nextToken();
            switch (f) {
                case "name":
                    s.setName(string(p, "scope.name"));
                    break;
                case "version":
                    s.setVersion(string(p, "scope.version"));
                    break;
                case "attributes":
                    java.util.ArrayList<KeyValue> attrs = new java.util.ArrayList<>();
                    keyValues(p, attrs, "scope.attributes");
                    s.addAllAttributes(attrs);
                    break;
                case "droppedAttributesCount":
                case "dropped_attributes_count":
                    s.setDroppedAttributesCount(int32(p, f));
                    break;
                default:
                    p.skipChildren();
            }
        }
        return s.build();
    }
}
