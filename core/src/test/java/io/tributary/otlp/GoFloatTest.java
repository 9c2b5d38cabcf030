package io.tributary.otlp;

import io.tributary.otlp.GoFloat;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Expected strings are what Go's {@code strconv.AppendFloat(f, 'f' or 'e', -1, 64)} gives under
 * pdata's ES6 rule, including the cut-offs at 1e-6 and 1e21.
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
        "2.2250738585072014e-308, 2.2250738585072014e-308",
        "123456.789, 123456.789",
        "12345678912345678, 12345678912345678",
        "0.30000000000000004, 0.30000000000000004",
        "18.6, 18.6",
        "1e6, 1000000",
        "2e-6, 0.000002"
    })
    void es6(double in, String expected) {
        assertThat(GoFloat.es6(in)).isEqualTo(expected);
    }

    @Test
    void zeros() {
        assertThat(GoFloat.es6(0.0)).isEqualTo("0");
        assertThat(GoFloat.es6(-0.0)).isEqualTo("-0");
    }

    @Test
    void shortestRoundTripForManyValues() {
        java.util.SplittableRandom r = new java.util.SplittableRandom(7);
        for (int i = 0; i < 100_000; i++) {
            double d = Double.longBitsToDouble(r.nextLong());
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                continue;
            }
            assertThat(Double.parseDouble(GoFloat.es6(d))).isEqualTo(d);
        }
    }
}
