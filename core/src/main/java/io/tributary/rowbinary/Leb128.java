package io.tributary.rowbinary;

/**
 * Unsigned LEB128 varints, as ClickHouse writes lengths in RowBinary and Native formats.
 *
 * <p>Seven bits per byte, least significant group first, the high bit set on every byte but the
 * last. Unsigned: no zig-zag. A 64-bit value takes at most ten bytes.
 * See https://en.wikipedia.org/wiki/LEB128#Unsigned_LEB128.
 */
public final class Leb128 {

    /** The longest encoding of a 64-bit value. */
    public static final int MAX_BYTES = 10;

    private Leb128() {}

    /** Writes {@code value} (read as unsigned) at {@code pos}; returns the position after it. */
    public static int write(byte[] buf, int pos, long value) {
        while ((value & ~0x7FL) != 0) {
            buf[pos++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        buf[pos++] = (byte) value;
        return pos;
    }

    /** How many bytes {@link #write} uses for {@code value}. */
    public static int size(long value) {
        int n = 1;
        while ((value & ~0x7FL) != 0) {
            value >>>= 7;
            n++;
        }
        return n;
    }

    /**
     * Reads a varint at {@code pos}; returns the value. {@code nextPos[0]} receives the position
     * after it.
     *
     * @throws IllegalArgumentException if the varint is longer than ten bytes or truncated
     */
    public static long read(byte[] buf, int pos, int[] nextPos) {
        long result = 0;
        int shift = 0;
        for (int i = 0; i < MAX_BYTES; i++) {
            if (pos >= buf.length) {
                throw new IllegalArgumentException("truncated varint");
            }
            byte b = buf[pos++];
            result |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                nextPos[0] = pos;
                return result;
            }
            shift += 7;
        }
        throw new IllegalArgumentException("varint longer than " + MAX_BYTES + " bytes");
    }
}
