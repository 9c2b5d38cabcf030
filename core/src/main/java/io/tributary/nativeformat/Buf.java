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

    Buf(int capacity) {
        data = new byte[Math.max(16, capacity)];
    }

    void ensure(int more) {
        if (data.length - size < more) {
            // by half again: a batch's columns hold at most a third more than their values
            long want = Math.max((long) data.length + (data.length >> 1), (long) size + more);
            if (want > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("a Native column grew past 2 GB");
            }
            data = Arrays.copyOf(data, (int) want);
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
}
