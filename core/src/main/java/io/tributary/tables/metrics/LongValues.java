package io.tributary.tables.metrics;

import io.tributary.otlp.InvalidProtobufException;
import io.tributary.rowbinary.RowBinaryWriter;

import java.util.Arrays;

/**
 * The elements of a repeated 64-bit field of one message ({@code repeated fixed64}, {@code
 * repeated double} as their bits, {@code repeated uint64}), gathered from its occurrences as
 * protobuf-java gathers them: packed and unpacked occurrences in any mix, concatenated in order.
 * The usual encoding, one packed occurrence of fixed-size elements, stays where it lies and is
 * copied to the row at once (a fixed64 and a ClickHouse UInt64 or Float64 are the same 8 bytes
 * little-endian). Reused: {@link #clear} starts a new list.
 */
final class LongValues {

    private byte[] buf;
    /** The one packed fixed-size occurrence, while it is the only one; else -1. */
    private int packedStart = -1;
    private int packedLength;
    private long[] values = new long[16];
    private int n;

    void clear() {
        n = 0;
        packedStart = -1;
    }

    int size() {
        return n;
    }

    /** Adds one element (an unpacked occurrence). */
    void add(long v) {
        unpack();
        if (n == values.length) {
            values = Arrays.copyOf(values, n * 2);
        }
        values[n++] = v;
    }

    /**
     * Adds the elements of a packed occurrence of 8-byte elements at {@code b[start, start + len)}.
     *
     * @throws InvalidProtobufException when the length is not a whole number of elements (the last
     *     one would end past the field, where protobuf-java stops)
     */
    void addPackedFixed64(byte[] b, int start, int len) throws InvalidProtobufException {
        if ((len & 7) != 0) {
            throw truncated();
        }
        if (n == 0 && packedStart < 0) {
            buf = b;
            packedStart = start;
            packedLength = len;
            n = len >>> 3;
            return;
        }
        for (int p = start; p < start + len; p += 8) {
            add(fixed64(b, p));
        }
    }

    /**
     * Adds the varints of a packed occurrence at {@code b[start, start + len)}.
     *
     * @throws InvalidProtobufException for a varint longer than 10 bytes or cut by the field's end,
     *     as protobuf-java refuses them
     */
    void addPackedVarints(byte[] b, int start, int len) throws InvalidProtobufException {
        int end = start + len;
        int p = start;
        while (p < end) {
            long v = 0;
            int shift = 0;
            while (true) {
                if (shift >= 64) {
                    throw new InvalidProtobufException("CodedInputStream encountered a malformed varint.");
                }
                if (p >= end) {
                    throw truncated();
                }
                byte x = b[p++];
                // a tenth byte sets bit 63 whatever its value bits, as in protobuf-java (ProtoReader#readVarint)
                v |= shift == 63 ? Long.MIN_VALUE : (long) (x & 0x7F) << shift;
                if (x >= 0) {
                    break;
                }
                shift += 7;
            }
            add(v);
        }
    }

    /** Writes the elements as a ClickHouse {@code Array} of 8-byte little-endian values. */
    void write(RowBinaryWriter out) {
        out.writeArrayLength(n);
        if (packedStart >= 0) {
            out.writeRaw(buf, packedStart, packedLength);
            return;
        }
        for (int i = 0; i < n; i++) {
            out.writeInt64(values[i]);
        }
    }

    /** Moves the packed occurrence, if any, into {@link #values} before another is added. */
    private void unpack() {
        if (packedStart < 0) {
            return;
        }
        int count = n;
        int from = packedStart;
        packedStart = -1;
        n = 0;
        if (values.length < count + 1) {
            values = new long[Math.max(count + 1, values.length * 2)];
        }
        for (int i = 0; i < count; i++) {
            values[n++] = fixed64(buf, from + 8 * i);
        }
    }

    private static long fixed64(byte[] b, int p) {
        return (b[p] & 0xFFL) | (b[p + 1] & 0xFFL) << 8 | (b[p + 2] & 0xFFL) << 16 | (b[p + 3] & 0xFFL) << 24
                | (b[p + 4] & 0xFFL) << 32 | (b[p + 5] & 0xFFL) << 40 | (b[p + 6] & 0xFFL) << 48 | (b[p + 7] & 0xFFL) << 56;
    }

    private static InvalidProtobufException truncated() {
        return new InvalidProtobufException("While parsing a protocol message, the input ended unexpectedly in the middle"
                + " of a field.  This could mean either that the input has been truncated or that an embedded message"
                + " misreported its own length.");
    }
}
