package io.tributary.otlp.json;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads OTLP/JSON of any OTLP message type straight into protobuf wire format, in one streaming
 * pass over the bytes, into one buffer reused from record to record: no protobuf-java messages,
 * no Strings, no parser objects. The protobuf wire readers then read those bytes as they read a
 * protobuf record, so every value rule of the tables stays in one place.
 *
 * <p>It reads what {@link OtlpJsonParser} reads, by the same rules (see there), and gives bytes
 * that protobuf parsing reads as the message {@link OtlpJsonParser} builds: fields in the order of
 * the JSON, repeated keys as further occurrences (the last scalar wins, as in protobuf), repeated
 * numbers packed. It takes the common form of the input, which is nearly all of it; for anything
 * else it answers {@code null} and the caller reads the record through {@link OtlpJsonParser},
 * which also words every refusal: JSON that is malformed or not OTLP, invalid UTF-8 (which the
 * message path reads with U+FFFD), escaped keys, escapes inside ids, numbers, enum names and base64
 * (text strings may hold any escape), integers written with a fraction, exponent or
 * more than 20 digits, numbers of more than {@value #MAX_NUMBER_LENGTH} characters, doubles
 * written as other strings than {@code "NaN"}, {@code "Infinity"} and {@code "-Infinity"}, enum
 * names unknown to the schema, base64 that is not in its plain form, a message field given twice
 * in one object (protobuf would merge the two; the message path keeps the last), nesting deeper
 * than {@value #MAX_DEPTH}, keys longer than {@value #MAX_KEY_LENGTH} bytes. Not thread-safe: one per task.
 */
public final class OtlpJsonToWire {

    /** Below Jackson's limit (1000) for the message path, which therefore decides the deeper ones. */
    static final int MAX_DEPTH = 900;
    /** Well below Jackson's limit (1000 characters) for the same reason; no double needs more. */
    static final int MAX_NUMBER_LENGTH = 400;
    /** Far below Jackson's limit on names (50,000 bytes), which the message path therefore applies. */
    static final int MAX_KEY_LENGTH = 1000;

    private static final ConcurrentHashMap<Descriptor, Plan> PLANS = new ConcurrentHashMap<>();

    /** Thrown, without a stack trace, where this reader leaves the record to the message path. */
    private static final class Unhandled extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unhandled() {
            super("left to the message path", null, false, false);
        }
    }

    private static final Unhandled UNHANDLED = new Unhandled();

    /** Exact powers of ten as doubles, for numbers that one IEEE operation rounds correctly. */
    private static final double[] POW10 = new double[23];

    static {
        double p = 1;
        for (int i = 0; i < POW10.length; i++) {
            POW10[i] = p;
            p *= 10;
        }
    }

    private final Plan root;
    private byte[] in;
    private int at;
    private int end;
    private byte[] out = new byte[4096];
    private int pos;

    /** @param type the descriptor of the message the JSON holds, e.g. {@code ExportTraceServiceRequest} */
    public OtlpJsonToWire(Descriptor type) {
        this.root = Plan.of(type);
    }

    /**
     * The protobuf encoding of the OTLP/JSON message in {@code json}, or {@code null} when the
     * record is left to {@link OtlpJsonParser} (see the class comment).
     *
     * <p>The answer is this reader's buffer, valid until the next call, and all of it is the
     * message: the bytes after the message proper are one field of number {@value #PADDING_FIELD}
     * that no OTLP message has, which protobuf readers skip as an unknown field. So the wire
     * readers, which take a whole array, read it without a copy of the message into an array of
     * its size.
     */
    public byte[] toWire(byte[] json) {
        in = json;
        at = 0;
        end = json.length;
        pos = 0;
        try {
            skipWhitespace();
            if (at >= end || in[at] != '{') {
                return null;
            }
            at++;
            object(root, 1);
            skipWhitespace();
            if (at != end) {
                return null;
            }
            pad();
            return out;
        } catch (Unhandled | ArrayIndexOutOfBoundsException e) {
            // an index past the end is input that ends inside a value
            return null;
        } finally {
            in = null;
        }
    }

    /**
     * Field number of the padding: OTLP messages use small numbers; its tags take 2 bytes. A reader
     * that refuses unknown fields skips this one at the top level.
     */
    public static final int PADDING_FIELD = 2047;

    /**
     * Fills the rest of the buffer with one unknown length-delimited field, its content left as
     * it is (nothing reads it); where no length fits exactly, as when the free space is just past
     * a varint's size boundary, an unknown varint field of 3 bytes goes first.
     */
    private void pad() {
        ensure(16);
        if (!padWith(PADDING_FIELD << 3 | 2)) {
            writeVarint(PADDING_FIELD << 3);
            out[pos++] = 0;
            padWith(PADDING_FIELD << 3 | 2);
        }
    }

    private boolean padWith(int tag) {
        int free = out.length - pos - varintSize(tag);
        for (int k = 1; k <= 5; k++) {
            int len = free - k;
            if (len >= 0 && varintSize(len) == k) {
                writeVarint(tag);
                int body = pos + k;
                // the length's varint, written without ensure(): exactly k bytes are left before the body
                long v = len;
                while ((v & ~0x7FL) != 0) {
                    out[pos++] = (byte) ((v & 0x7F) | 0x80);
                    v >>>= 7;
                }
                out[pos++] = (byte) v;
                pos = body + len;
                return true;
            }
        }
        return false;
    }

    // ---- the JSON grammar, driven by the message plan

    /**
     * Reads an object's members after its '{' into the message body being written; {@code depth}
     * counts the objects and arrays open, this one included, as Jackson's nesting limit does.
     */
    private void object(Plan plan, int depth) {
        if (depth > MAX_DEPTH) {
            throw UNHANDLED;
        }
        long messagesSeen = 0;
        skipWhitespace();
        if (in[at] == '}') {
            at++;
            return;
        }
        while (true) {
            if (in[at] != '"') {
                throw UNHANDLED;
            }
            at++;
            Field f = key(plan);
            skipWhitespace();
            if (in[at] != ':') {
                throw UNHANDLED;
            }
            at++;
            skipWhitespace();
            if (f == null) {
                skipValue(depth);
            } else if (isNull()) {
                at += 4;
            } else if (f.repeated) {
                array(f, depth);
            } else {
                if (f.kind == OtlpJsonKind.MESSAGE) {
                    long bit = 1L << f.number;
                    if ((messagesSeen & bit) != 0 || f.number >= 64) {
                        throw UNHANDLED;
                    }
                    messagesSeen |= bit;
                }
                value(f, depth);
            }
            skipWhitespace();
            byte c = in[at++];
            if (c == '}') {
                return;
            }
            if (c != ',') {
                throw UNHANDLED;
            }
            skipWhitespace();
        }
    }

    /** A repeated field's array, inside an object at {@code depth}. */
    private void array(Field f, int depth) {
        if (in[at] != '[' || depth + 1 > MAX_DEPTH) {
            throw UNHANDLED;
        }
        at++;
        skipWhitespace();
        boolean packed = f.packed;
        int start = pos;
        int body = 0;
        if (packed) {
            writeTag(f.packedTag);
            body = open();
        }
        if (in[at] == ']') {
            at++;
        } else {
            while (true) {
                if (isNull()) {
                    if (f.kind != OtlpJsonKind.MESSAGE) {
                        throw UNHANDLED;
                    }
                    at += 4;
                    writeTag(f.tag);
                    writeByte(0);
                } else if (packed) {
                    scalar(f);
                } else {
                    value(f, depth + 1);
                }
                skipWhitespace();
                byte c = in[at++];
                if (c == ']') {
                    break;
                }
                if (c != ',') {
                    throw UNHANDLED;
                }
                skipWhitespace();
            }
        }
        if (packed) {
            if (pos == body) {
                // no elements: no field, as protobuf-java writes an empty list
                pos = start;
            } else {
                close(body);
            }
        }
    }

    /**
     * Writes field {@code f} (tag and value) from the non-null JSON value at the cursor, inside
     * an object or array at {@code depth}.
     */
    private void value(Field f, int depth) {
        switch (f.kind) {
            case MESSAGE: {
                if (in[at] != '{') {
                    throw UNHANDLED;
                }
                at++;
                writeTag(f.tag);
                int body = open();
                object(f.child(), depth + 1);
                close(body);
                return;
            }
            case STRING: {
                if (in[at] != '"') {
                    throw UNHANDLED;
                }
                at++;
                writeTag(f.tag);
                int body = open();
                string();
                close(body);
                return;
            }
            case BYTES:
                writeTag(f.tag);
                base64();
                return;
            case HEX_ID:
                writeTag(f.tag);
                hexId(f.idLength);
                return;
            default:
                writeTag(f.tag);
                scalar(f);
        }
    }

    /** Writes a number, bool or enum value of {@code f} without its tag. */
    private void scalar(Field f) {
        switch (f.kind) {
            case BOOL:
                if (matches("true")) {
                    at += 4;
                    writeByte(1);
                } else if (matches("false")) {
                    at += 5;
                    writeByte(0);
                } else {
                    throw UNHANDLED;
                }
                return;
            case ENUM:
                writeInt(f, in[at] == '"' && !digitOrMinus(in[at + 1]) ? enumName(f) : int32(false));
                return;
            case INT32:
                writeInt(f, int32(false));
                return;
            case UINT32:
                writeInt(f, int32(true));
                return;
            case INT64:
                writeLong(f, integer(false));
                return;
            case UINT64:
                writeLong(f, integer(true));
                return;
            case DOUBLE:
                writeFixed64(Double.doubleToRawLongBits(float64()));
                return;
            default:
                // FLOAT, which OTLP does not have, and the kinds written by value()
                throw UNHANDLED;
        }
    }

    private static boolean digitOrMinus(byte c) {
        return c == '-' || c >= '0' && c <= '9';
    }

    /** A key from after its opening quote: its field, or null for an unknown key. */
    private Field key(Plan plan) {
        int start = at;
        int hash = 0;
        while (true) {
            byte c = in[at];
            if (c == '"') {
                break;
            }
            if (c == '\\' || (c & 0xFF) < 0x20) {
                throw UNHANDLED;
            }
            if (c < 0) {
                at = utf8(at);
                continue;
            }
            hash = hash * 31 + c;
            at++;
        }
        int length = at - start;
        at++;
        if (length > MAX_KEY_LENGTH) {
            throw UNHANDLED;
        }
        return plan.field(in, start, length, hash);
    }

    // ---- values

    /** Copies a string's content from after its opening quote, decoding escapes, to the closing quote. */
    private void string() {
        while (true) {
            int run = at;
            while (true) {
                byte c = in[at];
                if (c == '"' || c == '\\' || c < 0x20) {
                    break;
                }
                at++;
            }
            if (at > run) {
                writeBytes(in, run, at - run);
            }
            byte c = in[at];
            if (c == '"') {
                at++;
                return;
            }
            if (c == '\\') {
                escape();
            } else if (c < 0) {
                int next = utf8(at);
                writeBytes(in, at, next - at);
                at = next;
            } else {
                // a control character, which JSON requires escaped
                throw UNHANDLED;
            }
        }
    }

    /**
     * The position after the well-formed UTF-8 character at {@code p} (no overlong forms, no
     * surrogates, nothing above U+10FFFF); anything else goes to the message path, which puts
     * U+FFFD in its place.
     */
    private int utf8(int p) {
        int b0 = in[p] & 0xFF;
        if (b0 < 0xC2 || b0 > 0xF4) {
            throw UNHANDLED;
        }
        int b1 = in[p + 1] & 0xFF;
        if (b0 < 0xE0) {
            continuation(b1);
            return p + 2;
        }
        int lo = b0 == 0xE0 ? 0xA0 : b0 == 0xF0 ? 0x90 : 0x80;
        int hi = b0 == 0xED ? 0x9F : b0 == 0xF4 ? 0x8F : 0xBF;
        if (b1 < lo || b1 > hi) {
            throw UNHANDLED;
        }
        continuation(in[p + 2] & 0xFF);
        if (b0 < 0xF0) {
            return p + 3;
        }
        continuation(in[p + 3] & 0xFF);
        return p + 4;
    }

    private static void continuation(int b) {
        if ((b & 0xC0) != 0x80) {
            throw UNHANDLED;
        }
    }

    /**
     * Decodes the escape at the cursor. A {@code \\u} escape of a surrogate pairs with a {@code
     * \\u} escape right after it; one that pairs with nothing is written as U+FFFD, as the
     * message path reads it.
     */
    private void escape() {
        byte e = in[at + 1];
        at += 2;
        switch (e) {
            case '"':
            case '\\':
            case '/':
                writeByte(e);
                return;
            case 'b':
                writeByte('\b');
                return;
            case 'f':
                writeByte('\f');
                return;
            case 'n':
                writeByte('\n');
                return;
            case 'r':
                writeByte('\r');
                return;
            case 't':
                writeByte('\t');
                return;
            case 'u':
                break;
            default:
                throw UNHANDLED;
        }
        int c = hex4(at);
        at += 4;
        if (Character.isHighSurrogate((char) c)) {
            if (in[at] == '\\' && in[at + 1] == 'u') {
                int low = hex4(at + 2);
                if (Character.isLowSurrogate((char) low)) {
                    at += 6;
                    writeCodePoint(Character.toCodePoint((char) c, (char) low));
                    return;
                }
            }
            c = 0xFFFD;
        } else if (Character.isLowSurrogate((char) c)) {
            c = 0xFFFD;
        }
        writeCodePoint(c);
    }

    private int hex4(int p) {
        int v = 0;
        for (int i = 0; i < 4; i++) {
            int d = hexDigit(in[p + i]);
            if (d < 0) {
                throw UNHANDLED;
            }
            v = v << 4 | d;
        }
        return v;
    }

    private static int hexDigit(byte c) {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }

    private void writeCodePoint(int c) {
        ensure(4);
        if (c < 0x80) {
            out[pos++] = (byte) c;
        } else if (c < 0x800) {
            out[pos++] = (byte) (0xC0 | c >> 6);
            out[pos++] = (byte) (0x80 | c & 0x3F);
        } else if (c < 0x10000) {
            out[pos++] = (byte) (0xE0 | c >> 12);
            out[pos++] = (byte) (0x80 | c >> 6 & 0x3F);
            out[pos++] = (byte) (0x80 | c & 0x3F);
        } else {
            out[pos++] = (byte) (0xF0 | c >> 18);
            out[pos++] = (byte) (0x80 | c >> 12 & 0x3F);
            out[pos++] = (byte) (0x80 | c >> 6 & 0x3F);
            out[pos++] = (byte) (0x80 | c & 0x3F);
        }
    }

    /** A trace, span or profile id: "" or exactly {@code length * 2} hex digits, either case. */
    private void hexId(int length) {
        if (in[at] != '"') {
            throw UNHANDLED;
        }
        at++;
        if (in[at] == '"') {
            at++;
            writeByte(0);
            return;
        }
        writeVarint(length);
        ensure(length);
        for (int i = 0; i < length; i++) {
            int hi = hexDigit(in[at]);
            int lo = hexDigit(in[at + 1]);
            if (hi < 0 || lo < 0) {
                throw UNHANDLED;
            }
            out[pos++] = (byte) (hi << 4 | lo);
            at += 2;
        }
        if (in[at] != '"') {
            throw UNHANDLED;
        }
        at++;
    }

    /**
     * Base64 in one alphabet (standard, or URL-safe when it has '-' or '_'), padded to a multiple
     * of 4 or not padded, with zero bits after the last byte: the form every encoder writes.
     */
    private void base64() {
        if (in[at] != '"') {
            throw UNHANDLED;
        }
        int start = ++at;
        boolean url = false;
        boolean standard = false;
        while (in[at] != '"') {
            byte c = in[at];
            if (c == '-' || c == '_') {
                url = true;
            } else if (c == '+' || c == '/') {
                standard = true;
            } else if (!(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '=')) {
                throw UNHANDLED;
            }
            at++;
        }
        if (url && standard) {
            throw UNHANDLED;
        }
        int stop = at;
        at++;
        int n = stop - start;
        int padding = 0;
        while (padding < n && in[stop - 1 - padding] == '=') {
            padding++;
        }
        if (padding > 0 && (n % 4 != 0 || padding > 2)) {
            throw UNHANDLED;
        }
        int chars = n - padding;
        if (chars % 4 == 1) {
            throw UNHANDLED;
        }
        int bytes = chars / 4 * 3 + (chars % 4 == 0 ? 0 : chars % 4 - 1);
        writeVarint(bytes);
        ensure(bytes);
        int bits = 0;
        int held = 0;
        for (int i = start; i < start + chars; i++) {
            int v = sextet(in[i]);
            if (v < 0) {
                throw UNHANDLED;
            }
            bits = bits << 6 | v;
            held += 6;
            if (held >= 8) {
                held -= 8;
                out[pos++] = (byte) (bits >> held);
                bits &= (1 << held) - 1;
            }
        }
        if (bits != 0) {
            throw UNHANDLED;
        }
    }

    private static int sextet(byte c) {
        if (c >= 'A' && c <= 'Z') {
            return c - 'A';
        }
        if (c >= 'a' && c <= 'z') {
            return c - 'a' + 26;
        }
        if (c >= '0' && c <= '9') {
            return c - '0' + 52;
        }
        if (c == '+' || c == '-') {
            return 62;
        }
        if (c == '/' || c == '_') {
            return 63;
        }
        return -1;
    }

    /** An enum value name in quotes, as its number. */
    private int enumName(Field f) {
        int start = ++at;
        while (in[at] != '"') {
            if (in[at] == '\\' || in[at] < 0x20) {
                throw UNHANDLED;
            }
            at++;
        }
        int length = at - start;
        at++;
        byte[][] names = f.enumNames;
        for (int i = 0; i < names.length; i++) {
            if (names[i].length == length && Plan.sameName(names[i], in, start)) {
                return f.enumNumbers[i];
            }
        }
        throw UNHANDLED;
    }

    /** A 32-bit integer, read as the message path reads one: a signed 64-bit one, then its range. */
    private int int32(boolean unsigned) {
        long v = integer(false);
        if (unsigned ? v < 0 || v > 0xFFFF_FFFFL : v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw UNHANDLED;
        }
        return (int) v;
    }

    /**
     * An integer written as a JSON integer or as a decimal string of ASCII digits with an optional
     * '-'; uint64 values above 2^63 - 1 wrap to negative longs.
     */
    private long integer(boolean unsigned) {
        boolean quoted = in[at] == '"';
        if (quoted) {
            at++;
        }
        boolean negative = in[at] == '-';
        if (negative) {
            at++;
        }
        int start = at;
        long v = 0;
        while (in[at] >= '0' && in[at] <= '9') {
            at++;
        }
        int digits = at - start;
        if (digits == 0 || digits > 20 || !quoted && digits > 1 && in[start] == '0') {
            throw UNHANDLED;
        }
        if (digits == 20 && Arrays.compare(in, start, at, UINT64_MAX, 0, 20) > 0) {
            throw UNHANDLED;
        }
        for (int i = start; i < at; i++) {
            // below 2^64 as checked, so the unsigned arithmetic is exact
            v = v * 10 + (in[i] - '0');
        }
        if (quoted) {
            if (in[at] != '"') {
                throw UNHANDLED;
            }
            at++;
        } else {
            byte c = in[at];
            if (c == '.' || c == 'e' || c == 'E') {
                throw UNHANDLED;
            }
        }
        if (negative) {
            if (v == 0) {
                return 0;
            }
            if (unsigned || Long.compareUnsigned(v, Long.MIN_VALUE) > 0) {
                throw UNHANDLED;
            }
            return -v;
        }
        if (!unsigned && v < 0) {
            throw UNHANDLED;
        }
        return v;
    }

    private static final byte[] UINT64_MAX = "18446744073709551615".getBytes(StandardCharsets.US_ASCII);

    /**
     * A double: a JSON number, or one of the strings "NaN", "Infinity", "-Infinity", rounded as
     * {@link Double#parseDouble} rounds it (the message path's Jackson uses it; an integer token's
     * long converted to double rounds the same). A significand of at most 15 digits with a decimal
     * exponent of at most 22 either way is one correctly rounded operation on exact doubles; most
     * others are {@link DecimalToDouble}'s; the rest (subnormals, more than 19 digits, near ties)
     * go to {@link Double#parseDouble} itself, at the cost of a String.
     */
    private double float64() {
        if (in[at] == '"') {
            if (matches("\"NaN\"")) {
                at += 5;
                return Double.NaN;
            }
            if (matches("\"Infinity\"")) {
                at += 10;
                return Double.POSITIVE_INFINITY;
            }
            if (matches("\"-Infinity\"")) {
                at += 11;
                return Double.NEGATIVE_INFINITY;
            }
            throw UNHANDLED;
        }
        int start = at;
        boolean negative = in[at] == '-';
        if (negative) {
            at++;
        }
        // up to 19 significant digits in the significand, the count of all of them, and the power of ten it is scaled by
        long significand = 0;
        int significant = 0;
        int scale = 0;
        int intStart = at;
        while (in[at] >= '0' && in[at] <= '9') {
            int d = in[at] - '0';
            if (significand != 0 || d != 0) {
                if (significant < 19) {
                    significand = significand * 10 + d;
                } else {
                    scale++;
                }
                significant++;
            }
            at++;
        }
        int intDigits = at - intStart;
        if (intDigits == 0 || intDigits > 1 && in[intStart] == '0') {
            throw UNHANDLED;
        }
        if (in[at] == '.') {
            at++;
            int fracStart = at;
            while (in[at] >= '0' && in[at] <= '9') {
                int d = in[at] - '0';
                if (significand != 0 || d != 0) {
                    if (significant < 19) {
                        significand = significand * 10 + d;
                        scale--;
                    }
                    significant++;
                } else {
                    scale--;
                }
                at++;
            }
            if (at == fracStart) {
                throw UNHANDLED;
            }
        }
        int exponent = 0;
        if (in[at] == 'e' || in[at] == 'E') {
            at++;
            boolean negExp = false;
            if (in[at] == '+' || in[at] == '-') {
                negExp = in[at] == '-';
                at++;
            }
            int expStart = at;
            while (in[at] >= '0' && in[at] <= '9') {
                if (exponent < 100_000) {
                    exponent = exponent * 10 + (in[at] - '0');
                }
                at++;
            }
            if (at == expStart) {
                throw UNHANDLED;
            }
            if (negExp) {
                exponent = -exponent;
            }
        }
        if (at - start > MAX_NUMBER_LENGTH) {
            throw UNHANDLED;
        }
        if (significand == 0) {
            return negative ? -0.0 : 0.0;
        }
        if (significant <= 15) {
            // the significand and the power of ten are exact doubles, so one operation rounds correctly
            int e = scale + exponent;
            double d = significand;
            if (e >= 0 && e < POW10.length) {
                d *= POW10[e];
                return negative ? -d : d;
            }
            if (e < 0 && -e < POW10.length) {
                d /= POW10[-e];
                return negative ? -d : d;
            }
        }
        if (significant <= 19) {
            long bits = DecimalToDouble.bits(significand, scale + exponent);
            if (bits != DecimalToDouble.UNKNOWN) {
                double d = Double.longBitsToDouble(bits);
                return negative ? -d : d;
            }
        }
        return Double.parseDouble(new String(in, start, at - start, StandardCharsets.US_ASCII));
    }

    // ---- skipping the values of unknown keys, checking their syntax as the message path does

    /** Skips the value at the cursor, inside an object or array at {@code outer}. */
    private void skipValue(int outer) {
        byte c = in[at];
        int depth = outer + 1;
        if ((c == '{' || c == '[') && depth > MAX_DEPTH) {
            throw UNHANDLED;
        }
        switch (c) {
            case '{':
                at++;
                skipWhitespace();
                if (in[at] == '}') {
                    at++;
                    return;
                }
                while (true) {
                    if (in[at] != '"') {
                        throw UNHANDLED;
                    }
                    int key = ++at;
                    skipString();
                    if (at - key > MAX_KEY_LENGTH) {
                        throw UNHANDLED;
                    }
                    skipWhitespace();
                    if (in[at++] != ':') {
                        throw UNHANDLED;
                    }
                    skipWhitespace();
                    skipValue(depth);
                    skipWhitespace();
                    byte d = in[at++];
                    if (d == '}') {
                        return;
                    }
                    if (d != ',') {
                        throw UNHANDLED;
                    }
                    skipWhitespace();
                }
            case '[':
                at++;
                skipWhitespace();
                if (in[at] == ']') {
                    at++;
                    return;
                }
                while (true) {
                    skipValue(depth);
                    skipWhitespace();
                    byte d = in[at++];
                    if (d == ']') {
                        return;
                    }
                    if (d != ',') {
                        throw UNHANDLED;
                    }
                    skipWhitespace();
                }
            case '"':
                at++;
                skipString();
                return;
            case 't':
                literal("true");
                return;
            case 'f':
                literal("false");
                return;
            case 'n':
                literal("null");
                return;
            default:
                skipNumber();
        }
    }

    private void skipString() {
        while (true) {
            byte c = in[at];
            if (c == '"') {
                at++;
                return;
            }
            if (c == '\\') {
                byte e = in[at + 1];
                if (e == 'u') {
                    hex4(at + 2);
                    at += 6;
                } else if ("\"\\/bfnrt".indexOf(e) >= 0) {
                    at += 2;
                } else {
                    throw UNHANDLED;
                }
            } else if (c < 0) {
                at = utf8(at);
            } else if (c < 0x20) {
                throw UNHANDLED;
            } else {
                at++;
            }
        }
    }

    private void skipNumber() {
        int start = at;
        if (in[at] == '-') {
            at++;
        }
        int intStart = at;
        while (in[at] >= '0' && in[at] <= '9') {
            at++;
        }
        if (at == intStart || at - intStart > 1 && in[intStart] == '0') {
            throw UNHANDLED;
        }
        if (in[at] == '.') {
            at++;
            int s = at;
            while (in[at] >= '0' && in[at] <= '9') {
                at++;
            }
            if (at == s) {
                throw UNHANDLED;
            }
        }
        if (in[at] == 'e' || in[at] == 'E') {
            at++;
            if (in[at] == '+' || in[at] == '-') {
                at++;
            }
            int s = at;
            while (in[at] >= '0' && in[at] <= '9') {
                at++;
            }
            if (at == s) {
                throw UNHANDLED;
            }
        }
        if (at - start > MAX_NUMBER_LENGTH) {
            throw UNHANDLED;
        }
    }

    private void literal(String word) {
        if (!matches(word)) {
            throw UNHANDLED;
        }
        at += word.length();
    }

    /** Whether the input at the cursor starts with {@code word}, and no letter or digit follows it. */
    private boolean matches(String word) {
        int n = word.length();
        if (at + n > end) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (in[at + i] != word.charAt(i)) {
                return false;
            }
        }
        if (at + n < end) {
            byte next = in[at + n];
            return !(next >= 'a' && next <= 'z' || next >= 'A' && next <= 'Z' || next >= '0' && next <= '9'
                    || next == '_' || next < 0);
        }
        return true;
    }

    private boolean isNull() {
        return in[at] == 'n' && matches("null");
    }

    private void skipWhitespace() {
        while (at < end) {
            byte c = in[at];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return;
            }
            at++;
        }
    }

    // ---- protobuf wire format (https://protobuf.dev/programming-guides/encoding/)

    /**
     * Starts a length-delimited body: one byte is kept for its length, which {@link #close} writes
     * and, for a body of 128 bytes or more, makes room for by moving the body up.
     */
    private int open() {
        ensure(1);
        out[pos++] = 0;
        return pos;
    }

    private void close(int body) {
        int length = pos - body;
        if (length < 0x80) {
            out[body - 1] = (byte) length;
            return;
        }
        int extra = varintSize(length) - 1;
        ensure(extra);
        System.arraycopy(out, body, out, body + extra, length);
        int after = pos + extra;
        pos = body - 1;
        writeVarint(length);
        pos = after;
    }

    private void writeTag(byte[] tag) {
        writeBytes(tag, 0, tag.length);
    }

    /** int32 and enums as protobuf-java writes them: negative values sign-extended to 10 bytes. */
    private void writeInt(Field f, int v) {
        switch (f.type) {
            case FIXED32:
            case SFIXED32:
                ensure(4);
                for (int i = 0; i < 4; i++) {
                    out[pos++] = (byte) (v >>> (8 * i));
                }
                return;
            case SINT32:
                writeVarint((v << 1) ^ (v >> 31));
                return;
            case UINT32:
                writeVarint(v & 0xFFFF_FFFFL);
                return;
            default:
                writeVarint((long) v);
        }
    }

    private void writeLong(Field f, long v) {
        switch (f.type) {
            case FIXED64:
            case SFIXED64:
                writeFixed64(v);
                return;
            case SINT64:
                writeVarint((v << 1) ^ (v >> 63));
                return;
            default:
                writeVarint(v);
        }
    }

    private void writeFixed64(long v) {
        ensure(8);
        for (int i = 0; i < 8; i++) {
            out[pos++] = (byte) (v >>> (8 * i));
        }
    }

    private void writeVarint(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            out[pos++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out[pos++] = (byte) v;
    }

    private static int varintSize(long v) {
        int n = 1;
        while ((v & ~0x7FL) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    private void writeByte(int b) {
        ensure(1);
        out[pos++] = (byte) b;
    }

    private void writeBytes(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, out, pos, len);
        pos += len;
    }

    /** Room for {@code n} more bytes; the buffer grows by half, as the record's size asks. */
    private void ensure(int n) {
        if (out.length - pos < n) {
            long size = Math.max((long) pos + n, (long) out.length + (out.length >> 1));
            if (size > Integer.MAX_VALUE - 16) {
                throw UNHANDLED;
            }
            out = Arrays.copyOf(out, (int) size);
        }
    }

    // ---- what the descriptors say, worked out once per message type

    /** The fields of one message type, found by their JSON or proto name's UTF-8 bytes. */
    private static final class Plan {
        private final byte[][] names;
        private final Field[] fields;
        private final int mask;

        static Plan of(Descriptor d) {
            Plan p = PLANS.get(d);
            if (p == null) {
                // a racing duplicate is harmless: plans hold only what the descriptor says
                p = new Plan(d);
                Plan raced = PLANS.putIfAbsent(d, p);
                if (raced != null) {
                    p = raced;
                }
            }
            return p;
        }

        private Plan(Descriptor d) {
            List<byte[]> keys = new ArrayList<>();
            List<Field> values = new ArrayList<>();
            for (FieldDescriptor fd : d.getFields()) {
                Field f = new Field(fd);
                keys.add(fd.getJsonName().getBytes(StandardCharsets.UTF_8));
                values.add(f);
                if (!fd.getName().equals(fd.getJsonName())) {
                    keys.add(fd.getName().getBytes(StandardCharsets.UTF_8));
                    values.add(f);
                }
            }
            int size = Integer.highestOneBit(Math.max(4, keys.size() * 4) - 1) << 1;
            names = new byte[size][];
            fields = new Field[size];
            mask = size - 1;
            for (int i = 0; i < keys.size(); i++) {
                byte[] k = keys.get(i);
                int slot = hash(k, 0, k.length) & mask;
                while (names[slot] != null) {
                    slot = (slot + 1) & mask;
                }
                names[slot] = k;
                fields[slot] = values.get(i);
            }
        }

        private static int hash(byte[] b, int off, int len) {
            int h = 0;
            for (int i = off; i < off + len; i++) {
                h = h * 31 + b[i];
            }
            return h;
        }

        /**
         * Whether {@code k} lies at {@code off} in {@code b}: field names are a few ASCII bytes, which a
         * plain loop compares faster than {@link Arrays#equals}'s range checks and vectorized intrinsic.
         */
        private static boolean sameName(byte[] k, byte[] b, int off) {
            for (int i = 0; i < k.length; i++) {
                if (k[i] != b[off + i]) {
                    return false;
                }
            }
            return true;
        }

        /** The field named by {@code length} bytes at {@code off} whose {@link #hash} is {@code hash}. */
        Field field(byte[] b, int off, int length, int hash) {
            int slot = hash & mask;
            while (names[slot] != null) {
                byte[] k = names[slot];
                if (k.length == length && sameName(k, b, off)) {
                    return fields[slot];
                }
                slot = (slot + 1) & mask;
            }
            return null;
        }
    }

    private static final class Field {
        final int number;
        final FieldDescriptor.Type type;
        final OtlpJsonKind kind;
        final boolean repeated;
        /** Repeated numbers, bools and enums, written packed as proto3 does. */
        final boolean packed;
        final byte[] tag;
        final byte[] packedTag;
        final int idLength;
        final byte[][] enumNames;
        final int[] enumNumbers;
        private final Descriptor childType;
        /** Resolved on first use, as message types nest recursively (AnyValue → ArrayValue → AnyValue). */
        private Plan child;

        Field(FieldDescriptor fd) {
            this.number = fd.getNumber();
            this.type = fd.getType();
            this.kind = OtlpJsonKind.of(fd);
            this.repeated = fd.isRepeated();
            this.packed = repeated && fd.getJavaType() != FieldDescriptor.JavaType.MESSAGE
                    && fd.getJavaType() != FieldDescriptor.JavaType.STRING
                    && fd.getJavaType() != FieldDescriptor.JavaType.BYTE_STRING;
            this.tag = varint((long) number << 3 | wireType(fd));
            this.packedTag = varint((long) number << 3 | 2);
            this.idLength = OtlpJsonKind.idLength(fd);
            this.childType = kind == OtlpJsonKind.MESSAGE ? fd.getMessageType() : null;
            if (kind == OtlpJsonKind.ENUM) {
                List<EnumValueDescriptor> values = fd.getEnumType().getValues();
                enumNames = new byte[values.size()][];
                enumNumbers = new int[values.size()];
                for (int i = 0; i < values.size(); i++) {
                    enumNames[i] = values.get(i).getName().getBytes(StandardCharsets.UTF_8);
                    enumNumbers[i] = values.get(i).getNumber();
                }
            } else {
                enumNames = new byte[0][];
                enumNumbers = new int[0];
            }
        }

        Plan child() {
            Plan p = child;
            if (p == null) {
                p = Plan.of(childType);
                child = p;
            }
            return p;
        }

        private static int wireType(FieldDescriptor fd) {
            switch (fd.getType()) {
                case DOUBLE:
                case FIXED64:
                case SFIXED64:
                    return 1;
                case FLOAT:
                case FIXED32:
                case SFIXED32:
                    return 5;
                case STRING:
                case BYTES:
                case MESSAGE:
                    return 2;
                default:
                    return 0;
            }
        }

        private static byte[] varint(long v) {
            byte[] b = new byte[varintSize(v)];
            int i = 0;
            while ((v & ~0x7FL) != 0) {
                b[i++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            b[i] = (byte) v;
            return b;
        }
    }
}
