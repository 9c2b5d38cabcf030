package io.tributary.clickhouse.body;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Bytes appended to segments of a {@link SegmentPool}, made into a {@link Body} at the end. Not thread-safe. */
final class Segments {

    private final SegmentPool pool;
    private final List<byte[]> list = new ArrayList<>();
    private int[] lengths = new int[8];
    private byte[] current;
    private int pos;

    Segments(SegmentPool pool) {
        this.pool = pool;
    }

    /** The current segment, with room for {@code n} bytes at {@link #position()} (a new one if it lacks them). */
    byte[] room(int n) {
        if (current == null || SegmentPool.SEGMENT - pos < n) {
            next();
        }
        return current;
    }

    int position() {
        return pos;
    }

    /** Counts {@code n} bytes written at {@link #position()} of the current segment. */
    void advance(int n) {
        pos += n;
    }

    void write(byte[] b, int off, int len) {
        while (len > 0) {
            if (current == null || pos == SegmentPool.SEGMENT) {
                next();
            }
            int n = Math.min(len, SegmentPool.SEGMENT - pos);
            System.arraycopy(b, off, current, pos, n);
            pos += n;
            off += n;
            len -= n;
        }
    }

    void write(int b) {
        if (current == null || pos == SegmentPool.SEGMENT) {
            next();
        }
        current[pos++] = (byte) b;
    }

    private void next() {
        if (current != null) {
            lengths[list.size() - 1] = pos;
        }
        current = pool.take();
        pos = 0;
        list.add(current);
        if (lengths.length < list.size()) {
            lengths = Arrays.copyOf(lengths, lengths.length * 2);
        }
    }

    /** What was written; the segments now belong to the body. */
    Body body() {
        if (current != null) {
            lengths[list.size() - 1] = pos;
        }
        current = null;
        return new Body(list, Arrays.copyOf(lengths, list.size()), pool);
    }

    /** Gives every segment back, for a body never made. */
    void abandon() {
        for (byte[] s : list) {
            pool.give(s);
        }
        list.clear();
        current = null;
    }
}
