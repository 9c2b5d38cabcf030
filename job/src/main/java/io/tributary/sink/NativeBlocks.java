package io.tributary.sink;

import io.tributary.nativeformat.NativeBlock;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The Native blocks of one sink writer's batches, by layout: taken when a batch opens, given back
 * when it is sealed, so their column buffers, once grown to a batch's size, serve the next
 * batches. Keeps at most {@code retain} idle blocks per layout and none that grew past {@code
 * maxBytes}. Also remembers which layouts Native is written for. Thread-safe (taken by the task
 * thread, given back by the senders).
 */
final class NativeBlocks {

    private final int retain;
    private final long maxBytes;
    private final List<Layout> layouts = new ArrayList<>();

    private static final class Layout {
        final byte[] header;
        final boolean supported;
        final ArrayDeque<NativeBlock> idle = new ArrayDeque<>();

        Layout(byte[] header) {
            this.header = header;
            this.supported = NativeBlock.supports(header);
        }
    }

    NativeBlocks(int retain, long maxBytes) {
        this.retain = retain;
        this.maxBytes = maxBytes;
    }

    /** An empty block for rows of {@code header}'s layout, or null when it has a column Native is not written for. */
    synchronized NativeBlock take(byte[] header) {
        Layout l = layout(header);
        if (!l.supported) {
            return null;
        }
        NativeBlock b = l.idle.poll();
        return b != null ? b : NativeBlock.forHeader(l.header);
    }

    /** Takes back a block of {@link #take}, written: it is cleared here. */
    synchronized void give(byte[] header, NativeBlock block) {
        Layout l = layout(header);
        if (l.idle.size() < retain && block.bytes() <= maxBytes) {
            block.clear();
            l.idle.push(block);
        }
    }

    private Layout layout(byte[] header) {
        for (Layout l : layouts) {
            if (l.header == header || Arrays.equals(l.header, header)) {
                return l;
            }
        }
        Layout l = new Layout(header);
        layouts.add(l);
        return l;
    }
}
