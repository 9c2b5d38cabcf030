package io.tributary.tables;

import io.tributary.otlp.GoFloat;
import io.tributary.otlp.InvalidProtobufException;
import io.tributary.otlp.Utf8;
import io.tributary.otlp.proto.ProtoReader;
import io.tributary.rowbinary.RowBinaryWriter;

import java.nio.charset.StandardCharsets;

/**
 * OTLP values read where they lie in a record and written as the exporter renders them: strings
 * (invalid UTF-8 replaced), {@code AnyValue}s by pdata's {@code AsString()} ({@link AnyValues} is
 * the reference): doubles by {@link GoFloat}, arrays and maps as JSON by {@link WireJsonText},
 * straight from the record's bytes. Not thread-safe: one per task.
 */
public final class WireValues {

    private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MIN_LONG = Long.toString(Long.MIN_VALUE).getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NAN = "NaN".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] INFINITY = "Infinity".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MINUS_INFINITY = "-Infinity".getBytes(StandardCharsets.US_ASCII);

    static final int NONE = 0;
    static final int STRING = 1;
    static final int BOOL = 2;
    static final int INT = 3;
    static final int DOUBLE = 4;
    static final int ARRAY = 5;
    static final int KVLIST = 6;
    static final int BYTES = 7;

    private static final byte[] BASE64 =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".getBytes(StandardCharsets.US_ASCII);
    private final IntList messageRanges = new IntList();
    private final WireJsonText jsonText = new WireJsonText();
    private final RowBinaryWriter json = new RowBinaryWriter(256);
    private WireJson jsonColumns;

    /** The JSON flavour's writer of attribute lists, shared by the lists of this task. */
    WireJson json() {
        if (jsonColumns == null) {
            jsonColumns = new WireJson();
        }
        return jsonColumns;
    }

    /** Writes a {@code string} field's bytes as a ClickHouse String. */
    public static void writeString(byte[] b, int off, int len, RowBinaryWriter out) {
        int mark = out.size();
        out.writeVarUInt(len);
        if (len == 0) {
            return;
        }
        byte[] d = out.reserve(len);
        if (!Utf8.copyIfValid(b, off, d, out.size() - len, len)) {
            out.truncate(mark);
            out.writeString(Utf8.replaceInvalid(b, off, len));
        }
    }

    // the AnyValue being read: its case (the last one set wins) and that case's value
    private int kind;
    private int start;
    private int len;
    private long value;
    /** The reader of the value's last occurrence: one level above its array or map messages. */
    private ProtoReader valueReader;

    /**
     * Writes the {@code AsString()} of the {@code AnyValue} encoded in the ranges {@code ranges}
     * (one per occurrence of the field; protobuf merges them) as a ClickHouse String.
     */
    public void writeAsString(ProtoReader parent, IntList ranges, RowBinaryWriter out) throws InvalidProtobufException {
        kind = NONE;
        messageRanges.clear();
        for (int k = 0; k < ranges.size(); k += 2) {
            read(parent.child(ranges.get(k), ranges.get(k + 1)));
        }
        write(parent.buffer(), out);
    }

    /** Writes the {@code AsString()} of the {@code AnyValue} at this range of {@code parent}'s array. */
    public void writeAsString(ProtoReader parent, int start, int length, RowBinaryWriter out) throws InvalidProtobufException {
        kind = NONE;
        messageRanges.clear();
        read(parent.child(start, length));
        write(parent.buffer(), out);
    }

    /** Reads one occurrence of an AnyValue into {@link #kind} and its value. */
    private void read(ProtoReader r) throws InvalidProtobufException {
        valueReader = r;
        while (r.next()) {
            switch (r.field()) {
                case STRING:
                case BYTES:
                    if (r.wireType() != ProtoReader.LEN) {
                        r.skip();
                        break;
                    }
                    r.readBytes();
                    kind = r.field();
                    start = r.start();
                    len = r.length();
                    break;
                case BOOL:
                case INT:
                    if (r.wireType() != ProtoReader.VARINT) {
                        r.skip();
                        break;
                    }
                    kind = r.field();
                    value = r.readVarint();
                    break;
                case DOUBLE:
                    if (r.wireType() != ProtoReader.I64) {
                        r.skip();
                        break;
                    }
                    kind = DOUBLE;
                    value = r.readFixed64();
                    break;
                case ARRAY:
                case KVLIST:
                    if (r.wireType() != ProtoReader.LEN) {
                        r.skip();
                        break;
                    }
                    r.readBytes();
                    if (kind != r.field()) {
                        messageRanges.clear(); // another case replaced it: this one starts afresh
                    }
                    kind = r.field();
                    messageRanges.add(r.start(), r.length());
                    // its structure is checked where protobuf-java would parse it
                    skimAnyValueContainer(r, kind);
                    break;
                default:
                    r.skip();
            }
        }
    }

    private void write(byte[] b, RowBinaryWriter out) throws InvalidProtobufException {
        switch (kind) {
            case STRING:
                writeString(b, start, len, out);
                return;
            case BOOL:
                out.writeString(value != 0 ? TRUE : FALSE);
                return;
            case INT:
                writeDecimal(value, out);
                return;
            case DOUBLE:
                writeDoubleText(Double.longBitsToDouble(value), out);
                return;
            case BYTES:
                writeBase64(b, start, len, out);
                return;
            case ARRAY:
            case KVLIST:
                json.reset();
                if (jsonText.write(valueReader, kind, messageRanges, json)) {
                    out.writeString(json.buffer(), 0, json.size());
                } else {
                    out.writeVarUInt(0); // Go's encoder refused it (NaN or infinity inside): pdata gives ""
                }
                return;
            default:
                out.writeVarUInt(0);
        }
    }

    /**
     * pdata's {@code float64AsString} as a ClickHouse String: {@link GoFloat}'s text, and {@code
     * NaN}, {@code Infinity}, {@code -Infinity} for what is not finite.
     */
    static void writeDoubleText(double d, RowBinaryWriter out) {
        if (Double.isNaN(d)) {
            out.writeString(NAN);
        } else if (Double.isInfinite(d)) {
            out.writeString(d > 0 ? INFINITY : MINUS_INFINITY);
        } else {
            int mark = out.size();
            byte[] b = out.reserve(1 + GoFloat.MAX_LENGTH);
            int end = GoFloat.writeEs6(d, b, mark + 1);
            b[mark] = (byte) (end - mark - 1); // at most MAX_LENGTH bytes: a one-byte length
            out.truncate(end);
        }
    }

    /** Walks an ArrayValue or KeyValueList as protobuf-java would parse it: structure and nesting depth. */
    static void skimAnyValueContainer(ProtoReader parent, int kind) throws InvalidProtobufException {
        skimAnyValueContainer(parent, parent.start(), parent.length(), kind);
    }

    /** Walks the ArrayValue or KeyValueList at this range, one level below {@code parent}. */
    static void skimAnyValueContainer(ProtoReader parent, int start, int length, int kind) throws InvalidProtobufException {
        ProtoReader r = parent.child(start, length);
        while (r.next()) {
            if (r.is(1, ProtoReader.LEN)) {
                r.readBytes();
                if (kind == ARRAY) {
                    skimAnyValue(r);
                } else {
                    skimKeyValue(r);
                }
            } else {
                r.skip();
            }
        }
    }

    /** Walks a KeyValue message (field just read on {@code parent}). */
    static void skimKeyValue(ProtoReader parent) throws InvalidProtobufException {
        skimKeyValue(parent, parent.start(), parent.length());
    }

    /** Walks the KeyValue message at this range, one level below {@code parent}. */
    static void skimKeyValue(ProtoReader parent, int start, int length) throws InvalidProtobufException {
        ProtoReader r = parent.child(start, length);
        while (r.next()) {
            if (r.is(2, ProtoReader.LEN)) {
                r.readBytes();
                skimAnyValue(r);
            } else {
                r.skip();
            }
        }
    }

    /** Walks an AnyValue message (field just read on {@code parent}). */
    public static void skimAnyValue(ProtoReader parent) throws InvalidProtobufException {
        ProtoReader r = parent.child();
        while (r.next()) {
            if (r.is(ARRAY, ProtoReader.LEN) || r.is(KVLIST, ProtoReader.LEN)) {
                int kind = r.field();
                r.readBytes();
                skimAnyValueContainer(r, kind);
            } else {
                r.skip();
            }
        }
    }

    /** {@code Long.toString} as a ClickHouse String, without a String. */
    static void writeDecimal(long v, RowBinaryWriter out) {
        out.writeVarUInt(decimalLength(v));
        writeDecimalText(v, out);
    }

    /** {@code Long.toString}'s bytes, no length before them. */
    static void writeDecimalText(long v, RowBinaryWriter out) {
        if (v == Long.MIN_VALUE) {
            out.writeRaw(MIN_LONG, 0, MIN_LONG.length);
            return;
        }
        int n = decimalLength(v);
        byte[] buf = out.reserve(n);
        int p = out.size() - 1;
        long x = v < 0 ? -v : v;
        do {
            buf[p--] = (byte) ('0' + (x % 10));
            x /= 10;
        } while (x != 0);
        if (v < 0) {
            buf[p] = '-';
        }
    }

    private static int decimalLength(long v) {
        if (v == Long.MIN_VALUE) {
            return MIN_LONG.length;
        }
        long x = v < 0 ? -v : v;
        int digits = 1;
        for (long t = x; t >= 10; t /= 10) {
            digits++;
        }
        return v < 0 ? digits + 1 : digits;
    }

    /** Standard base64 with padding (RFC 4648 section 4), as Go's {@code base64.StdEncoding}, as a ClickHouse String. */
    static void writeBase64(byte[] b, int off, int len, RowBinaryWriter out) {
        out.writeVarUInt(4 * ((len + 2) / 3));
        writeBase64Text(b, off, len, out);
    }

    /** The base64 text of {@code b[off, off + len)}, no length before it. */
    static void writeBase64Text(byte[] b, int off, int len, RowBinaryWriter out) {
        int n = 4 * ((len + 2) / 3);
        byte[] d = out.reserve(n);
        int p = out.size() - n;
        int i = off;
        int end = off + len;
        for (; end - i >= 3; i += 3) {
            int v = (b[i] & 0xFF) << 16 | (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF);
            d[p++] = BASE64[v >>> 18];
            d[p++] = BASE64[(v >>> 12) & 0x3F];
            d[p++] = BASE64[(v >>> 6) & 0x3F];
            d[p++] = BASE64[v & 0x3F];
        }
        if (end - i == 1) {
            int v = (b[i] & 0xFF) << 16;
            d[p++] = BASE64[v >>> 18];
            d[p++] = BASE64[(v >>> 12) & 0x3F];
            d[p++] = '=';
            d[p] = '=';
        } else if (end - i == 2) {
            int v = (b[i] & 0xFF) << 16 | (b[i + 1] & 0xFF) << 8;
            d[p++] = BASE64[v >>> 18];
            d[p++] = BASE64[(v >>> 12) & 0x3F];
            d[p++] = BASE64[(v >>> 6) & 0x3F];
            d[p] = '=';
        }
    }

    /** A growable list of ints, reused: ranges (start, length) of occurrences of a field. */
    public static final class IntList {
        private static final int[] NONE = new int[0];
        private int[] a = NONE; // allocated at the first add: many lists stay empty (events without attributes)
        private int n;

        public void add(int x) {
            if (n == a.length) {
                a = java.util.Arrays.copyOf(a, Math.max(16, n * 2));
            }
            a[n++] = x;
        }

        public void add(int x, int y) {
            add(x);
            add(y);
        }

        public int get(int i) {
            return a[i];
        }

        public void set(int i, int x) {
            a[i] = x;
        }

        public int size() {
            return n;
        }

        public void clear() {
            n = 0;
        }

        /** Keeps the first {@code size} ints. */
        public void truncate(int size) {
            n = size;
        }

        /** Empties the list and gives back a large array. */
        public void shrink() {
            n = 0;
            if (a.length > 16) {
                a = NONE;
            }
        }
    }
}
