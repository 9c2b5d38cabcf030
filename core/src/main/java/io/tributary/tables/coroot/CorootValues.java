package io.tributary.tables.coroot;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.tributary.otlp.GoFloat;

import com.google.protobuf.ByteString;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
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
 * <p>One instance renders the values of one record, within the bytes the record may still
 * render: every text it makes counts against that budget (a nested value at each level it is
 * rendered), and past it rendering stops with the caller's refusal. A nested array escapes its
 * elements' JSON again at every level, so a value of a few hundred bytes could otherwise grow to
 * gigabytes, and many such values in one record would hold them all at once. Not thread-safe.
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
    private static final byte[] REPLACEMENT = ascii("\\ufffd");

    private long left;
    private final Supplier<? extends RuntimeException> over;

    /**
     * @param budget the bytes the record's texts may take together
     * @param over the refusal thrown past it
     */
    CorootValues(long budget, Supplier<? extends RuntimeException> over) {
        this.left = budget;
        this.over = over;
    }

    /** Counts {@code n} bytes of text against the budget. */
    private void spend(long n) {
        left -= n;
        if (left < 0) {
            throw over.get();
        }
    }

    /** The bytes each span, event, link and key-value counts besides its text: what its row holds at least. */
    static final int ITEM_BYTES = 16;

    private static final byte[] NO_TEXT = new byte[0];

    /**
     * Text of a string field as the rows hold it, counted against the budget. protobuf-java has
     * refused the record if it was not valid UTF-8, as Coroot's Go protobuf refuses the request.
     */
    byte[] text(ByteString b) {
        if (b.isEmpty()) {
            return NO_TEXT;
        }
        spend(b.size());
        return b.toByteArray();
    }

    /** Counts {@code n} items (spans, events, links) against the budget, before their arrays are made. */
    void items(long n) {
        spend(n * ITEM_BYTES);
    }

    /** Coroot's {@code attributesToMap}: each key to its value's text, the last of a repeated key winning. */
    Map<ByteString, byte[]> toMap(List<KeyValue> kvs) {
        Map<ByteString, byte[]> m = new HashMap<>(Math.max(4, kvs.size() * 2));
        for (KeyValue kv : kvs) {
            spend(ITEM_BYTES + kv.getKeyBytes().size());
            m.put(kv.getKeyBytes(), toText(kv.getValue())); // keys as bytes: no decoding and encoding again
        }
        return m;
    }

    /** The text of {@code v} as Coroot's {@code valueToString} gives it, in bytes, counted against the budget. */
    byte[] toText(AnyValue v) {
        byte[] out = render(v);
        spend(out.length);
        return out;
    }

    private byte[] render(AnyValue v) {
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
                j.write('[');
                for (int i = 0; i < vs.size(); i++) {
                    if (i > 0) {
                        j.write(',');
                    }
                    j.string(toText(vs.get(i)));
                }
                j.write(']');
                return j.toByteArray();
            }
            case KVLIST_VALUE: {
                Map<String, byte[]> m = new LinkedHashMap<>();
                for (KeyValue kv : v.getKvlistValue().getValuesList()) {
                    spend(ITEM_BYTES + kv.getKeyBytes().size());
                    m.put(kv.getKey(), toText(kv.getValue()));
                }
                List<byte[][]> entries = new ArrayList<>(m.size());
                m.forEach((k, val) -> entries.add(new byte[][] {k.getBytes(StandardCharsets.UTF_8), val}));
                entries.sort((a, b) -> Arrays.compareUnsigned(a[0], b[0])); // encoding/json sorts a map's keys
                Json j = new Json();
                j.write('{');
                for (int i = 0; i < entries.size(); i++) {
                    if (i > 0) {
                        j.write(',');
                    }
                    j.string(entries.get(i)[0]);
                    j.write(':');
                    j.string(entries.get(i)[1]);
                }
                j.write('}');
                return j.toByteArray();
            }
            default:
                return UNKNOWN;
        }
    }

    /** Text written as {@code encoding/json} writes it, within the budget: a growable array, unsynchronized. */
    private final class Json {
        private byte[] buf = new byte[64];
        private int size;

        void write(int b) {
            if (size == buf.length) {
                grow(1);
            }
            buf[size++] = (byte) b;
        }

        private void write(byte[] b, int off, int n) {
            if (size + n > buf.length) {
                grow(n);
            }
            System.arraycopy(b, off, buf, size, n);
            size += n;
        }

        private void grow(int n) {
            if (size + (long) n > left || size + (long) n > Integer.MAX_VALUE - 8) {
                throw over.get(); // the text alone would pass what the record may still render
            }
            buf = java.util.Arrays.copyOf(buf, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(size + (long) n, 2L * buf.length)));
        }

        byte[] toByteArray() {
            return java.util.Arrays.copyOf(buf, size);
        }

        /**
         * {@code encoding/json}'s string with HTML escaping (as {@code json.Marshal} does): {@code
         * "} and {@code \} escaped, {@code \b \f \n \r \t} by name, other control bytes, {@code <
         * > &}, U+2028 and U+2029 as {@code \\u00XX}/{@code \\u20XX}, and each byte that does not
         * start valid UTF-8 as {@code \\ufffd}.
         */
        void string(byte[] s) {
            write('"');
            int i = 0;
            while (i < s.length) {
                int b = s[i] & 0xFF;
                if (b < 0x80) {
                    if (b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&') {
                        write(b);
                    } else {
                        escape(b);
                    }
                    i++;
                    continue;
                }
                int n = runeLength(s, i);
                if (n == 0) {
                    write(REPLACEMENT, 0, REPLACEMENT.length);
                    i++;
                    continue;
                }
                if (n == 3 && b == 0xE2 && (s[i + 1] & 0xFF) == 0x80 && ((s[i + 2] & 0xFF) == 0xA8 || (s[i + 2] & 0xFF) == 0xA9)) {
                    write('\\');
                    write('u');
                    write('2');
                    write('0');
                    write('2');
                    write((s[i + 2] & 0xFF) == 0xA8 ? '8' : '9');
                } else {
                    write(s, i, n);
                }
                i += n;
            }
            write('"');
        }

        private void escape(int b) {
            write('\\');
            switch (b) {
                case '"':
                case '\\':
                    write(b);
                    return;
                case '\b':
                    write('b');
                    return;
                case '\f':
                    write('f');
                    return;
                case '\n':
                    write('n');
                    return;
                case '\r':
                    write('r');
                    return;
                case '\t':
                    write('t');
                    return;
                default:
                    write('u');
                    write('0');
                    write('0');
                    write(HEX[b >> 4]);
                    write(HEX[b & 0xF]);
            }
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
