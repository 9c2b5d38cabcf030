package io.tributary.otlp;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * Formats doubles as the OpenTelemetry Collector renders them as text, straight into a byte array.
 *
 * <p>Everywhere the collector turns a double into text it uses one rule, Go's {@code
 * encoding/json} float rule "as if by ES6 number to string conversion": pdata's {@code
 * Value.AsString()} ({@code float64AsString} in {@code pdata/pcommon/value.go}), the JSON that
 * {@code AsString()} makes of maps and slices ({@code floatEncoder.encode} in Go's {@code
 * encoding/json/encode.go}) and the OTLP/JSON marshaler (jsoniter's {@code Stream.WriteFloat64},
 * which pdata's {@code internal/json} stream calls). The rule: the shortest decimal that reads back
 * as the same double ({@code strconv.AppendFloat(f, fmt, -1, 64)}), laid out plainly ({@code 'f'})
 * unless {@code |v| < 1e-6} or {@code |v| >= 1e21}, where it is {@code d.ddde±x} ({@code 'e'}) with
 * a negative exponent not padded ({@code 1e-7}, {@code 1.5e+21}). Examples: {@code 1.5}, {@code
 * 100}, {@code 0.000001}, {@code 1e-7}, {@code 1e+21}, {@code 5e-324}, {@code -0}.
 *
 * <p>The shortest digits come from Raffaello Giulietti's Schubfach ("The Schubfach way to render
 * doubles", 2020): scale the double's rounding interval by a power of ten so that it is between
 * 1 and 10 units wide; then a multiple of ten inside it is the one shortest decimal, and otherwise
 * the integer nearest the scaled value is. The scaling multiplies by a 126-bit approximation of the
 * power of ten and keeps the result rounded to odd at a quarter unit, which the paper shows is exact
 * enough for every double to compare with the interval's ends and midpoints. Unlike Java's {@code
 * Double.toString}, which never gives fewer than two digits, this gives Go's shortest ({@code 5e-324}
 * where Java has {@code 4.9E-324}).
 *
 * <p>No allocation per value: {@link #writeEs6} writes ASCII into the caller's array.
 */
public final class GoFloat {

    /** The most bytes {@link #writeEs6} writes: {@code -0.0000012345678901234567}. */
    public static final int MAX_LENGTH = 25;

    private static final int Q_MIN = -1074;
    private static final long C_MIN = 1L << 52;
    private static final long T_MASK = C_MIN - 1;
    private static final long MASK_63 = Long.MAX_VALUE;
    /** Bit patterns of 1e-6 and 1e21, where the layout switches: positive doubles order as their bits. */
    private static final long ONE_E_MINUS_6 = Double.doubleToRawLongBits(1e-6);
    private static final long ONE_E_21 = Double.doubleToRawLongBits(1e21);

    private static final int K_MIN = flog10pow2(Q_MIN);
    private static final int K_MAX = flog10pow2(2046 - 1075);
    /**
     * For each k in [K_MIN, K_MAX], at {@code 2 * (k - K_MIN)} the high and at {@code + 1} the low
     * 63 bits of {@code g = floor(10^-k 2^(125 - flog2pow10(-k))) + 1}, so that {@code 2^125 < g <=
     * 2^126} approximates {@code 10^-k} scaled to 126 bits from above by at most one unit.
     */
    private static final long[] G = powersOfTen();

    private static final long[] POW10 = new long[19];
    private static final byte[] PAIRS = new byte[200];

    static {
        long p = 1;
        for (int i = 0; i < POW10.length; i++) {
            POW10[i] = p;
            p *= 10;
        }
        for (int i = 0; i < 100; i++) {
            PAIRS[2 * i] = (byte) ('0' + i / 10);
            PAIRS[2 * i + 1] = (byte) ('0' + i % 10);
        }
    }

    private GoFloat() {}

    /** The text of a finite double, as {@link #writeEs6} writes it: for callers off the per-record path. */
    public static String es6(double v) {
        byte[] b = new byte[MAX_LENGTH];
        int n = writeEs6(v, b, 0);
        return new String(b, 0, n, StandardCharsets.US_ASCII);
    }

    /**
     * Writes the text of {@code v} (ASCII) to {@code b} from {@code off}, which must have room for
     * {@link #MAX_LENGTH} bytes, and returns the index after the last byte written.
     *
     * @throws IllegalArgumentException for NaN and the infinities, which each caller renders its own way
     */
    public static int writeEs6(double v, byte[] b, int off) {
        return write(v, b, off, false);
    }

    /** The most bytes {@link #plain} gives: {@code -0.} then 323 zeros and {@code 5} ({@code -5e-324}). */
    public static final int MAX_PLAIN_LENGTH = 327;

    /**
     * {@code strconv.FormatFloat(v, 'f', -1, 64)}: the shortest digits that read back as {@code v},
     * never in exponent form ({@code 1e+21} is {@code 1000000000000000000000}, {@code -0} is
     * {@code -0}).
     *
     * @throws IllegalArgumentException for NaN and the infinities, which each caller renders its own way
     */
    public static String plain(double v) {
        byte[] b = new byte[MAX_PLAIN_LENGTH];
        int n = write(v, b, 0, true);
        return new String(b, 0, n, StandardCharsets.US_ASCII);
    }

    private static int write(double v, byte[] b, int off, boolean plain) {
        long bits = Double.doubleToRawLongBits(v);
        int p = off;
        if (bits < 0) {
            b[p++] = '-';
        }
        long mag = bits & MASK_63;
        if (mag == 0) {
            b[p] = '0';
            return p + 1;
        }
        int bq = (int) (mag >>> 52);
        if (bq == 0x7FF) {
            throw new IllegalArgumentException("not a finite double: " + v);
        }
        boolean exponential = !plain && (mag < ONE_E_MINUS_6 || mag >= ONE_E_21);
        long t = mag & T_MASK;
        long c;
        int q;
        if (bq == 0) {
            c = t;
            q = Q_MIN;
        } else {
            c = C_MIN | t;
            q = bq - 1075;
            // a whole number below 2^53 is its own shortest decimal: nothing shorter lies within half a unit
            if (q <= 0 && q > -53 && (c & ((1L << -q) - 1)) == 0) {
                return layout(c >> -q, 0, exponential, b, p);
            }
        }
        boolean regular = c != C_MIN || q == Q_MIN;
        int k = regular ? flog10pow2(q) : flog10threeQuartersPow2(q);
        return layout(shortest(c, q, k, regular), k, exponential, b, p);
    }

    /**
     * The digits of the shortest decimal {@code d * 10^k} in the rounding interval of {@code c *
     * 2^q}, the one nearest it when several are as short (the even one on a tie); it may end in
     * zeros, which the layout drops.
     *
     * <p>In units of {@code 2^(q-2)} the double is {@code cb = 4c} and its interval runs from
     * {@code cbl} to {@code cbr}, ends included when {@code c} is even (a decimal halfway between two
     * doubles reads as the even one). Scaled by {@code 10^-k} and kept in quarter units ({@code
     * vb}, {@code vbl}, {@code vbr}, rounded to odd), the interval is between 1 and 10 units wide.
     */
    private static long shortest(long c, int q, int k, boolean regular) {
        long out = c & 1;
        long cb = c << 2;
        long cbr = cb + 2;
        // at a power of two the double below is nearer: the interval's lower half is half as wide
        long cbl = regular ? cb - 2 : cb - 1;
        int h = q + flog2pow10(-k) + 1;
        int i = 2 * (k - K_MIN);
        long g1 = G[i];
        long g0 = G[i + 1];
        long vb = scale(g1, g0, cb << h);
        long vbl = scale(g1, g0, cbl << h);
        long vbr = scale(g1, g0, cbr << h);
        long s = vb >> 2;
        if (s >= 10) {
            // a multiple of ten in the interval is shorter than anything else in it, and unique
            long sp10 = 10 * (s / 10);
            long tp10 = sp10 + 10;
            boolean lowIn = vbl + out <= sp10 << 2;
            boolean highIn = (tp10 << 2) + out <= vbr;
            if (lowIn != highIn) {
                return lowIn ? sp10 : tp10;
            }
        }
        // otherwise one of the integers either side of the scaled value, the nearer when both are in
        long u = s + 1;
        boolean lowIn = vbl + out <= s << 2;
        boolean highIn = (u << 2) + out <= vbr;
        if (lowIn != highIn) {
            return lowIn ? s : u;
        }
        long cmp = vb - ((s + u) << 1);
        return cmp < 0 || cmp == 0 && (s & 1) == 0 ? s : u;
    }

    /**
     * {@code g * cp / 2^126} rounded to odd: the integer part, with its lowest bit set when the bits
     * below the point (down to 2^63, under which lies only the error of {@code g}) are not all zero.
     * {@code g = g1 2^63 + g0}, {@code 0 < cp < 2^63}.
     */
    private static long scale(long g1, long g0, long cp) {
        long x1 = Math.multiplyHigh(g0, cp);
        long x0 = g0 * cp;
        long y1 = Math.multiplyHigh(g1, cp);
        long y0 = g1 * cp;
        // g * cp / 2^63 = (y1 2^64 + y0) + (g0 * cp >> 63); the latter is below 2^59
        long lo = y0 + ((x1 << 1) | (x0 >>> 63));
        long hi = y1 + (Long.compareUnsigned(lo, y0) < 0 ? 1 : 0);
        return (hi << 1) | (lo >>> 63) | (((lo & MASK_63) + MASK_63) >>> 63);
    }

    /**
     * Lays out {@code d * 10^e} ({@code d > 0}) from {@code p}: plain, or {@code d.ddde±x} when
     * {@code exponential}; returns the index after the last byte.
     */
    private static int layout(long d, int e, boolean exponential, byte[] b, int p) {
        while (d % 10 == 0) {
            d /= 10;
            e++;
        }
        int n = digitCount(d);
        int point = n + e; // digits before the decimal point; negative: zeros after it first
        if (exponential) {
            writeDigits(d, n, b, p + 1);
            b[p] = b[p + 1];
            int end = p + 1;
            if (n > 1) {
                b[end] = '.';
                end += n;
            }
            b[end++] = 'e';
            int x = point - 1;
            if (x < 0) {
                b[end++] = '-';
                x = -x;
            } else {
                b[end++] = '+';
            }
            // strconv pads the exponent to two digits; encoding/json then unpads negative ones
            if (x >= 100) {
                b[end++] = (byte) ('0' + x / 100);
                x %= 100;
                b[end++] = PAIRS[2 * x];
            } else if (x >= 10 || b[end - 1] == '+') {
                b[end++] = PAIRS[2 * x];
            }
            b[end++] = PAIRS[2 * x + 1];
            return end;
        }
        if (point <= 0) {
            b[p++] = '0';
            b[p++] = '.';
            for (int z = point; z < 0; z++) {
                b[p++] = '0';
            }
            writeDigits(d, n, b, p);
            return p + n;
        }
        if (point >= n) {
            writeDigits(d, n, b, p);
            int end = p + point;
            for (int z = p + n; z < end; z++) {
                b[z] = '0';
            }
            return end;
        }
        writeDigits(d, n, b, p + 1);
        System.arraycopy(b, p + 1, b, p, point);
        b[p + point] = '.';
        return p + n + 1;
    }

    /** Decimal digits of {@code 0 < d < 10^18}. */
    private static int digitCount(long d) {
        // about log10(2) times the bit length, then one comparison to settle it
        int t = ((64 - Long.numberOfLeadingZeros(d)) * 1233) >>> 12;
        return d >= POW10[t] ? t + 1 : t;
    }

    /** The {@code n} digits of {@code d} at {@code b[p, p + n)}. */
    private static void writeDigits(long d, int n, byte[] b, int p) {
        int i = p + n;
        while (d >= 100) {
            int r = (int) (d % 100);
            d /= 100;
            b[--i] = PAIRS[2 * r + 1];
            b[--i] = PAIRS[2 * r];
        }
        int r = (int) d;
        if (r >= 10) {
            b[--i] = PAIRS[2 * r + 1];
            b[--i] = PAIRS[2 * r];
        } else {
            b[--i] = (byte) ('0' + r);
        }
    }

    /**
     * {@code floor(q log10(2))}; the constant is {@code floor(log10(2) 2^32)}, exact for every
     * exponent a double has ({@code GoFloatTest} checks them all).
     */
    static int flog10pow2(int q) {
        return (int) ((q * 1292913986L) >> 32);
    }

    /** {@code floor(log10(3/4 2^q))}: {@code floor(-log10(3/4) 2^32)} is the second constant. */
    static int flog10threeQuartersPow2(int q) {
        return (int) ((q * 1292913986L - 536607787L) >> 32);
    }

    /** {@code floor(e log2(10))}; the constant is {@code floor(log2(10) 2^32)}. */
    static int flog2pow10(int e) {
        return (int) ((e * 14267572527L) >> 32);
    }

    /** The table {@link #G}, worked out once with exact arithmetic. */
    private static long[] powersOfTen() {
        long[] g = new long[2 * (K_MAX - K_MIN + 1)];
        BigInteger mask63 = BigInteger.ONE.shiftLeft(63).subtract(BigInteger.ONE);
        for (int k = K_MIN; k <= K_MAX; k++) {
            int shift = 125 - flog2pow10(-k);
            BigInteger scaled;
            if (k <= 0) {
                BigInteger p = BigInteger.TEN.pow(-k);
                scaled = shift >= 0 ? p.shiftLeft(shift) : p.shiftRight(-shift);
            } else {
                scaled = BigInteger.ONE.shiftLeft(shift).divide(BigInteger.TEN.pow(k));
            }
            BigInteger gk = scaled.add(BigInteger.ONE);
            if (gk.bitLength() != 126) {
                throw new IllegalStateException("10^" + -k + " does not scale to 126 bits");
            }
            g[2 * (k - K_MIN)] = gk.shiftRight(63).longValueExact();
            g[2 * (k - K_MIN) + 1] = gk.and(mask63).longValueExact();
        }
        return g;
    }
}
