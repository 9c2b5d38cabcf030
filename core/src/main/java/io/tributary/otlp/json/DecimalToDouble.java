package io.tributary.otlp.json;

import java.math.BigInteger;

/**
 * The double nearest to a decimal {@code w × 10^q} (w of up to 19 digits), as {@link
 * Double#parseDouble} rounds it, without allocating: the product of w and a 128-bit
 * approximation of 5^q, the method of Eisel and Lemire (D. Lemire, "Number Parsing at a
 * Gigabyte per Second", Software: Practice and Experience 51(8), 2021), derived here anew.
 *
 * <p>Each power of five is kept as the 128-bit integer part T of 5^q × 2^-s (so the true value
 * lies in [T, T + 1)); the 192-bit product P of w (shifted to fill 64 bits) and T is then below
 * the true product by less than 2^64, which can change only the lowest 64 bits and a carry. When
 * the bits that decide the rounding could be changed by that carry, or the value is at or near a
 * tie, or subnormal, or out of range, the answer is "don't know" and the caller uses {@link
 * Double#parseDouble}; that happens for a tiny share of inputs.
 */
final class DecimalToDouble {

    static final int MIN_Q = -342;
    static final int MAX_Q = 308;

    private static final long[] T_HI = new long[MAX_Q - MIN_Q + 1];
    private static final long[] T_LO = new long[MAX_Q - MIN_Q + 1];
    /** 5^q = T × 2^S (approximately, from below). */
    private static final int[] S = new int[MAX_Q - MIN_Q + 1];

    /** The largest q whose 5^q has at most 128 bits, so that T holds it exactly. */
    private static final int MAX_EXACT_Q = 55;

    private static final BigInteger MASK64 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    static {
        BigInteger five = BigInteger.valueOf(5);
        for (int q = MIN_Q; q <= MAX_Q; q++) {
            BigInteger t;
            int s;
            if (q >= 0) {
                BigInteger p = five.pow(q);
                int bl = p.bitLength();
                t = bl <= 128 ? p.shiftLeft(128 - bl) : p.shiftRight(bl - 128);
                s = bl - 128;
            } else {
                BigInteger p = five.pow(-q);
                int b = p.bitLength() + 127;
                t = BigInteger.ONE.shiftLeft(b).divide(p);
                s = -b;
            }
            int i = q - MIN_Q;
            T_HI[i] = t.shiftRight(64).longValue();
            T_LO[i] = t.and(MASK64).longValue();
            S[i] = s;
        }
    }

    /** Returned where the answer is not certain; no double has these bits from this class (a NaN). */
    static final long UNKNOWN = 0x7FF8_0000_0000_0001L;

    private DecimalToDouble() {}

    /**
     * The bits of the positive double nearest to {@code w × 10^q}, or {@link #UNKNOWN}.
     *
     * @param w the significand, not 0, read as unsigned (up to 19 decimal digits)
     */
    static long bits(long w, int q) {
        if (w == 0 || q < MIN_Q || q > MAX_Q) {
            return UNKNOWN;
        }
        int i = q - MIN_Q;
        int lz = Long.numberOfLeadingZeros(w);
        long wn = w << lz;
        long a1 = unsignedMultiplyHigh(wn, T_HI[i]);
        long a0 = wn * T_HI[i];
        long b1 = unsignedMultiplyHigh(wn, T_LO[i]);
        long mid = a0 + b1;
        long hi = a1 + (Long.compareUnsigned(mid, a0) < 0 ? 1 : 0);
        // P = hi:mid:lo lies in [2^190, 2^192); x = P × 2^(S + q - lz)
        int top = 63 - Long.numberOfLeadingZeros(hi);
        int shift = top - 53; // bits of hi below the rounding bit
        long restMask = (1L << shift) - 1;
        long rest = hi & restMask;
        long m = hi >>> (shift + 1);
        boolean half = (hi >>> shift & 1) != 0;
        if (q >= 0 && q <= MAX_EXACT_Q) {
            // T is 5^q itself, so P is the exact product: ties go to the even neighbour
            long lo = wn * T_LO[i];
            if (half && (rest != 0 || mid != 0 || lo != 0 || (m & 1) != 0)) {
                m++;
            }
        } else {
            // the true product is above P by less than 2^64: a carry could reach the bits that decide
            if (rest == restMask && mid == -1L || rest == 0 && mid == 0) {
                return UNKNOWN;
            }
            if (half) {
                m++;
            }
        }
        int e2 = 128 + top + S[i] + q - lz;
        if (m == 1L << 53) {
            m >>>= 1;
            e2++;
        }
        int biased = e2 + 1023;
        if (biased < 1 || biased > 2046) {
            return UNKNOWN;
        }
        return (long) biased << 52 | (m & ((1L << 52) - 1));
    }

    /** The high 64 bits of the unsigned 128-bit product (Math.unsignedMultiplyHigh came in Java 18). */
    private static long unsignedMultiplyHigh(long a, long b) {
        return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
    }
}
