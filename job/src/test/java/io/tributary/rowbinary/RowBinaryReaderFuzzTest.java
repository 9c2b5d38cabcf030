package io.tributary.rowbinary;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.tributary.testing.Fuzzing;

/**
 * {@link RowBinaryReader} over any bytes (the udf module reads the job's rows back with it): a
 * sequence of reads chosen by the input either returns what lies at the position or throws {@link
 * IllegalArgumentException}, and the position only moves forward, never past the end. Then the
 * same reads over what {@link RowBinaryWriter} wrote for values chosen by the input give those
 * values back.
 */
class RowBinaryReaderFuzzTest {

    @FuzzTest(maxDuration = Fuzzing.SHORT)
    void readsWhatLiesThereOrRefusesTheBytes(FuzzedDataProvider data) {
        int ops = data.consumeInt(0, 32);
        int[] kinds = new int[ops];
        for (int i = 0; i < ops; i++) {
            kinds[i] = data.consumeInt(0, 9);
        }
        long[] numbers = new long[ops];
        byte[][] strings = new byte[ops][];
        for (int i = 0; i < ops; i++) {
            numbers[i] = data.consumeLong();
            strings[i] = data.consumeBytes(data.consumeInt(0, 64));
        }
        byte[] bytes = data.consumeRemainingAsBytes();

        // any bytes: each read gives what lies there, or refuses them
        int off = bytes.length > 0 ? bytes[0] & 3 : 0;
        off = Math.min(off, bytes.length);
        RowBinaryReader any = new RowBinaryReader(bytes, off, bytes.length - off);
        for (int kind : kinds) {
            int before = any.position();
            try {
                read(any, kind);
            } catch (IllegalArgumentException refused) {
                break;
            }
            assertThat(any.position()).as("position after a read of kind %d", kind).isGreaterThanOrEqualTo(before)
                    .isLessThanOrEqualTo(bytes.length);
        }

        // bytes the writer wrote: each read gives the value written
        RowBinaryWriter w = new RowBinaryWriter(16);
        for (int i = 0; i < ops; i++) {
            write(w, kinds[i], numbers[i], strings[i]);
        }
        byte[] written = w.toByteArray();
        RowBinaryReader r = new RowBinaryReader(written, 0, written.length);
        for (int i = 0; i < ops; i++) {
            Object expected = expected(kinds[i], numbers[i], strings[i]);
            Object actual = read(r, kinds[i]);
            if (expected instanceof byte[]) {
                assertThat((byte[]) actual).as("read %d", i).isEqualTo((byte[]) expected);
            } else {
                assertThat(actual).as("read %d", i).isEqualTo(expected);
            }
        }
        assertThat(r.hasMore()).isFalse();
    }

    private static Object read(RowBinaryReader r, int kind) {
        switch (kind) {
            case 0:
                return r.readUInt8();
            case 1:
                return r.readInt16();
            case 2:
                return r.readInt32();
            case 3:
                return r.readInt64();
            case 4:
                return r.readVarUInt();
            case 5:
                return r.readLength();
            case 6:
                return r.readStringBytes();
            case 7:
                return r.readString();
            case 8:
                r.skipString();
                return null;
            default:
                return r.readFloat64();
        }
    }

    private static void write(RowBinaryWriter w, int kind, long n, byte[] s) {
        switch (kind) {
            case 0:
                w.writeUInt8((int) n & 0xFF);
                break;
            case 1:
                w.writeInt16((int) n);
                break;
            case 2:
                w.writeInt32((int) n);
                break;
            case 3:
                w.writeInt64(n);
                break;
            case 4:
                w.writeVarUInt(n);
                break;
            case 5:
                w.writeArrayLength(0);
                break;
            case 6:
            case 7:
            case 8:
                w.writeString(s);
                break;
            default:
                w.writeFloat64(Double.longBitsToDouble(n));
                break;
        }
    }

    private static Object expected(int kind, long n, byte[] s) {
        switch (kind) {
            case 0:
                return (int) n & 0xFF;
            case 1:
                return (short) n;
            case 2:
                return (int) n;
            case 3:
            case 4:
                return n;
            case 5:
                return 0;
            case 6:
                return s;
            case 7:
                return new String(s, java.nio.charset.StandardCharsets.UTF_8);
            case 8:
                return null;
            default:
                return Double.longBitsToDouble(n);
        }
    }
}
