package io.tributary.tables.profiles;

/**
 * XXH64 with seed 0, streamed (the exporter's {@code StackHash}: Go's {@code cespare/xxhash/v2}
 * {@code Digest} fed each frame's function name, a zero byte, its file name and a zero byte).
 * Streaming gives the one-shot hash of the concatenation. Reused: {@link #reset} starts again.
 * https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md
 */
final class Xxh64 {

    private static final long P1 = 0x9E3779B185EBCA87L;
    private static final long P2 = 0xC2B2AE3D27D4EB4FL;
    private static final long P3 = 0x165667B19E3779F9L;
    private static final long P4 = 0x85EBCA77C2B2AE63L;
    private static final long P5 = 0x27D4EB2F165667C5L;

    private long v1;
    private long v2;
    private long v3;
    private long v4;
    private long total;
    private final byte[] mem = new byte[32];
    private int memSize;

    Xxh64() {
        reset();
    }

    void reset() {
        v1 = P1 + P2;
        v2 = P2;
        v3 = 0;
        v4 = -P1;
        total = 0;
        memSize = 0;
    }

    void update(byte b) {
        total++;
        mem[memSize++] = b;
        if (memSize == 32) {
            stripe(mem, 0);
            memSize = 0;
        }
    }

    void update(byte[] b, int off, int len) {
        total += len;
        int p = off;
        int end = off + len;
        if (memSize > 0) {
            int take = Math.min(32 - memSize, len);
            System.arraycopy(b, p, mem, memSize, take);
            memSize += take;
            p += take;
            if (memSize < 32) {
                return;
            }
            stripe(mem, 0);
            memSize = 0;
        }
        while (end - p >= 32) {
            stripe(b, p);
            p += 32;
        }
        if (p < end) {
            System.arraycopy(b, p, mem, 0, end - p);
            memSize = end - p;
        }
    }

    private void stripe(byte[] b, int p) {
        v1 = round(v1, le64(b, p));
        v2 = round(v2, le64(b, p + 8));
        v3 = round(v3, le64(b, p + 16));
        v4 = round(v4, le64(b, p + 24));
    }

    long digest() {
        long h;
        if (total >= 32) {
            h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
            h = merge(h, v1);
            h = merge(h, v2);
            h = merge(h, v3);
            h = merge(h, v4);
        } else {
            h = P5;
        }
        h += total;
        int p = 0;
        while (memSize - p >= 8) {
            h ^= round(0, le64(mem, p));
            h = Long.rotateLeft(h, 27) * P1 + P4;
            p += 8;
        }
        if (memSize - p >= 4) {
            h ^= (le32(mem, p) & 0xFFFFFFFFL) * P1;
            h = Long.rotateLeft(h, 23) * P2 + P3;
            p += 4;
        }
        while (p < memSize) {
            h ^= (mem[p] & 0xFFL) * P5;
            h = Long.rotateLeft(h, 11) * P1;
            p++;
        }
        h ^= h >>> 33;
        h *= P2;
        h ^= h >>> 29;
        h *= P3;
        h ^= h >>> 32;
        return h;
    }

    private static long round(long acc, long input) {
        acc += input * P2;
        acc = Long.rotateLeft(acc, 31);
        return acc * P1;
    }

    private static long merge(long acc, long v) {
        acc ^= round(0, v);
        return acc * P1 + P4;
    }

    private static long le64(byte[] b, int p) {
        return (b[p] & 0xFFL) | (b[p + 1] & 0xFFL) << 8 | (b[p + 2] & 0xFFL) << 16 | (b[p + 3] & 0xFFL) << 24
                | (b[p + 4] & 0xFFL) << 32 | (b[p + 5] & 0xFFL) << 40 | (b[p + 6] & 0xFFL) << 48 | (b[p + 7] & 0xFFL) << 56;
    }

    private static int le32(byte[] b, int p) {
        return (b[p] & 0xFF) | (b[p + 1] & 0xFF) << 8 | (b[p + 2] & 0xFF) << 16 | (b[p + 3] & 0xFF) << 24;
    }
}
