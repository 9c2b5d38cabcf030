package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.nativeformat.NativeBlock;
import io.tributary.rowbinary.RowBinaryWriter;

import org.junit.jupiter.api.Test;

/**
 * A sealed batch's block goes to the next batch of its layout, cleared, with its capacity; the
 * spares of all layouts together hold no more than the bound, whatever size the blocks grew to.
 */
class NativeBlocksTest {

    private static byte[] header(String column) {
        RowBinaryWriter w = new RowBinaryWriter(64);
        w.writeVarUInt(1);
        w.writeString(column);
        w.writeString("String");
        return w.toByteArray();
    }

    /** A block of {@code rows} strings of {@code size} bytes. */
    private static NativeBlock filled(NativeBlocks blocks, byte[] header, int rows, int size) {
        NativeBlock b = blocks.take(header);
        RowBinaryWriter w = new RowBinaryWriter(rows * (size + 3));
        for (int i = 0; i < rows; i++) {
            w.writeString("x".repeat(size));
        }
        byte[] data = w.toByteArray();
        b.addRows(data, 0, data.length, rows);
        return b;
    }

    @Test
    void theNextBatchTakesTheClearedBlockAndSparesStayWithinTheirBound() {
        NativeBlocks blocks = new NativeBlocks(1 << 20);
        byte[] a = header("a");
        byte[] b = header("b");
        NativeBlock first = filled(blocks, a, 1000, 500); // ~0.5 MB of buffers
        long capacity = first.bytes();
        blocks.give(a, first);
        assertThat(blocks.spareBytes()).isEqualTo(capacity);
        NativeBlock again = blocks.take(a);
        assertThat(again).as("the same block, cleared, its buffers kept").isSameAs(first);
        assertThat(again.used()).isZero();
        assertThat(again.bytes()).isEqualTo(capacity);
        assertThat(blocks.spareBytes()).isZero();
        blocks.give(a, again);

        NativeBlock big = filled(blocks, b, 1000, 900); // with a's spare, past the 1 MiB bound
        assertThat(blocks.spareBytes() + big.bytes()).isGreaterThan(1 << 20);
        blocks.give(b, big);
        assertThat(blocks.spareBytes()).as("b's block left to the collector").isEqualTo(capacity);
        assertThat(blocks.take(b)).as("a new block for b").isNotSameAs(big);

        NativeBlock second = filled(blocks, a, 10, 10);
        assertThat(second).isSameAs(first);
        NativeBlock third = blocks.take(a);
        assertThat(third).as("one spare per layout: a new block while the spare is out").isNotSameAs(first);
        blocks.give(a, third);
        blocks.give(a, second);
        assertThat(blocks.spareBytes()).as("the second one given back is not kept").isEqualTo(third.bytes());
    }
}
