package io.tributary.otlp.json;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.SplittableRandom;

/**
 * {@link DecimalToDouble} against {@link Double#parseDouble}, which the message path uses: where
 * it answers, the same bits, for the shortest and the 17-digit forms of random doubles of every
 * exponent, random decimals of 1 to 19 digits, every power of ten, and the halfway points between
 * neighbouring doubles (exact ties and their nearest 19-digit neighbours); and it answers for
 * nearly all of them, so the JSON reader rarely needs a String.
 */
class DecimalToDoubleTest {

    private int asked;
    private int answered;

    /** Checks {@code w × 10^q} against parseDouble; w is at most 19 digits. */
    private void check(long w, int q) {
        asked++;
        long bits = DecimalToDouble.bits(w, q);
        if (bits == DecimalToDouble.UNKNOWN) {
            return;
        }
        answered++;
        String text = Long.toUnsignedString(w) + "e" + q;
        assertThat(Double.longBitsToDouble(bits)).as(text).isEqualTo(Double.parseDouble(text));
        assertThat(bits).as(text).isEqualTo(Double.doubleToRawLongBits(Double.parseDouble(text)));
    }

    /** The decimal in {@code s} (digits, '.', exponent) as w and q, when w fits 19 digits. */
    private void check(String s) {
        BigDecimal d = new BigDecimal(s).stripTrailingZeros();
        if (d.signum() == 0 || d.precision() > 19 || d.unscaledValue().bitLength() > 64) {
            return;
        }
        check(d.unscaledValue().longValue(), -d.scale());
    }

    @Test
    void randomDoublesInTheirShortestAnd17DigitForms() {
        SplittableRandom r = new SplittableRandom(19);
        for (int i = 0; i < 300_000; i++) {
            double d = Double.longBitsToDouble(r.nextLong() & Long.MAX_VALUE);
            if (Double.isNaN(d) || Double.isInfinite(d) || d == 0) {
                continue;
            }
            check(Double.toString(d));
            check(String.format("%.16e", d));
            check(String.format("%.18e", d));
        }
        assertThat(answered).as("answered of %d", asked).isGreaterThan(asked * 95 / 100);
    }

    @Test
    void randomDecimalsAndPowersOfTen() {
        SplittableRandom r = new SplittableRandom(7);
        for (int i = 0; i < 300_000; i++) {
            int digits = 1 + r.nextInt(19);
            long w = 0;
            for (int k = 0; k < digits; k++) {
                w = w * 10 + r.nextInt(10);
            }
            if (w == 0) {
                continue;
            }
            check(w, r.nextInt(DecimalToDouble.MIN_Q, DecimalToDouble.MAX_Q + 1));
            check(w, r.nextInt(-30, 30));
        }
        for (int q = DecimalToDouble.MIN_Q; q <= DecimalToDouble.MAX_Q; q++) {
            check(1, q);
            check(Long.parseUnsignedLong("9999999999999999999"), q);
        }
        check(-1L, 0); // 2^64 - 1, read as unsigned
        assertThat(answered).as("answered of %d", asked).isGreaterThan(asked * 80 / 100);
    }

    @Test
    void halfwayPointsRoundAsParseDoubleDoes() {
        SplittableRandom r = new SplittableRandom(3);
        for (int i = 0; i < 100_000; i++) {
            double d = Double.longBitsToDouble(r.nextLong(0x0010_0000_0000_0000L, 0x7FE0_0000_0000_0000L));
            BigDecimal half = new BigDecimal(d).add(new BigDecimal(Math.nextUp(d))).divide(BigDecimal.valueOf(2));
            check(half.toString());
            BigDecimal rounded = half.round(new java.math.MathContext(19));
            check(rounded.toString());
            check(rounded.add(rounded.ulp()).toString());
            check(rounded.subtract(rounded.ulp()).toString());
        }
        // ties of small integers, where 5^q is held exactly: 2^53 + 1 and its like round to even
        for (long w = (1L << 53) - 3; w < (1L << 53) + 40; w++) {
            check(w, 0);
            check(w * 10, -1);
            check(w * 10, 0);
        }
    }
}
