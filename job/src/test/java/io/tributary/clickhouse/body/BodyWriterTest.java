package io.tributary.clickhouse.body;

import io.tributary.clickhouse.body.Body;
import io.tributary.clickhouse.body.BodyWriter;
import io.tributary.clickhouse.body.Compression;
import io.tributary.clickhouse.body.SegmentPool;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.SplittableRandom;

class BodyWriterTest {

    /** Compressible rows (repeated words) and incompressible ones (random bytes), in pieces of random size. */
    private static byte[] input(SplittableRandom r, int size) {
        byte[] b = new byte[size];
        int i = 0;
        while (i < size) {
            int run = Math.min(size - i, 1 + r.nextInt(4096));
            if (r.nextBoolean()) {
                byte[] word = ("service-" + r.nextInt(8) + " ").getBytes();
                for (int k = 0; k < run; k++) {
                    b[i + k] = word[k % word.length];
                }
            } else {
                for (int k = 0; k < run; k++) {
                    b[i + k] = (byte) r.nextInt();
                }
            }
            i += run;
        }
        return b;
    }

    @ParameterizedTest
    @EnumSource(Compression.class)
    void whatIsWrittenInPiecesReadsBackWholeAcrossBlocksAndSegments(Compression c) {
        SplittableRandom r = new SplittableRandom(7);
        SegmentPool pool = new SegmentPool(4);
        for (int size : new int[] {0, 1, SegmentPool.BLOCK - 1, SegmentPool.BLOCK, SegmentPool.BLOCK + 1,
            5 * SegmentPool.BLOCK + 12345, 3 * SegmentPool.SEGMENT}) {
            byte[] in = input(r, size);
            BodyWriter w = c.open(pool);
            int at = 0;
            while (at < size) {
                int n = Math.min(size - at, r.nextInt(200_000) + 1);
                w.write(in, at, n);
                at += n;
            }
            Body body = w.finish();
            assertThat(c.decompress(body, size)).as("%s, %d bytes", c, size).isEqualTo(in);
            assertThat(body.toByteArray()).hasSize((int) body.length());
            body.release();
        }
        assertThat(pool.allocated()).as("segments are reused once given back").isLessThan(40);
    }

    @ParameterizedTest
    @EnumSource(Compression.class)
    void aBlockLz4CannotShrinkIsStoredAsItIs(Compression c) {
        byte[] random = new byte[SegmentPool.BLOCK + 100];
        new SplittableRandom(3).nextBytes(random);
        BodyWriter w = c.open(new SegmentPool(0));
        w.write(random, 0, random.length);
        Body body = w.finish();
        if (c != Compression.ZSTD) {
            // no bigger than the data and the frame's few bytes per block
            assertThat(body.length()).isLessThanOrEqualTo(random.length + 64);
        }
        assertThat(c.decompress(body, random.length)).isEqualTo(random);
    }

    @org.junit.jupiter.api.Test
    void theLz4FrameIsTheStandardOneWithBlockChecksumsAndNoContentChecksum() {
        BodyWriter w = Compression.LZ4.open(new SegmentPool(0));
        byte[] abc = "abcabcabcabcabcabcabc".getBytes();
        w.write(abc, 0, abc.length);
        byte[] b = w.finish().toByteArray();
        // magic 0x184D2204, FLG: version 01, independent blocks, block checksum; BD: 1 MiB blocks
        assertThat(b[0]).isEqualTo((byte) 0x04);
        assertThat(b[1]).isEqualTo((byte) 0x22);
        assertThat(b[2]).isEqualTo((byte) 0x4D);
        assertThat(b[3]).isEqualTo((byte) 0x18);
        assertThat(b[4]).isEqualTo((byte) 0x70);
        assertThat(b[5]).isEqualTo((byte) 0x60);
        // header checksum: the second byte of xxHash32 of FLG and BD (reference value of lz4's frame format)
        assertThat(b[6] & 0xFF).isEqualTo(net.jpountz.xxhash.XXHashFactory.safeInstance().hash32()
                .hash(new byte[] {0x70, 0x60}, 0, 2, 0) >>> 8 & 0xFF);
        // ends with the end mark, no content checksum
        assertThat(new byte[] {b[b.length - 4], b[b.length - 3], b[b.length - 2], b[b.length - 1]}).containsOnly(0);
    }
}
