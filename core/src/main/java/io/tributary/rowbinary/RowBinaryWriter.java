package io.tributary.rowbinary;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * Appends values in ClickHouse's RowBinary format to a growable byte buffer.
 *
 * <p>One method per ClickHouse type, named after it. RowBinary writes the columns of a row one
 * after another with no separators: fixed-width numbers little-endian, variable-length values
 * prefixed by their length as an <em>unsigned</em> LEB128 varint. See
 * https://clickhouse.com/docs/interfaces/formats/RowBinary and {@link Leb128}.
 *
 * <p>This class knows nothing about OpenTelemetry or Flink. It is not thread-safe; one writer
 * belongs to one task.
 */
public final class RowBinaryWriter {

    private static final int MAX_CAPACITY = Integer.MAX_VALUE - 8;

    private byte[] buf;
    private int pos;
    private int limit = MAX_CAPACITY;
    private Supplier<? extends RuntimeException> overLimit;

    public RowBinaryWriter(int initialCapacity) {
        this.buf = new byte[Math.max(16, initialCapacity)];
    }

    /**
     * Refuses to grow past {@code maxSize} bytes: a write that would need a larger buffer throws
     * what {@code overLimit} makes, before any memory is taken. Checked only when the buffer grows,
     * so it costs nothing per value; the buffer never gets larger than {@code maxSize} (or its
     * current capacity, if that is larger already).
     */
    public void limit(int maxSize, Supplier<? extends RuntimeException> overLimit) {
        this.limit = Math.min(Math.max(maxSize, 0), MAX_CAPACITY);
        this.overLimit = overLimit;
    }

    /** Number of bytes written since the last {@link #reset()}. */
    public int size() {
        return pos;
    }

    /** Forgets what was written, keeping the buffer for reuse. */
    public void reset() {
        pos = 0;
    }

    /** Forgets what was written after the first {@code size} bytes. */
    public void truncate(int size) {
        if (size < 0 || size > pos) {
            throw new IllegalArgumentException("cannot truncate " + pos + " bytes to " + size);
        }
        pos = size;
    }

    /** A copy of the bytes written so far. */
    public byte[] toByteArray() {
        return Arrays.copyOf(buf, pos);
    }

    /** The internal buffer; valid up to {@link #size()} until the next write. */
    public byte[] buffer() {
        return buf;
    }

    /** {@code UInt8}: one byte. */
    public void writeUInt8(int v) {
        ensure(1);
        buf[pos++] = (byte) v;
    }

    /** {@code Bool}: one byte, 0 or 1. */
    public void writeBool(boolean v) {
        writeUInt8(v ? 1 : 0);
    }

    /** {@code Int16} / {@code UInt16}: two bytes little-endian. */
    public void writeInt16(int v) {
        ensure(2);
        buf[pos] = (byte) v;
        buf[pos + 1] = (byte) (v >>> 8);
        pos += 2;
    }

    /** {@code Int32} / {@code UInt32}: four bytes little-endian. */
    public void writeInt32(int v) {
        ensure(4);
        byte[] b = buf;
        int p = pos;
        b[p] = (byte) v;
        b[p + 1] = (byte) (v >>> 8);
        b[p + 2] = (byte) (v >>> 16);
        b[p + 3] = (byte) (v >>> 24);
        pos = p + 4;
    }

    /** {@code UInt32}: the low 32 bits of {@code v}, little-endian. */
    public void writeUInt32(long v) {
        writeInt32((int) v);
    }

    /** {@code Int64}: eight bytes little-endian, two's complement. */
    public void writeInt64(long v) {
        ensure(8);
        byte[] b = buf;
        int p = pos;
        b[p] = (byte) v;
        b[p + 1] = (byte) (v >>> 8);
        b[p + 2] = (byte) (v >>> 16);
        b[p + 3] = (byte) (v >>> 24);
        b[p + 4] = (byte) (v >>> 32);
        b[p + 5] = (byte) (v >>> 40);
        b[p + 6] = (byte) (v >>> 48);
        b[p + 7] = (byte) (v >>> 56);
        pos = p + 8;
    }

    /** {@code UInt64}: eight bytes little-endian; {@code v} is read as unsigned. */
    public void writeUInt64(long v) {
        writeInt64(v);
    }

    /** {@code Float64}: IEEE 754 binary64, little-endian. */
    public void writeFloat64(double v) {
        writeInt64(Double.doubleToRawLongBits(v));
    }

    /**
     * {@code DateTime64(9)}: an {@code Int64} count of nanoseconds since the Unix epoch (the
     * scale is the column's precision; for precision 9 the tick is one nanosecond).
     */
    public void writeDateTime64Nanos(long epochNanos) {
        writeInt64(epochNanos);
    }

    /** An unsigned LEB128 varint: the length prefix of strings, arrays and maps. */
    public void writeVarUInt(long v) {
        ensure(Leb128.MAX_BYTES);
        pos = Leb128.write(buf, pos, v);
    }

    /** The element count that starts an {@code Array(T)} value. */
    public void writeArrayLength(int n) {
        writeVarUInt(n);
    }

    /** The entry count that starts a {@code Map(K, V)} value; entries follow as key, value. */
    public void writeMapSize(int n) {
        writeVarUInt(n);
    }

    /** {@code String} (and {@code LowCardinality(String)}): varint byte length, then the bytes. */
    public void writeString(byte[] utf8) {
        writeString(utf8, 0, utf8.length);
    }

    /** {@code String} from a slice of bytes. */
    public void writeString(byte[] bytes, int off, int len) {
        writeVarUInt(len);
        if (len == 0) {
            return;
        }
        ensure(len);
        System.arraycopy(bytes, off, buf, pos, len);
        pos += len;
    }

    /**
     * {@code String} from a Java string, encoded as UTF-8. Unpaired surrogates become '?' as in
     * {@link String#getBytes(java.nio.charset.Charset)}.
     */
    public void writeString(String s) {
        int n = s.length();
        if (n < 128) {
            // Fast path: short ASCII strings need no length pass (the length fits one varint byte).
            ensure(1 + n);
            int start = pos + 1;
            int i = 0;
            byte[] b = buf;
            for (; i < n; i++) {
                char c = s.charAt(i);
                if (c >= 0x80) {
                    break;
                }
                b[start + i] = (byte) c;
            }
            if (i == n) {
                b[pos] = (byte) n;
                pos = start + n;
                return;
            }
        }
        writeString(s.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code LowCardinality(String)}: on the wire the same as {@code String}. */
    public void writeLowCardinalityString(String s) {
        writeString(s);
    }

    /**
     * Makes room for {@code n} bytes at the end and counts them as written: the caller fills
     * {@code buffer()[size() - n, size())}. Returns the buffer.
     */
    public byte[] reserve(int n) {
        ensure(n);
        pos += n;
        return buf;
    }

    /** Raw bytes, for values already encoded. */
    public void writeRaw(byte[] bytes, int off, int len) {
        ensure(len);
        System.arraycopy(bytes, off, buf, pos, len);
        pos += len;
    }

    private void ensure(int extra) {
        if (extra > buf.length - pos) {
            grow((long) pos + extra);
        }
    }

    private void grow(long min) {
        if (min > limit && overLimit != null) {
            throw overLimit.get();
        }
        if (min > MAX_CAPACITY) {
            throw new IllegalStateException("RowBinary buffer cannot hold " + min + " bytes");
        }
        long doubled = (long) buf.length << 1;
        buf = Arrays.copyOf(buf, (int) Math.min(Math.max(limit, min), Math.max(doubled, min)));
    }
}
