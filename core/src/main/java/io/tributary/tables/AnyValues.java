package io.tributary.tables;

import io.tributary.otlp.GoFloat;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Renders OTLP {@link AnyValue}s as strings exactly as the Collector's pdata {@code
 * Value.AsString()} does, which is what {@code clickhouseexporter} stores in its
 * {@code Map(LowCardinality(String), String)} attribute columns.
 *
 * <p>Matches pdata v1.58+ ({@code pcommon/value.go}):
 *
 * <ul>
 *   <li>string: as is; bool: {@code true}/{@code false}; int: decimal;
 *   <li>double: ES6 number style ({@link GoFloat}); {@code NaN}, {@code Infinity},
 *       {@code -Infinity};
 *   <li>bytes: standard base64 with padding;
 *   <li>array and kvlist: compact JSON as Go's {@code encoding/json} encodes the raw value with
 *       HTML escaping off: map keys sorted bytewise, duplicate keys last-wins, bytes as base64
 *       strings (empty bytes as {@code null}), an empty value as {@code null}; a NaN or infinity
 *       anywhere inside makes the encoding fail, which pdata renders as the empty string;
 *   <li>empty (no value set): the empty string.
 * </ul>
 */
public final class AnyValues {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private AnyValues() {}

    /** The string pdata's {@code AsString()} gives for {@code v}. */
    public static String asString(AnyValue v) {
        switch (v.getValueCase()) {
            case STRING_VALUE:
                return v.getStringValue();
            case BOOL_VALUE:
                return v.getBoolValue() ? "true" : "false";
            case INT_VALUE:
                return Long.toString(v.getIntValue());
            case DOUBLE_VALUE:
                return doubleAsString(v.getDoubleValue());
            case BYTES_VALUE:
                return Base64.getEncoder().encodeToString(v.getBytesValue().toByteArray());
            case ARRAY_VALUE:
            case KVLIST_VALUE:
                StringBuilder sb = new StringBuilder(64);
                return appendJson(sb, v) ? sb.toString() : "";
            default:
                return "";
        }
    }

    static String doubleAsString(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "Infinity" : "-Infinity";
        }
        return GoFloat.es6(d);
    }

    /** Appends {@code v} as JSON; false when Go's marshal would fail (NaN or infinity inside). */
    private static boolean appendJson(StringBuilder sb, AnyValue v) {
        switch (v.getValueCase()) {
            case STRING_VALUE:
                appendJsonString(sb, v.getStringValue());
                return true;
            case BOOL_VALUE:
                sb.append(v.getBoolValue());
                return true;
            case INT_VALUE:
                sb.append(v.getIntValue());
                return true;
            case DOUBLE_VALUE:
                double d = v.getDoubleValue();
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    return false;
                }
                sb.append(GoFloat.es6(d));
                return true;
            case BYTES_VALUE:
                if (v.getBytesValue().isEmpty()) {
                    sb.append("null"); // pdata's AsRaw gives a nil slice, which JSON-encodes as null
                } else {
                    sb.append('"')
                            .append(Base64.getEncoder().encodeToString(v.getBytesValue().toByteArray()))
                            .append('"');
                }
                return true;
            case ARRAY_VALUE:
                sb.append('[');
                List<AnyValue> values = v.getArrayValue().getValuesList();
                for (int i = 0; i < values.size(); i++) {
                    if (i > 0) {
                        sb.append(',');
                    }
                    if (!appendJson(sb, values.get(i))) {
                        return false;
                    }
                }
                sb.append(']');
                return true;
            case KVLIST_VALUE:
                return appendJsonObject(sb, v.getKvlistValue());
            default:
                sb.append("null");
                return true;
        }
    }

    private static boolean appendJsonObject(StringBuilder sb, KeyValueList kvs) {
        List<KeyValue> entries = lastWinsSortedByKey(kvs.getValuesList());
        sb.append('{');
        for (int i = 0; i < entries.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            KeyValue kv = entries.get(i);
            appendJsonString(sb, kv.getKey());
            sb.append(':');
            if (!appendJson(sb, kv.getValue())) {
                return false;
            }
        }
        sb.append('}');
        return true;
    }

    /** Go map semantics: one entry per key (the last one set), keys in byte-wise UTF-8 order. */
    private static List<KeyValue> lastWinsSortedByKey(List<KeyValue> in) {
        List<KeyValue> out = new ArrayList<>(in.size());
        outer:
        for (int i = 0; i < in.size(); i++) {
            String key = in.get(i).getKey();
            for (int j = i + 1; j < in.size(); j++) {
                if (in.get(j).getKey().equals(key)) {
                    continue outer;
                }
            }
            out.add(in.get(i));
        }
        out.sort((a, b) -> compareUtf8(a.getKey(), b.getKey()));
        return out;
    }

    /**
     * Orders strings as Go orders them: by their UTF-8 bytes. That is UTF-16 order except that
     * supplementary characters (surrogate pairs) sort after U+E000..U+FFFF.
     */
    public static int compareUtf8(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                return utf8Rank(x) - utf8Rank(y);
            }
        }
        return a.length() - b.length();
    }

    private static int utf8Rank(char c) {
        if (c < 0xD800) {
            return c;
        }
        return c >= 0xE000 ? c - 0x800 : c + 0x2000;
    }

    /** A JSON string literal with Go's {@code encoding/json} escaping, HTML escaping off. */
    static void appendJsonString(StringBuilder sb, String s) {
        sb.append('"');
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"':
                    sb.append("\\\"");
                    break;
                case '\\':
                    sb.append("\\\\");
                    break;
                case '\n':
                    sb.append("\\n");
                    break;
                case '\r':
                    sb.append("\\r");
                    break;
                case '\t':
                    sb.append("\\t");
                    break;
                case '\b':
                    sb.append("\\b");
                    break;
                case '\f':
                    sb.append("\\f");
                    break;
                case '\u2028':
                case '\u2029':
                    appendUnicodeEscape(sb, c);
                    break;
                default:
                    if (c < 0x20) {
                        appendUnicodeEscape(sb, c);
                    } else if (Character.isHighSurrogate(c)
                            && i + 1 < n
                            && Character.isLowSurrogate(s.charAt(i + 1))) {
                        sb.append(c).append(s.charAt(++i));
                    } else if (Character.isSurrogate(c)) {
                        sb.append("\\ufffd"); // invalid UTF-16 is invalid UTF-8 for Go
                    } else {
                        sb.append(c);
                    }
            }
        }
        sb.append('"');
    }

    private static void appendUnicodeEscape(StringBuilder sb, char c) {
        sb.append("\\u")
                .append(HEX[(c >> 12) & 0xF])
                .append(HEX[(c >> 8) & 0xF])
                .append(HEX[(c >> 4) & 0xF])
                .append(HEX[c & 0xF]);
    }
}
