package io.tributary.rowbinary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.HexFormat;

/** Unsigned LEB128 at every length boundary (golden bytes), and round trips. */
class Leb128Test {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "0, 00",
        "1, 01",
        "127, 7f",
        "128, 8001",
        "300, ac02",
        "16383, ff7f",
        "16384, 808001",
        "2097151, ffff7f",
        "2097152, 80808001",
        "268435455, ffffff7f",
        "268435456, 8080808001",
        "4294967295, ffffffff0f",
        "9223372036854775807, ffffffffffffffff7f",
        "-1, ffffffffffffffffff01",
        "-9223372036854775808, 80808080808080808001"
    })
    void goldenBytes(long value, String hex) {
        byte[] buf = new byte[Leb128.MAX_BYTES];
        int end = Leb128.write(buf, 0, value);
        assertThat(HexFormat.of().formatHex(buf, 0, end)).isEqualTo(hex);
        assertThat(Leb128.size(value)).isEqualTo(end);
        int[] next = new int[1];
        assertThat(Leb128.read(buf, 0, next)).isEqualTo(value);
        assertThat(next[0]).isEqualTo(end);
    }

    @Test
    void roundTripsAcrossEveryBitLength() {
        byte[] buf = new byte[Leb128.MAX_BYTES];
        int[] next = new int[1];
        for (int bits = 0; bits < 64; bits++) {
            for (long v : new long[] {(1L << bits) - 1, 1L << bits, (1L << bits) + 1}) {
                int end = Leb128.write(buf, 0, v);
                assertThat(end).isEqualTo(Leb128.size(v));
                assertThat(Leb128.read(buf, 0, next)).isEqualTo(v);
            }
        }
    }

    @Test
    void rejectsOverlongAndTruncated() {
        byte[] overlong = new byte[11];
        java.util.Arrays.fill(overlong, (byte) 0x80);
        assertThatThrownBy(() -> Leb128.read(overlong, 0, new int[1])).hasMessageContaining("longer");
        assertThatThrownBy(() -> Leb128.read(new byte[] {(byte) 0x80}, 0, new int[1])).hasMessageContaining("truncated");
    }
}
