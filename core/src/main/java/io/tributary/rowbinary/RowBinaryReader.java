package io.tributary.rowbinary;

import java.nio.charset.StandardCharsets;

/**
 * Reads values in ClickHouse's RowBinary format from a byte range: the mirror of {@link
 * RowBinaryWriter}, one method per ClickHouse type, named after it. Fixed-width numbers are
 * little-endian, lengths of strings, arrays and maps unsigned LEB128 varints. See
 * https://clickhouse.com/docs/interfaces/formats/RowBinary.
 *
 * <p>This class knows nothing about OpenTelemetry or Flink. Reading past the end throws {@link
 * IllegalArgumentException}.
 */
public final class RowBinaryReader {

    private final byte[] buf;
    private final int end;
    private int pos;
    private final int[] next = new int[1];

    public RowBinaryReader(byte[] buf, int off, int len) {
        if (off < 0 || len < 0 || off + len > buf.length) {
            throw new IllegalArgumentException("range " + off + "+" + len + " outside " + buf.length + " bytes");
        }
        this.buf = buf;
        this.pos = off;
        this.end = off + len;
    }

    /** True while bytes are left. */
    public boolean hasMore() {
        return pos < end;
    }

    /** The position of the next byte. */
    public int position() {
        return pos;
    }

    private void need(int n) {
        if (end - pos < n) {
            throw new IllegalArgumentException("RowBinary cut off: " + n + " bytes needed at " + pos + ", "
                    + (end - pos) + " left");
        }
    }

    /** {@code UInt8}. */
    public int readUInt8() {
        need(1);
        return buf[pos++] & 0xFF;
    }

    /** {@code Bool}: one byte, 0 or 1. */
    public boolean readBool() {
        return readUInt8() != 0;
    }

    /** {@code Int16}. */
    public short readInt16() {
        need(2);
        int v = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8;
        pos += 2;
        return (short) v;
    }

    /** {@code Int32}. */
    public int readInt32() {
        need(4);
        int v = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8 | (buf[pos + 2] & 0xFF) << 16 | (buf[pos + 3] & 0xFF) << 24;
        pos += 4;
        return v;
    }

    /** {@code UInt32}, widened. */
    public long readUInt32() {
        return readInt32() & 0xFFFF_FFFFL;
    }

    /** {@code Int64}. */
    public long readInt64() {
        need(8);
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = v << 8 | (buf[pos + i] & 0xFF);
        }
        pos += 8;
        return v;
    }

    /** {@code UInt64}: the 64 bits as a {@code long} (read it with {@link Long#toUnsignedString}). */
    public long readUInt64() {
        return readInt64();
    }

    /** {@code Float64}. */
    public double readFloat64() {
        return Double.longBitsToDouble(readInt64());
    }

    /** {@code DateTime64(p)}: ticks of 10^-p seconds since the epoch. */
    public long readDateTime64() {
        return readInt64();
    }

    /** {@code DateTime}: seconds since the epoch, a {@code UInt32}. */
    public long readDateTime() {
        return readUInt32();
    }

    /** An unsigned LEB128 varint. */
    public long readVarUInt() {
        long v = Leb128.read(buf, pos, next);
        if (next[0] > end) {
            throw new IllegalArgumentException("RowBinary cut off inside a varint at " + pos);
        }
        pos = next[0];
        return v;
    }

    /** The element count of an {@code Array(T)} or the entry count of a {@code Map(K, V)}. */
    public int readLength() {
        long n = readVarUInt();
        // every element takes at least one byte; unsigned, so a length of 2^63 or more is negative here
        if (n < 0 || n > end - pos) {
            throw new IllegalArgumentException("length " + Long.toUnsignedString(n) + " at " + pos + " exceeds the " + (end - pos) + " bytes left");
        }
        return (int) n;
    }

    /** {@code String}: a copy of its bytes. */
    public byte[] readStringBytes() {
        int n = readLength();
        byte[] out = java.util.Arrays.copyOfRange(buf, pos, pos + n);
        pos += n;
        return out;
    }

    /** Moves past {@code n} bytes. */
    public void skip(int n) {
        need(n);
        pos += n;
    }

    /** Moves past a {@code String}. */
    public void skipString() {
        skip(readLength());
    }

    /** {@code String}, decoded as UTF-8 (invalid sequences become U+FFFD). */
    public String readString() {
        int n = readLength();
        String s = new String(buf, pos, n, StandardCharsets.UTF_8);
        pos += n;
        return s;
    }
}
