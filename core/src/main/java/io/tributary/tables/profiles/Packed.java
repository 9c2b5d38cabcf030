package io.tributary.tables.profiles;

import io.tributary.otlp.InvalidProtobufException;
import io.tributary.otlp.proto.ProtoReader;
import io.tributary.tables.WireValues.IntList;

import java.util.Arrays;

/**
 * Repeated scalar fields as protobuf-java parses them: packed (one length-delimited run) or one
 * element per field, in any mix; a varint that runs past its run is a truncated message.
 */
final class Packed {

    private Packed() {}

    /** A growable list of longs, reused. */
    static final class LongList {
        long[] a = new long[16];
        int size;

        void add(long v) {
            if (size == a.length) {
                a = Arrays.copyOf(a, size * 2);
            }
            a[size++] = v;
        }

        void clear() {
            size = 0;
        }
    }

    /**
     * Reads the current field as a repeated {@code int32} into {@code out}; false (nothing read)
     * when its wire type is neither varint nor length-delimited.
     */
    static boolean int32s(ProtoReader r, IntList out) throws InvalidProtobufException {
        return varints(r, out, null);
    }

    /** Reads the current field as a repeated {@code int64} into {@code out}; false for another wire type. */
    static boolean int64s(ProtoReader r, LongList out) throws InvalidProtobufException {
        return varints(r, null, out);
    }

    /** A repeated varint field into {@code ints} (each truncated to 32 bits) or {@code longs}. */
    private static boolean varints(ProtoReader r, IntList ints, LongList longs) throws InvalidProtobufException {
        if (r.wireType() == ProtoReader.VARINT) {
            long v = r.readVarint();
            if (ints != null) {
                ints.add((int) v);
            } else {
                longs.add(v);
            }
            return true;
        }
        if (r.wireType() != ProtoReader.LEN) {
            return false;
        }
        r.readBytes();
        byte[] b = r.buffer();
        int p = r.start();
        int end = p + r.length();
        while (p < end) {
            long v = 0;
            int shift = 0;
            int from = p;
            while (true) {
                if (p >= end) {
                    throw truncated();
                }
                byte x = b[p++];
                v |= (long) (x & 0x7F) << shift;
                if (x >= 0) {
                    break;
                }
                shift += 7;
                if (p - from == 10) {
                    throw malformed();
                }
            }
            if (ints != null) {
                ints.add((int) v);
            } else {
                // protobuf-java's readRawVarint64: a ten-byte varint has bit 63 set
                longs.add(p - from == 10 ? v | Long.MIN_VALUE : v);
            }
        }
        return true;
    }

    /** Reads the current field as a repeated {@code fixed64} into {@code out}; false for another wire type. */
    static boolean fixed64s(ProtoReader r, LongList out) throws InvalidProtobufException {
        if (r.wireType() == ProtoReader.I64) {
            out.add(r.readFixed64());
            return true;
        }
        if (r.wireType() != ProtoReader.LEN) {
            return false;
        }
        r.readBytes();
        if (r.length() % 8 != 0) {
            throw truncated();
        }
        byte[] b = r.buffer();
        for (int p = r.start(), end = p + r.length(); p < end; p += 8) {
            out.add((b[p] & 0xFFL) | (b[p + 1] & 0xFFL) << 8 | (b[p + 2] & 0xFFL) << 16 | (b[p + 3] & 0xFFL) << 24
                    | (b[p + 4] & 0xFFL) << 32 | (b[p + 5] & 0xFFL) << 40 | (b[p + 6] & 0xFFL) << 48
                    | (b[p + 7] & 0xFFL) << 56);
        }
        return true;
    }

    private static InvalidProtobufException truncated() {
        return new InvalidProtobufException("While parsing a protocol message, the input ended unexpectedly in the middle of"
                + " a field.  This could mean either that the input has been truncated or that an embedded message"
                + " misreported its own length.");
    }

    private static InvalidProtobufException malformed() {
        return new InvalidProtobufException("CodedInputStream encountered a malformed varint.");
    }
}
