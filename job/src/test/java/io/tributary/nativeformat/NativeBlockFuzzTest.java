package io.tributary.nativeformat;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.testing.Fuzzing;

import java.util.Arrays;

/**
 * Coverage-guided fuzzing of {@link NativeBlock#rows}, which reads a Native batch back from an
 * exactly-once checkpoint to split it: whatever the bytes, rows come back or an {@link
 * IllegalStateException} says why not; never another exception, never more than the bound of
 * bytes or an allocation the input does not hold; rows that come back end where they say. An
 * input starting with 0 overwrites a real block (its seed) from an offset it picks, so the fuzzer
 * reaches every column reader.
 */
class NativeBlockFuzzTest {

    private static final byte[] HEADER = header("Name", "Attributes", "Times", "Nulls",
            "LowCardinality(String)", "Map(LowCardinality(String), String)", "Array(DateTime64(9))", "Nullable(UInt8)");

    private static byte[] header(String... namesThenTypes) {
        RowBinaryWriter w = new RowBinaryWriter(256);
        w.writeVarUInt(namesThenTypes.length / 2);
        for (String s : namesThenTypes) {
            w.writeString(s);
        }
        return w.toByteArray();
    }

    /** A block of two rows of {@link #HEADER}: the seed that gets the fuzzer into the column readers. */
    static byte[] seed() {
        NativeBlock b = NativeBlock.forHeader(HEADER);
        RowBinaryWriter w = new RowBinaryWriter(256);
        for (int r = 0; r < 2; r++) {
            w.writeString("GET /" + r);
            w.writeMapSize(2);
            w.writeString("k");
            w.writeString("v" + r);
            w.writeString("http.method");
            w.writeString("GET");
            w.writeArrayLength(r);
            for (int i = 0; i < r; i++) {
                w.writeInt64(i);
            }
            w.writeUInt8(r);
            if (r == 0) {
                w.writeUInt8(7);
            }
        }
        b.addRows(w.buffer(), 0, w.size(), 2);
        return b.toByteArray();
    }

    @FuzzTest(maxDuration = Fuzzing.SHORT)
    void aNativeBodyReadsBackOrIsRefused(byte[] input) {
        byte[] body = input.length > 0 && input[0] == 0 ? mutateSeed(input) : input;
        NativeBlock.Rows rows;
        try {
            rows = NativeBlock.rows(body, 1 << 16);
        } catch (IllegalStateException refused) {
            return;
        } catch (Throwable e) {
            throw Fuzzing.finding(e);
        }
        assertThat(rows.data().length).isLessThanOrEqualTo(1 << 16);
        int[] ends = rows.rowEnds();
        for (int i = 1; i < ends.length; i++) {
            assertThat(ends[i]).isGreaterThanOrEqualTo(ends[i - 1]);
        }
        if (ends.length > 0) {
            assertThat(ends[ends.length - 1]).isEqualTo(rows.data().length);
        }
    }

    /** The seed block with the input's bytes written over it from an offset the input picks. */
    private static byte[] mutateSeed(byte[] input) {
        byte[] s = seed();
        if (input.length < 3) {
            return s;
        }
        int at = (input[1] & 0xFF) % s.length;
        byte[] out = Arrays.copyOf(s, Math.max(s.length, at + input.length - 2));
        System.arraycopy(input, 2, out, at, input.length - 2);
        return out;
    }
}
