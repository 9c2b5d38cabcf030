package io.tributary.sink;

import io.tributary.nativeformat.NativeBlock;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The Native blocks of one sink writer's batches: a new one for each batch, for the layouts Native
 * is written for (remembered per layout). Blocks are not kept for reuse: a batch's columns are as
 * large as the batch, and a pool of them would hold another batch's worth of heap for the
 * allocations it saves. Thread-safe.
 */
final class NativeBlocks {

    private final List<Layout> layouts = new ArrayList<>();

    private record Layout(byte[] header, boolean supported) {}

    /** An empty block for rows of {@code header}'s layout, or null when it has a column Native is not written for. */
    synchronized NativeBlock take(byte[] header) {
        return layout(header).supported() ? NativeBlock.forHeader(header) : null;
    }

    private Layout layout(byte[] header) {
        for (Layout l : layouts) {
            if (l.header() == header || Arrays.equals(l.header(), header)) {
                return l;
            }
        }
        Layout l = new Layout(header, NativeBlock.supports(header));
        layouts.add(l);
        return l;
    }
}
