package io.tributary.tables.coroot;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.tributary.otlp.GoFloat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Attribute values as Coroot stores them: its collector's {@code valueToString} ({@code
 * collector/utils.go} in coroot/coroot), not pdata's {@code AsString}. Strings as they are; bools
 * {@code true}/{@code false}; ints in decimal; doubles as {@code strconv.FormatFloat(v, 'f', -1,
 * 64)} with {@code NaN}, {@code +Inf}, {@code -Inf}; bytes as their raw bytes (no base64); an array
 * as {@code encoding/json}'s text of the array of its values' strings, a kvlist as that of the
 * object of its values' strings (keys sorted, the last of a repeated key wins); a value of no kind
 * as {@code unknown attribute value type: <nil>}.
 *
 * <p>A nested array escapes its elements' JSON again at every level, so a deep value can grow
 * exponentially: rendering stops with the caller's refusal once the text passes the bytes the
 * record may still render.
 */
final class CorootValues {

    private static final byte[] TRUE = ascii("true");
    private static final byte[] FALSE = ascii("false");
    private static final byte[] NAN = ascii("NaN");
    private static final byte[] PLUS_INF = ascii("+Inf");
    private static final byte[] MINUS_INF = ascii("-Inf");
    /** {@code fmt.Sprintf("unknown attribute value type: %T", nil)}: an AnyValue with no value set. */
    static final byte[] UNKNOWN = ascii("unknown attribute value type: <nil>");
    private static final byte[] HEX = ascii("0123456789abcdef");

    private final long limit;
    private final Supplier<? extends RuntimeException> over;

    /**
     * @param limit the most bytes one value may take
     * @param over the refusal thrown past it
     */
    CorootValues(long limit, Supplier<? extends RuntimeException> over) {
        this.limit = limit;
        this.over = over;
    }

    /** Coroot's {@code attributesToMap}: each key to its value's text, the last of a repeated key winning. */
    Map<String, byte[]> toMap(List<KeyValue> kvs) {
        Map<String, byte[]> m = new LinkedHashMap<>(Math.max(4, kvs.size() * 2));
        for (KeyValue kv : kvs) {
            m.put(kv.getKey(), toText(kv.getValue()));
        }
        return m;
    }

    /** The text of {@code v} as Coroot's {@code valueToString} gives it, in bytes. */
    byte[] toText(AnyValue v) {
        switch (v.getValueCase()) {
            case STRING_VALUE:
                return v.getStringValueBytes().isValidUtf8() ? v.getStringValueBytes().toByteArray()
                        : v.getStringValue().getBytes(StandardCharsets.UTF_8); // protobuf-java's replacement
            case BOOL_VALUE:
                return v.getBoolValue() ? TRUE : FALSE;
            case INT_VALUE:
                return ascii(Long.toString(v.getIntValue()));
            case DOUBLE_VALUE: {
                double d = v.getDoubleValue();
                if (Double.isNaN(d)) {
                    return NAN;
                }
                if (Double.isInfinite(d)) {
                    return d > 0 ? PLUS_INF : MINUS_INF;
                }
                return ascii(GoFloat.plain(d));
            }
            case BYTES_VALUE:
                return v.getBytesValue().toByteArray();
            case ARRAY_VALUE: {
                List<AnyValue> vs = v.getArrayValue().getValuesList();
                Json j = new Json();
                j.out.write('[');
                for (int i = 0; i < vs.size(); i++) {
                    if (i > 0) {
                        j.out.write(',');
                    }
                    j.string(toText(vs.get(i)));
                }
                j.out.write(']');
                return j.out.toByteArray();
            }
            case KVLIST_VALUE: {
                Map<String, byte[]> m = new LinkedHashMap<>();
                for (KeyValue kv : v.getKvlistValue().getValuesList()) {
                    m.put(kv.getKey(), toText(kv.getValue()));
                }
                List<byte[][]> entries = new ArrayList<>(m.size());
                m.forEach((k, val) -> entries.add(new byte[][] {k.getBytes(StandardCharsets.UTF_8), val}));
                entries.sort((a, b) -> Arrays.compareUnsigned(a[0], b[0])); // encoding/json sorts a map's keys
                Json j = new Json();
                j.out.write('{');
                for (int i = 0; i < entries.size(); i++) {
                    if (i > 0) {
                        j.out.write(',');
                    }
                    j.string(entries.get(i)[0]);
                    j.out.write(':');
                    j.string(entries.get(i)[1]);
                }
                j.out.write('}');
                return j.out.toByteArray();
            }
            default:
                return UNKNOWN;
        }
    }

