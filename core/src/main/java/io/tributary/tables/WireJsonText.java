package io.tributary.tables;

import io.tributary.otlp.GoFloat;
import io.tributary.otlp.InvalidProtobufException;
import io.tributary.otlp.Utf8;
import io.tributary.otlp.proto.ProtoReader;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.tables.WireValues.IntList;

/**
 * An array or map {@code AnyValue} rendered as the JSON text of pdata's {@code AsString()}, read
 * where it lies in a record: the same text {@link AnyValues} makes from protobuf-java messages (see
 * its rules: keys last-wins and in byte order, bytes as base64, a NaN or infinity anywhere makes the
 * whole text empty), written into a byte buffer with no object per value.
 *
 * <p>Protobuf's merging is followed: an {@code AnyValue}'s last case wins, and the occurrences of a
 * message case since the last change of case merge (their lists concatenate), as pdata reads them
 * and as {@link WireValues} reads the outermost value; a {@code KeyValue}'s last key wins and its
 * value's occurrences merge. (protobuf-java's parser, when no string in the record is invalid
 * UTF-8, also merges occurrences from before such a change; no producer writes a case, another,
 * then the first again, so the difference is not met in practice.) Invalid UTF-8 in a string
 * is read as everywhere else, with U+FFFD, which costs a copy of that string. The structure has
 * been checked where the value was read ({@link WireValues#skimAnyValueContainer}), so reading it
 * again here meets no error.
 *
 * <p>State between calls is scratch only; not thread-safe: one per {@link WireValues}.
 */
