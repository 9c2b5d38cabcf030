package io.tributary.nativeformat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

/**
 * A Native column holds up to the 2 GB an array allows, as {@code sink.batch.max-bytes} ("below 2
 * gb") promises for a batch. {@link Buf} doubles its capacity and refuses a doubling past 2 GB, so
 * its capacity stops at 1 GiB: a batch whose one column passes 1 GiB (a logs batch of
 * {@code sink.batch.max-bytes 1.5 gb} is mostly its Body column) fails in {@code Batch.add} with "a
 * Native column grew past 2 GB", and the restarted job reads the same records into the same
 * failure. Needs a heap of 4 GiB: it allocates a 1 GiB column (and, passing, a larger one).
 */
class BufGrowthTest {

    @Test
    void aColumnGrowsPastOneGibibyte() {
        assumeTrue(Runtime.getRuntime().maxMemory() >= 4L << 30, "needs a 4 GiB heap");
        Buf b = new Buf(1 << 30);
        b.size = (1 << 30) - 4;
        b.writeLong(42); // 1 GiB + 4 bytes: far below 2 GB
        assertThat(b.size).isEqualTo((1 << 30) + 4);
        assertThat(Buf.readLong(b.data, (1 << 30) - 4)).isEqualTo(42);
    }
}
