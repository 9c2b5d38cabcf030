package io.tributary.otlp;

import java.util.LinkedHashSet;
import java.util.SplittableRandom;
import java.util.function.LongConsumer;

/**
 * Doubles where a formatter goes wrong if it goes wrong anywhere, as bit patterns (positive; the
 * tests add the signs): every power of two and of ten with their neighbours, the first and last
 * subnormals and normals, the layout's switch points, decimals of one and two digits at every
 * exponent (where Java's shortest and Go's differ), whole numbers around 2^53, and random ones.
 */
final class GoFloatCases {

    private GoFloatCases() {}

    /** Every case, for the comparison with the reference formatter. */
    static long[] all() {
        LinkedHashSet<Long> out = new LinkedHashSet<>();
        LongConsumer add = b -> addWithNeighbours(out, b, 2);
        for (int e = -1074; e <= 1023; e++) {
            add.accept(Double.doubleToRawLongBits(Math.scalb(1.0, e)));
        }
        for (int e = -324; e <= 308; e++) {
            add.accept(bitsOf("1e" + e));
        }
        for (int d = 1; d <= 99; d++) {
            for (int e = -325; e <= 308; e++) {
                add.accept(bitsOf(d + "e" + e));
            }
        }
        specials(add);
        for (long c = 1; c <= 4096; c++) {
            out.add(c); // the smallest subnormals, one by one
        }
        random(out, 1, 20_000);
        out.remove(0L);
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    /**
     * The cases whose Go outputs {@code gofloat-es6.tsv} holds (a sample of {@link #all}, to keep the
     * file small): every power of two and of ten, some with their neighbours, decimals of one and two
     * digits across the exponents, the specials with their neighbours, and random doubles.
     */
    static long[] goFixture() {
        LinkedHashSet<Long> out = new LinkedHashSet<>();
        for (int e = -1074; e <= 1023; e++) {
            addWithNeighbours(out, Double.doubleToRawLongBits(Math.scalb(1.0, e)), e % 16 == 0 ? 1 : 0);
        }
        for (int e = -324; e <= 308; e++) {
            addWithNeighbours(out, bitsOf("1e" + e), e % 16 == 0 ? 1 : 0);
        }
        for (int d : new int[] {2, 3, 5, 9, 11, 15, 25, 49, 95, 99}) {
            for (int e = -324; e <= 308; e += 11) {
                out.add(bitsOf(d + "e" + e));
            }
        }
        specials(b -> addWithNeighbours(out, b, 1));
        for (long c = 1; c <= 64; c++) {
            out.add(c);
        }
        random(out, 2, 500);
        out.remove(0L);
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    /** The extremes, the layout's switch points and whole numbers near the end of exact integers. */
    private static void specials(LongConsumer add) {
        double[] ds = {
            Double.MIN_VALUE, Double.MIN_NORMAL, Math.nextDown(Double.MIN_NORMAL), Double.MAX_VALUE,
            1e-6, 1e-7, 1e-5, 1e20, 1e21, 1e22, 1e23, 0.1, 0.2, 0.3, 0.30000000000000004, 1.5, 2.5, 123456.789,
            0x1p53, 0x1p53 - 1, 0x1p53 + 2, 0x1p54, 0x1p63, 0x1p64, 9007199254740993.0, 99999999999999999.0,
            999999999999999.9, 1e15, 1e16, 1e17, 9.999999999999999e20, 9.999999999999999e-7, 5e-324, 1.7976931348623157e308,
            2.2250738585072014e-308, 4.35663053e-313, 123456789012345678901.0, 0.000001234567890123456789
        };
        for (double d : ds) {
            add.accept(Double.doubleToRawLongBits(d));
        }
        for (long p = 1, i = 0; i < 19; i++, p *= 10) {
            add.accept(Double.doubleToRawLongBits((double) p));
            add.accept(Double.doubleToRawLongBits((double) (p - 1)));
        }
    }

    /** Random doubles of three kinds: any bit pattern, short decimals, and values of any magnitude. */
    static void random(java.util.Set<Long> out, long seed, int n) {
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < n; i++) {
            long bits;
            switch (i % 3) {
                case 0:
                    bits = r.nextLong() & Long.MAX_VALUE;
                    break;
                case 1:
                    bits = Double.doubleToRawLongBits(r.nextInt(2_000_000) / Math.pow(10, r.nextInt(12)));
                    break;
                default:
                    bits = Double.doubleToRawLongBits(r.nextDouble() * Math.pow(10, r.nextInt(80) - 40));
            }
            if ((bits >>> 52) != 0x7FF) {
                out.add(bits);
            }
        }
    }

    private static void addWithNeighbours(java.util.Set<Long> out, long bits, int reach) {
        for (long b = bits - reach; b <= bits + reach; b++) {
            if (b > 0 && b < 0x7FF0_0000_0000_0000L) {
                out.add(b);
            }
        }
    }

    private static long bitsOf(String decimal) {
        return Double.doubleToRawLongBits(Double.parseDouble(decimal));
    }
}
