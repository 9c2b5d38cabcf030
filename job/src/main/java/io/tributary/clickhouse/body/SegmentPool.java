package io.tributary.clickhouse.body;

import java.util.ArrayDeque;

/**
 * Byte arrays of one size, handed out and taken back, so the buffers of batches that come and go
 * are allocated once and stay in the old generation instead of being copied by every young
 * collection while a batch fills. Keeps at most {@code retain} idle arrays; a segment never given
 * back is simply collected. Thread-safe.
 */
public final class SegmentPool {

    /** An LZ4 block of {@value #BLOCK} bytes, compressed, always fits one segment. */
    public static final int BLOCK = 1 << 20;
    /** {@link #BLOCK} plus the worst case of LZ4's expansion, its block header and checksum. */
    public static final int SEGMENT = BLOCK + (8 << 10);

    private final ArrayDeque<byte[]> idle = new ArrayDeque<>();
    private final int retain;
    private long allocated;

    /** @param retain idle segments kept for reuse */
    public SegmentPool(int retain) {
        this.retain = retain;
    }

    /** A segment of {@link #SEGMENT} bytes (contents undefined). */
    public byte[] take() {
        synchronized (idle) {
            byte[] s = idle.poll();
            if (s != null) {
                return s;
            }
            allocated++;
        }
        return new byte[SEGMENT];
    }

    /** Takes back a segment of {@link #take}; the caller no longer touches it. */
    public void give(byte[] segment) {
        if (segment.length != SEGMENT) {
            return;
        }
        synchronized (idle) {
            if (idle.size() < retain) {
                idle.push(segment);
            }
        }
    }

    /** Segments allocated so far (the pool's misses). */
    public long allocated() {
        synchronized (idle) {
            return allocated;
        }
    }
}
