package io.tributary.rowbinary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * {@link RowBinaryWriter#limit}: writes up to the limit pass, the first byte past it throws the
 * caller's exception before the buffer grows, and the buffer never grows past the limit.
 */
class RowBinaryWriterLimitTest {

    static final class Over extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }

    @Test
    void writesUpToTheLimitPassAndTheFirstBytePastItThrows() {
        RowBinaryWriter w = new RowBinaryWriter(16);
        w.limit(100, Over::new);
        w.writeRaw(new byte[90], 0, 90);
        w.writeString(new byte[9]); // 1 + 9 bytes: exactly 100
        assertThat(w.size()).isEqualTo(100);
        assertThat(w.buffer().length).as("grown to the limit, not doubled past it").isEqualTo(100);
        assertThatThrownBy(() -> w.writeUInt8(1)).isInstanceOf(Over.class);
        assertThat(w.size()).isEqualTo(100);
        assertThat(w.buffer().length).isEqualTo(100);

        RowBinaryWriter big = new RowBinaryWriter(16);
        big.limit(1 << 20, Over::new);
        assertThatThrownBy(() -> big.writeString(new byte[2 << 20])).as("one value past the limit").isInstanceOf(Over.class);
        assertThat(big.buffer().length).as("nothing taken for it").isEqualTo(16);
    }

    @Test
    void theLimitStopsGrowthNotWritesIntoMemoryAlreadyHeld() {
        RowBinaryWriter w = new RowBinaryWriter(16);
        w.limit(64, Over::new);
        w.writeRaw(new byte[64], 0, 64);
        w.reset();
        w.limit(32, Over::new);
        w.writeRaw(new byte[64], 0, 64); // the buffer holds 64 already: the limit only stops growth
        assertThatThrownBy(() -> w.writeInt64(1)).isInstanceOf(Over.class);
        w.limit(Integer.MAX_VALUE, Over::new);
        w.writeInt64(1);
        assertThat(w.size()).isEqualTo(72);
    }

    @Test
    void withoutALimitTheBufferDoubles() {
        RowBinaryWriter w = new RowBinaryWriter(16);
        w.writeRaw(new byte[17], 0, 17);
        assertThat(w.buffer().length).isEqualTo(32);
    }
}
