package io.tributary.nativeformat;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/** A growable byte buffer with little-endian writes: one column's data while a block is built. */
final class Buf {

    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    byte[] data;
    int size;

    private static final byte[] EMPTY = {};

    /** The capacity of the first allocation, made at the first write (a column only read back never makes it). */
    private final int first;

    Buf(int capacity) {
        data = EMPTY;
        first = Math.max(16, capacity);
    }

    /** The largest array the JVM gives. */
    private static final int MAX_CAPACITY = Integer.MAX_VALUE - 16;

    void ensure(int more) {
        if (data.length - size < more) {
            long needed = (long) size + more;
            if (needed > MAX_CAPACITY) {
                throw new IllegalStateException("a Native column grew past 2 GB");
            }
            // by half again (a batch's columns hold at most a third more than their values), but
            // not past what an array holds: a column of 1.5 GB fits
            long grown = Math.max(first, (long) data.length + (data.length >> 1));
            data = Arrays.copyOf(data, (int) Math.min(Math.max(grown, needed), MAX_CAPACITY));
        }
    }

    void write(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, data, size, len);
        size += len;
    }

    void writeByte(int v) {
        ensure(1);
        data[size++] = (byte) v;
    }

    void writeLong(long v) {
        ensure(8);
        LONG_LE.set(data, size, v);
        size += 8;
    }

    void writeZeros(int n) {
        ensure(n);
        Arrays.fill(data, size, size + n, (byte) 0);
        size += n;
    }

    void clear() {
        size = 0;
    }

    static long readLong(byte[] b, int at) {
        return (long) LONG_LE.get(b, at);
    }

    /**
     * Whether {@code len} bytes at {@code ai} in {@code a} equal those at {@code bi} in {@code b}:
     * eight at a time, the last eight overlapping, so that the short strings a dictionary compares
     * (attribute keys, service names) cost two loads and no call into {@link Arrays#equals}.
     */
    static boolean same(byte[] a, int ai, byte[] b, int bi, int len) {
        if (len >= 8) {
            int last = len - 8;
            for (int i = 0; i < last; i += 8) {
                if ((long) LONG_LE.get(a, ai + i) != (long) LONG_LE.get(b, bi + i)) {
                    return false;
                }
            }
            return (long) LONG_LE.get(a, ai + last) == (long) LONG_LE.get(b, bi + last);
        }
        for (int i = 0; i < len; i++) {
            if (a[ai + i] != b[bi + i]) {
                return false;
            }
        }
        return true;
    }
}
