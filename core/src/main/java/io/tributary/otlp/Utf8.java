package io.tributary.otlp;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * UTF-8 as protobuf-java checks its {@code string} fields: well-formed (no overlong forms, no
 * surrogates, nothing above U+10FFFF; https://www.rfc-editor.org/rfc/rfc3629). The collector
 * takes any bytes; the job reads invalid ones as the JVM decodes them, with U+FFFD in place of
 * each malformed sequence, the same as it does when protobuf-java refuses them.
 */
public final class Utf8 {

    /** Eight bytes at a time; the order does not matter to the test of their top bits. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long HIGH_BITS = 0x8080808080808080L;

    private Utf8() {}

    /**
     * Copies {@code src[off, off + len)} to {@code dst[at, at + len)} when it is well-formed
     * UTF-8 and returns true; returns false (with {@code dst} partly written) when it is not. One
     * pass over ASCII, which most telemetry strings are.
     */
    public static boolean copyIfValid(byte[] src, int off, byte[] dst, int at, int len) {
        int i = off;
        int end = off + len;
        int d = at - off;
        for (; end - i >= 8; i += 8) {
            long v = (long) LONGS.get(src, i);
            if ((v & HIGH_BITS) != 0) {
                break;
            }
            LONGS.set(dst, i + d, v);
        }
        for (; i < end; i++) {
            byte x = src[i];
            if (x < 0) {
                if (!isValid(src, i, end - i)) {
                    return false;
                }
                System.arraycopy(src, i, dst, i + d, end - i);
                return true;
            }
            dst[i + d] = x;
        }
        return true;
    }

    /** True when {@code b[off, off + len)} is well-formed UTF-8. */
    public static boolean isValid(byte[] b, int off, int len) {
        int i = off;
        int end = off + len;
        // ASCII runs first: most telemetry strings are ASCII
        while (end - i >= 8 && ((long) LONGS.get(b, i) & HIGH_BITS) == 0) {
            i += 8;
        }
        while (i < end && b[i] >= 0) {
            i++;
        }
        while (i < end) {
            int c = b[i] & 0xFF;
            if (c < 0x80) {
                i++;
                continue;
            }
            if (c < 0xC2) {
                return false; // continuation byte first, or an overlong two-byte form
            }
            if (c < 0xE0) {
                if (i + 1 >= end || (b[i + 1] & 0xC0) != 0x80) {
                    return false;
                }
                i += 2;
                continue;
            }
            if (c < 0xF0) {
                if (i + 2 >= end) {
                    return false;
                }
                int c1 = b[i + 1] & 0xFF;
                if ((c1 & 0xC0) != 0x80 || (b[i + 2] & 0xC0) != 0x80
                        || (c == 0xE0 && c1 < 0xA0) // overlong
                        || (c == 0xED && c1 >= 0xA0)) { // surrogate
                    return false;
                }
                i += 3;
                continue;
            }
            if (c < 0xF5) {
                if (i + 3 >= end) {
                    return false;
                }
                int c1 = b[i + 1] & 0xFF;
                if ((c1 & 0xC0) != 0x80 || (b[i + 2] & 0xC0) != 0x80 || (b[i + 3] & 0xC0) != 0x80
                        || (c == 0xF0 && c1 < 0x90) // overlong
                        || (c == 0xF4 && c1 >= 0x90)) { // above U+10FFFF
                    return false;
                }
                i += 4;
                continue;
            }
            return false;
        }
        return true;
    }

    /** The bytes as the JVM decodes them, invalid sequences replaced by U+FFFD, encoded again. */
    public static byte[] replaceInvalid(byte[] b, int off, int len) {
        return new String(b, off, len, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8);
    }
}
