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
 * One spare per layout at most: while a batch's block is being written out, the next batch has
 * its own, and the two are what the layout holds at its peak, spare or not. Thread-safe (batches
 * are filled by the task thread and sealed by sender threads).
 */
final class NativeBlocks {

    private final List<Layout> layouts = new ArrayList<>();

    private static final class Layout {
        final byte[] header;
        final boolean supported;
        /** A cleared block of this layout, or null. */
        NativeBlock spare;

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
            return b;
        }
        return NativeBlock.forHeader(header);
    }

    /** Takes back a block of {@code header}'s layout that is no longer read, for the next batch. */
    synchronized void give(byte[] header, NativeBlock block) {
        block.clear();
        Layout l = layout(header);
        if (l.spare == null) {
            l.spare = block;
        }
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
