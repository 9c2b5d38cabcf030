package io.tributary.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * {@link GoFloat} against Go: the outputs Go itself gave ({@code gofloat-es6.tsv}), and the
 * reference formatter it replaced ({@link GoFloatReference}, checked against Go over millions of
 * doubles) on every boundary case and millions of random doubles; every output reads back as the
 * double it came from.
 */
class GoFloatTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "1.5, 1.5",
        "100, 100",
        "42, 42",
        "-7, -7",
        "0.1, 0.1",
        "1.61803399, 1.61803399",
        "0.000001, 0.000001",
        "0.0000012345, 0.0000012345",
        "9.99e-7, 9.99e-7",
        "1e-7, 1e-7",
        "0.000000009, 9e-9",
        "1.5e-10, 1.5e-10",
        "-2.5e-8, -2.5e-8",
        "1e20, 100000000000000000000",
        "123456789012345678901, 123456789012345680000",
        "1e21, 1e+21",
        "1.5e21, 1.5e+21",
        "1e100, 1e+100",
        "1.7976931348623157e308, 1.7976931348623157e+308",
        "4.9e-324, 5e-324",
        "1e-323, 1e-323",
        "2.2250738585072014e-308, 2.2250738585072014e-308",
        "123456.789, 123456.789",
        "12345678912345678, 12345678912345678",
        "0.30000000000000004, 0.30000000000000004",
        "18.6, 18.6",
        "1e6, 1000000",
        "2e-6, 0.000002",
        "1e-100, 1e-100",
        "1e-10, 1e-10",
        "9007199254740993, 9007199254740992",
        "1.0000000000000002e-6, 0.0000010000000000000002",
        "9.999999999999999e20, 999999999999999900000",
        "1e23, 1e+23",
        "5e-7, 5e-7",
        "2e21, 2e+21"
    })
    void es6(double in, String expected) {
        assertThat(GoFloat.es6(in)).isEqualTo(expected);
        assertThat(GoFloat.es6(-in)).isEqualTo(in < 0 ? expected.substring(1) : "-" + expected);
    }

    @Test
    void zeros() {
        assertThat(GoFloat.es6(0.0)).isEqualTo("0");
        assertThat(GoFloat.es6(-0.0)).isEqualTo("-0");
    }

    @Test
    void givesWhatGoGives() throws IOException {
        Map<Long, String> go = goOutputs();
        long[] cases = GoFloatCases.goFixture();
        assertThat(go.keySet()).containsExactlyInAnyOrderElementsOf(Arrays.stream(cases).boxed().toList());
        assertThat(go).hasSizeGreaterThan(4_000);
        for (Map.Entry<Long, String> e : go.entrySet()) {
            double d = Double.longBitsToDouble(e.getKey());
            assertThat(GoFloat.es6(d)).as("%s (bits %016x)", d, e.getKey()).isEqualTo(e.getValue());
        }
    }

    @Test
    void everyBoundaryCaseAsTheReferenceGivesIt() {
        long[] cases = GoFloatCases.all();
        assertThat(cases.length).isGreaterThan(300_000);
        for (long bits : cases) {
            for (double d : new double[] {Double.longBitsToDouble(bits), -Double.longBitsToDouble(bits)}) {
                String text = GoFloat.es6(d);
                String reference = GoFloatReference.es6(d);
                if (!text.equals(reference) || Double.parseDouble(text) != d) {
                    assertThat(text).as("%s", d).isEqualTo(reference);
                    assertThat(Double.parseDouble(text)).as(text).isEqualTo(d);
                }
            }
        }
    }

    @Test
    void millionsOfRandomDoublesAsTheReferenceGivesThem() {
        SplittableRandom r = new SplittableRandom(20_261_201);
        byte[] b = new byte[GoFloat.MAX_LENGTH];
        for (int i = 0; i < 3_000_000; i++) {
            double d;
            switch (i & 3) {
                case 0:
                    d = Double.longBitsToDouble(r.nextLong()); // any pattern: mostly huge or tiny
                    break;
                case 1:
                    d = r.nextInt(10_000_000) / Math.pow(10, r.nextInt(10)); // metric-like decimals
                    break;
                case 2:
                    d = (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(60) - 30);
                    break;
                default:
                    d = (double) r.nextLong(1L << 60) * (r.nextBoolean() ? 1 : -1); // whole numbers past 2^53
            }
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                continue;
            }
            int n = GoFloat.writeEs6(d, b, 0);
            String text = new String(b, 0, n, StandardCharsets.US_ASCII);
            if (!text.equals(GoFloatReference.es6(d))) {
                assertThat(text).as("%s", d).isEqualTo(GoFloatReference.es6(d));
            }
            if (Double.parseDouble(text) != d) {
                assertThat(Double.parseDouble(text)).as(text).isEqualTo(d);
            }
        }
    }

    @Test
    void wholeNumbersUpTo2To53AreTheirOwnDigits() {
        SplittableRandom r = new SplittableRandom(53);
        for (int i = 0; i < 200_000; i++) {
            long x = i < 100_000 ? i : r.nextLong(1L << 53);
            assertThat(GoFloat.es6((double) x)).isEqualTo(Long.toString(x));
        }
        assertThat(GoFloat.es6(0x1p53)).isEqualTo("9007199254740992");
        assertThat(GoFloat.es6(0x1p53 - 1)).isEqualTo("9007199254740991");
        assertThat(GoFloat.es6(0x1p63)).isEqualTo("9223372036854776000");
        assertThat(GoFloat.es6(0x1p64)).isEqualTo("18446744073709552000");
    }

    @Test
    void writesOnlyItsOwnBytesAndAtMostMaxLength() {
        byte[] b = new byte[GoFloat.MAX_LENGTH + 16];
        int longest = 0;
        for (long bits : GoFloatCases.all()) {
            double d = -Double.longBitsToDouble(bits);
            Arrays.fill(b, (byte) '#');
            int end = GoFloat.writeEs6(d, b, 7);
            longest = Math.max(longest, end - 7);
            for (int i = 0; i < b.length; i++) {
                if ((i < 7 || i >= end) && b[i] != '#') {
                    assertThat(b[i]).as("byte %d of %s", i, d).isEqualTo((byte) '#');
                }
            }
        }
        assertThat(longest).isEqualTo(GoFloat.MAX_LENGTH); // the bound is reached and never passed
        assertThat(GoFloat.es6(-1.0000000000000002e-6)).hasSize(GoFloat.MAX_LENGTH);
    }

    @Test
    void refusesWhatIsNotFinite() {
        for (double d : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            assertThatThrownBy(() -> GoFloat.writeEs6(d, new byte[GoFloat.MAX_LENGTH], 0))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    /** The integer logarithms are exact for every exponent a double has, checked with exact arithmetic. */
    @Test
    void logarithmsAreExactForEveryExponent() {
        for (int q = -1074; q <= 971; q++) {
            BigDecimal pow2 = new BigDecimal(Math.scalb(1.0, q));
            assertThat(GoFloat.flog10pow2(q)).as("q %d", q).isEqualTo(floorLog10(pow2));
            assertThat(GoFloat.flog10threeQuartersPow2(q)).as("q %d", q)
                    .isEqualTo(floorLog10(pow2.multiply(new BigDecimal("0.75"))));
        }
        for (int e = -400; e <= 400; e++) {
            BigDecimal pow10 = BigDecimal.ONE.scaleByPowerOfTen(e);
            int f = GoFloat.flog2pow10(e);
            assertThat(pow2(f).compareTo(pow10)).as("e %d", e).isLessThanOrEqualTo(0);
            assertThat(pow2(f + 1).compareTo(pow10)).as("e %d", e).isGreaterThan(0);
        }
    }

    private static int floorLog10(BigDecimal x) {
        int k = x.precision() - x.scale() - 1; // x = 0.d... 10^(precision - scale): the leading digit's place
        return k;
    }

    private static BigDecimal pow2(int f) {
        BigDecimal p = new BigDecimal(BigInteger.ONE.shiftLeft(Math.abs(f)));
        return f >= 0 ? p : BigDecimal.ONE.divide(p);
    }

    static Map<Long, String> goOutputs() throws IOException {
        Map<Long, String> out = new LinkedHashMap<>();
        try (InputStream in = GoFloatTest.class.getResourceAsStream("/gofloat-es6.tsv")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.US_ASCII).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                int tab = line.indexOf('\t');
                out.put(Long.parseUnsignedLong(line.substring(0, tab), 16), line.substring(tab + 1));
            }
        }
        return out;
    }
}