    /** Text written as {@code encoding/json} writes a Go string, within {@link #limit}. */
    private final class Json {
        final ByteArrayOutputStream out = new ByteArrayOutputStream(64);

        /**
         * {@code encoding/json}'s string with HTML escaping (as {@code json.Marshal} does): {@code
         * "} and {@code \} escaped, {@code \b \f \n \r \t} by name, other control bytes, {@code <
         * > &}, U+2028 and U+2029 as {@code \\u00XX}/{@code \\u20XX}, and each byte that does not
         * start valid UTF-8 as {@code \\ufffd}.
         */
        void string(byte[] s) {
            out.write('"');
            int i = 0;
            while (i < s.length) {
                if (out.size() > limit) {
                    throw over.get();
                }
                int b = s[i] & 0xFF;
                if (b < 0x80) {
                    if (b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&') {
                        out.write(b);
                    } else {
                        switch (b) {
                            case '"':
                            case '\\':
                                out.write('\\');
                                out.write(b);
                                break;
                            case '\b':
                                out.write('\\');
                                out.write('b');
                                break;
                            case '\f':
                                out.write('\\');
                                out.write('f');
                                break;
                            case '\n':
                                out.write('\\');
                                out.write('n');
                                break;
                            case '\r':
                                out.write('\\');
                                out.write('r');
                                break;
                            case '\t':
                                out.write('\\');
                                out.write('t');
                                break;
                            default:
                                out.write('\\');
                                out.write('u');
                                out.write('0');
                                out.write('0');
                                out.write(HEX[b >> 4]);
                                out.write(HEX[b & 0xF]);
                        }
                    }
                    i++;
                    continue;
                }
                int n = runeLength(s, i);
                if (n == 0) {
                    out.writeBytes(ascii("\\ufffd"));
                    i++;
                    continue;
                }
                if (n == 3 && b == 0xE2 && (s[i + 1] & 0xFF) == 0x80 && ((s[i + 2] & 0xFF) == 0xA8 || (s[i + 2] & 0xFF) == 0xA9)) {
                    out.writeBytes(ascii((s[i + 2] & 0xFF) == 0xA8 ? "\\u2028" : "\\u2029"));
                } else {
                    out.write(s, i, n);
                }
                i += n;
            }
            if (out.size() > limit) {
                throw over.get();
            }
            out.write('"');
        }
    }

    /**
     * The length of the valid UTF-8 sequence at {@code i} (its first byte at least 0x80), or 0 when
     * none starts there: Go's {@code utf8.DecodeRune} then reads one byte as U+FFFD.
     */
    static int runeLength(byte[] s, int i) {
        int b = s[i] & 0xFF;
        int n;
        int lo = 0x80;
        int hi = 0xBF;
        if (b >= 0xC2 && b <= 0xDF) {
            n = 2;
        } else if (b >= 0xE0 && b <= 0xEF) {
            n = 3;
            if (b == 0xE0) {
                lo = 0xA0;
            } else if (b == 0xED) {
                hi = 0x9F;
            }
        } else if (b >= 0xF0 && b <= 0xF4) {
            n = 4;
            if (b == 0xF0) {
                lo = 0x90;
            } else if (b == 0xF4) {
                hi = 0x8F;
            }
        } else {
            return 0;
        }
        if (i + n > s.length) {
            return 0;
        }
        int b1 = s[i + 1] & 0xFF;
        if (b1 < lo || b1 > hi) {
            return 0;
        }
        for (int k = 2; k < n; k++) {
            int c = s[i + k] & 0xFF;
            if (c < 0x80 || c > 0xBF) {
                return 0;
            }
        }
        return n;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
