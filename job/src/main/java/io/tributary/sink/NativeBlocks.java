package io.tributary.sink;

import io.tributary.nativeformat.NativeBlock;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The Native blocks of one sink writer's batches, by layout: taken when a batch opens, given back
 * when it is sealed, so their column buffers, once grown, serve the next batches. The idle blocks
 * of all layouts together hold at most {@code maxBytes} (one full batch's worth), so the pool never
 * holds more than the open batches' byte budget again. Also remembers which layouts Native is
 * written for. Thread-safe (taken by the task thread, given back by the senders).
 */
final class NativeBlocks {

    private final long maxBytes;
    private final List<Layout> layouts = new ArrayList<>();
    /** Bytes the idle blocks hold. */
    private long idleBytes;

    private static final class Layout {
        final byte[] header;
        final boolean supported;
        final ArrayDeque<NativeBlock> idle = new ArrayDeque<>();

        Layout(byte[] header) {
            this.header = header;
            this.supported = NativeBlock.supports(header);
        }
    }

    NativeBlocks(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** An empty block for rows of {@code header}'s layout, or null when it has a column Native is not written for. */
    synchronized NativeBlock take(byte[] header) {
        Layout l = layout(header);
        if (!l.supported) {
            return null;
        }
        NativeBlock b = l.idle.poll();
        if (b == null) {
            return NativeBlock.forHeader(l.header);
        }
        idleBytes -= b.bytes();
        return b;
    }

    /** Takes back a block of {@link #take}, written: it is cleared here. */
    synchronized void give(byte[] header, NativeBlock block) {
        Layout l = layout(header);
        long bytes = block.bytes();
        if (idleBytes + bytes <= maxBytes) {
            block.clear();
            l.idle.push(block);
            idleBytes += bytes;
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
