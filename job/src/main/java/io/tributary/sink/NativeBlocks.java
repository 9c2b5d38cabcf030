package io.tributary.sink;

import io.tributary.nativeformat.NativeBlock;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The Native blocks of one sink writer's batches, for the layouts Native is written for
 * (remembered per layout). A sealed batch gives its block back, cleared, and the next batch of the
 * layout takes it with the capacity its columns grew to: a new block for each batch cost as much
 * CPU in growing and zeroing its buffers (and the collections of what they left) as filling them.
 * One spare per layout at most, and all spares together hold at most {@code maxSpareBytes} of
 * buffers (a block past that is left to the collector): the open batches share one budget, but a
 * block keeps the capacity its largest batch gave it, and without the bound every table's spare
 * could hold a whole budget's worth. Thread-safe (batches are filled by the task thread and sealed
 * by sender threads).
 */
final class NativeBlocks {

    private final List<Layout> layouts = new ArrayList<>();
    private final long maxSpareBytes;
    /** What the spares' buffers hold now. */
    private long spareBytes;

    /**
     * @param maxSpareBytes the most the spare blocks' buffers may hold together: 1.5 × {@code
     *     sink.batch.max-bytes}, what the block of a batch closed on size holds (buffers grow by half)
     */
    NativeBlocks(long maxSpareBytes) {
        this.maxSpareBytes = maxSpareBytes;
    }

    private static final class Layout {
        final byte[] header;
        final boolean supported;
        /** A cleared block of this layout, or null. */
        NativeBlock spare;
        /** What its buffers hold. */
        long spareSize;

        Layout(byte[] header, boolean supported) {
            this.header = header;
            this.supported = supported;
        }
    }

    /** An empty block for rows of {@code header}'s layout, or null when it has a column Native is not written for. */
    synchronized NativeBlock take(byte[] header) {
        Layout l = layout(header);
        if (!l.supported) {
            return null;
        }
        NativeBlock b = l.spare;
        if (b != null) {
            l.spare = null;
            spareBytes -= l.spareSize;
            return b;
        }
        return NativeBlock.forHeader(header);
    }

    /** Takes back a block of {@code header}'s layout that is no longer read, for the next batch. */
    synchronized void give(byte[] header, NativeBlock block) {
        block.clear();
        Layout l = layout(header);
        long size = block.bytes();
        if (l.spare == null && spareBytes + size <= maxSpareBytes) {
            l.spare = block;
            l.spareSize = size;
            spareBytes += size;
        }
    }

    /** What the spare blocks' buffers hold together. */
    synchronized long spareBytes() {
        return spareBytes;
    }

    private Layout layout(byte[] header) {
        for (Layout l : layouts) {
            if (l.header == header || Arrays.equals(l.header, header)) {
                return l;
            }
        }
        Layout l = new Layout(header, NativeBlock.supports(header));
        layouts.add(l);
        return l;
    }
}