final class WireJsonText {

    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};
    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};

    /**
     * The ranges (start, length) of values being rendered, used as a stack: each level appends the
     * occurrences it found and drops them when done.
     */
    private final IntList ranges = new IntList();
    /** Per map level, its entries ({@link #ENTRY} ints each) then their order and a merge scratch; a stack too. */
    private int[] ints = new int[64];
    private int intsTop;
    /** Keys with invalid UTF-8, as read with U+FFFD: an entry's key start {@code -1 - i} is at {@code i} here. */
    private final RowBinaryWriter fixedKeys = new RowBinaryWriter(64);
    private byte[] buf;

    /** An entry: key start (negative: in {@link #fixedKeys}), key length, then its value's ranges (from, to). */
    private static final int ENTRY = 4;

    /**
     * Writes to {@code out} the JSON of the array or map value ({@code kind} {@link WireValues#ARRAY}
     * or {@link WireValues#KVLIST}) whose message occurrences are {@code occurrences}, each one level
     * below {@code valueReader} (the reader of the {@code AnyValue}); false, with {@code out} partly
     * written, where Go's encoder fails (a NaN or infinity inside).
     */
    boolean write(ProtoReader valueReader, int kind, IntList occurrences, RowBinaryWriter out) throws InvalidProtobufException {
        buf = valueReader.buffer();
        ranges.clear();
        intsTop = 0;
        fixedKeys.reset();
        for (int i = 0; i < occurrences.size(); i++) {
            ranges.add(occurrences.get(i));
        }
        return container(valueReader, kind, 0, ranges.size(), out);
    }

    /** The AnyValue whose occurrences are {@code ranges[from, to)}, one level below {@code parent}. */
    private boolean value(ProtoReader parent, int from, int to, RowBinaryWriter out) throws InvalidProtobufException {
        int kind = WireValues.NONE;
        int start = 0;
        int len = 0;
        long scalar = 0;
        int messages = ranges.size();
        ProtoReader r = null;
        for (int k = from; k < to; k += 2) {
            r = parent.child(ranges.get(k), ranges.get(k + 1));
            while (r.next()) {
                int f = r.field();
                switch (f) {
                    case WireValues.STRING:
                    case WireValues.BYTES:
                        if (r.wireType() != ProtoReader.LEN) {
                            r.skip();
                            break;
                        }
                        r.readBytes();
                        kind = f;
                        start = r.start();
                        len = r.length();
                        break;
                    case WireValues.BOOL:
                    case WireValues.INT:
                        if (r.wireType() != ProtoReader.VARINT) {
                            r.skip();
                            break;
                        }
                        kind = f;
                        scalar = r.readVarint();
                        break;
                    case WireValues.DOUBLE:
                        if (r.wireType() != ProtoReader.I64) {
                            r.skip();
                            break;
                        }
                        kind = f;
                        scalar = r.readFixed64();
                        break;
                    case WireValues.ARRAY:
                    case WireValues.KVLIST:
                        if (r.wireType() != ProtoReader.LEN) {
                            r.skip();
                            break;
                        }
                        r.readBytes();
                        if (kind != f) {
                            ranges.truncate(messages); // another case replaced it: this one starts afresh
                        }
                        kind = f;
                        ranges.add(r.start(), r.length());
                        break;
                    default:
                        r.skip();
                }
            }
        }
        boolean ok = true;
        switch (kind) {
            case WireValues.STRING:
                string(buf, start, len, out);
                break;
            case WireValues.BOOL:
                out.writeRaw(scalar != 0 ? TRUE : FALSE, 0, scalar != 0 ? 4 : 5);
                break;
            case WireValues.INT:
                WireValues.writeDecimalText(scalar, out);
                break;
            case WireValues.DOUBLE:
                double d = Double.longBitsToDouble(scalar);
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    ok = false;
                    break;
                }
                int mark = out.size();
                byte[] b = out.reserve(GoFloat.MAX_LENGTH);
                out.truncate(GoFloat.writeEs6(d, b, mark));
                break;
            case WireValues.BYTES:
                if (len == 0) {
                    out.writeRaw(NULL, 0, 4); // pdata's AsRaw gives a nil slice, which JSON-encodes as null
                } else {
                    out.writeUInt8('"');
                    WireValues.writeBase64Text(buf, start, len, out);
                    out.writeUInt8('"');
                }
                break;
            case WireValues.ARRAY:
            case WireValues.KVLIST:
                ok = container(r, kind, messages, ranges.size(), out);
                break;
            default:
                out.writeRaw(NULL, 0, 4);
        }
        ranges.truncate(messages);
        return ok;
    }

    /** The ArrayValue or KeyValueList whose occurrences are {@code ranges[from, to)}, one level below {@code parent}. */
    private boolean container(ProtoReader parent, int kind, int from, int to, RowBinaryWriter out) throws InvalidProtobufException {
        if (kind == WireValues.ARRAY) {
            out.writeUInt8('[');
            boolean first = true;
            for (int k = from; k < to; k += 2) {
                ProtoReader a = parent.child(ranges.get(k), ranges.get(k + 1));
                while (a.next()) {
                    if (!a.is(1, ProtoReader.LEN)) {
                        a.skip();
                        continue;
                    }
                    a.readBytes();
                    if (!first) {
                        out.writeUInt8(',');
                    }
                    first = false;
                    int at = ranges.size();
                    ranges.add(a.start(), a.length());
                    boolean ok = value(a, at, at + 2, out);
                    ranges.truncate(at);
                    if (!ok) {
                        return false;
                    }
                }
            }
            out.writeUInt8(']');
            return true;
        }
        return object(parent, from, to, out);
    }

    /** A map: its entries, of a repeated key the last, in the byte order of the keys. */
    private boolean object(ProtoReader parent, int from, int to, RowBinaryWriter out) throws InvalidProtobufException {
        int base = intsTop;
        int rangesMark = ranges.size();
        int n = 0;
        ProtoReader kv = null;
        for (int k = from; k < to; k += 2) {
            ProtoReader list = parent.child(ranges.get(k), ranges.get(k + 1));
            while (list.next()) {
                if (!list.is(1, ProtoReader.LEN)) {
                    list.skip();
                    continue;
                }
                list.readBytes();
                kv = list.child();
                int keyStart = 0;
                int keyLength = 0;
                int valuesFrom = ranges.size();
                while (kv.next()) {
                    if (kv.is(1, ProtoReader.LEN)) {
                        kv.readBytes();
                        keyStart = kv.start();
                        keyLength = kv.length();
                    } else if (kv.is(2, ProtoReader.LEN)) {
                        kv.readBytes();
                        ranges.add(kv.start(), kv.length());
                    } else {
                        kv.skip();
                    }
                }
                if (!Utf8.isValid(buf, keyStart, keyLength)) {
                    byte[] fixed = Utf8.replaceInvalid(buf, keyStart, keyLength);
                    keyStart = -1 - fixedKeys.size();
                    keyLength = fixed.length;
                    fixedKeys.writeRaw(fixed, 0, fixed.length);
                }
                ensureInts(base + ENTRY * (n + 1));
                int e = base + ENTRY * n;
                ints[e] = keyStart;
                ints[e + 1] = keyLength;
                ints[e + 2] = valuesFrom;
                ints[e + 3] = ranges.size();
                n++;
            }
        }
        int order = base + ENTRY * n;
        ensureInts(order + 2 * n);
        intsTop = order + 2 * n;
        for (int i = 0; i < n; i++) {
            ints[order + i] = base + ENTRY * i;
        }
        sort(order, n);
        out.writeUInt8('{');
        boolean first = true;
        boolean ok = true;
        for (int i = 0; i < n && ok; i++) {
            int e = ints[order + i];
            // stable order: of equal keys the last to arrive is the last of its run, and the one kept
            if (i + 1 < n && compareKeys(e, ints[order + i + 1]) == 0) {
                continue;
            }
            if (!first) {
                out.writeUInt8(',');
            }
            first = false;
            int keyStart = ints[e];
            if (keyStart >= 0) {
                string(buf, keyStart, ints[e + 1], out);
            } else {
                string(fixedKeys.buffer(), -1 - keyStart, ints[e + 1], out);
            }
            out.writeUInt8(':');
            // its value is read one level below its KeyValue; any reader at that depth will do
            ok = value(kv, ints[e + 2], ints[e + 3], out);
        }
        if (ok) {
            out.writeUInt8('}');
        }
        intsTop = base;
        ranges.truncate(rangesMark);
        return ok;
    }

    private void ensureInts(int n) {
        if (n > ints.length) {
            ints = java.util.Arrays.copyOf(ints, Math.max(n, ints.length * 2));
        }
    }

    /** Stable merge sort of the entry offsets at {@code ints[at, at + n)} by key bytes; {@code ints[at + n, at + 2n)} is scratch. */
    private void sort(int at, int n) {
        sort(at, at + n, n);
    }

    /** Sorts {@code ints[lo, hi)}, merging through {@code ints[lo + shift, hi + shift)}. */
    private void sort(int lo, int hi, int shift) {
        if (hi - lo < 16) {
            for (int i = lo + 1; i < hi; i++) {
                int x = ints[i];
                int j = i;
                while (j > lo && compareKeys(ints[j - 1], x) > 0) {
                    ints[j] = ints[j - 1];
                    j--;
                }
                ints[j] = x;
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        sort(lo, mid, shift);
        sort(mid, hi, shift);
        int i = lo;
        int j = mid;
        int k = lo + shift;
        while (i < mid && j < hi) {
            ints[k++] = compareKeys(ints[i], ints[j]) <= 0 ? ints[i++] : ints[j++];
        }
        while (i < mid) {
            ints[k++] = ints[i++];
        }
        while (j < hi) {
            ints[k++] = ints[j++];
        }
        System.arraycopy(ints, lo + shift, ints, lo, hi - lo);
    }

    private int compareKeys(int a, int b) {
        int as = ints[a];
        int bs = ints[b];
        byte[] ab = as >= 0 ? buf : fixedKeys.buffer();
        byte[] bb = bs >= 0 ? buf : fixedKeys.buffer();
        int ao = as >= 0 ? as : -1 - as;
        int bo = bs >= 0 ? bs : -1 - bs;
        return java.util.Arrays.compareUnsigned(ab, ao, ao + ints[a + 1], bb, bo, bo + ints[b + 1]);
    }

    /**
     * A JSON string literal as Go's {@code encoding/json} writes it with HTML escaping off:
     * {@code "}, {@code \} and control characters escaped, U+2028 and U+2029 too, the rest as is.
     */
    static void string(byte[] b, int off, int len, RowBinaryWriter out) {
        if (!Utf8.isValid(b, off, len)) {
            byte[] fixed = Utf8.replaceInvalid(b, off, len);
            b = fixed;
            off = 0;
            len = fixed.length;
        }
        out.writeUInt8('"');
        int end = off + len;
        int run = off; // start of bytes not yet copied
        for (int i = off; i < end; i++) {
            int c = b[i] & 0xFF;
            if (c >= 0x20 && c != '"' && c != '\\' && c != 0xE2) {
                continue;
            }
            if (c == 0xE2) {
                // U+2028 and U+2029 are E2 80 A8 and E2 80 A9
                if (i + 2 < end && b[i + 1] == (byte) 0x80 && (b[i + 2] == (byte) 0xA8 || b[i + 2] == (byte) 0xA9)) {
                    out.writeRaw(b, run, i - run);
                    unicodeEscape(b[i + 2] == (byte) 0xA8 ? 0x2028 : 0x2029, out);
                    i += 2;
                    run = i + 1;
                }
                continue;
            }
            out.writeRaw(b, run, i - run);
            run = i + 1;
            switch (c) {
                case '"':
                    out.writeUInt8('\\');
                    out.writeUInt8('"');
                    break;
                case '\\':
                    out.writeUInt8('\\');
                    out.writeUInt8('\\');
                    break;
                case '\n':
                    out.writeUInt8('\\');
                    out.writeUInt8('n');
                    break;
                case '\r':
                    out.writeUInt8('\\');
                    out.writeUInt8('r');
                    break;
                case '\t':
                    out.writeUInt8('\\');
                    out.writeUInt8('t');
                    break;
                case '\b':
                    out.writeUInt8('\\');
                    out.writeUInt8('b');
                    break;
                case '\f':
                    out.writeUInt8('\\');
                    out.writeUInt8('f');
                    break;
                default:
                    unicodeEscape(c, out);
            }
        }
        out.writeRaw(b, run, end - run);
        out.writeUInt8('"');
    }

    private static void unicodeEscape(int c, RowBinaryWriter out) {
        int mark = out.size();
        byte[] d = out.reserve(6);
        d[mark] = '\\';
        d[mark + 1] = 'u';
        d[mark + 2] = HEX[(c >> 12) & 0xF];
        d[mark + 3] = HEX[(c >> 8) & 0xF];
        d[mark + 4] = HEX[(c >> 4) & 0xF];
        d[mark + 5] = HEX[c & 0xF];
    }
}
