package io.tributary.clickhouse.body;

import com.github.luben.zstd.ZstdOutputStream;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHashFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * Writes a request body as its bytes arrive, compressing as it goes ({@link Compression#open}):
 * a batch holds its compressed bytes, not its rows, and closing it compresses only what came
 * since the last block. Not thread-safe; it may move from thread to thread with a happens-before
 * edge between them (an executor's hand-off).
 */
public abstract class BodyWriter {

    final Segments out;

    BodyWriter(SegmentPool pool) {
        this.out = new Segments(pool);
    }

    public abstract void write(byte[] b, int off, int len);

    /** The body; the writer is done. */
    public abstract Body finish();

    /** Gives the buffers back without making a body. */
    public void abandon() {
        out.abandon();
    }

    /** As it comes. */
    static final class Plain extends BodyWriter {
        Plain(SegmentPool pool) {
            super(pool);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            out.write(b, off, len);
        }

        @Override
        public Body finish() {
            return out.body();
        }
    }

    /**
     * The LZ4 frame format (https://github.com/lz4/lz4/blob/dev/doc/lz4_Frame_format.md), as
     * ClickHouse reads it for {@code Content-Encoding: lz4}: independent blocks of {@value
     * SegmentPool#BLOCK} bytes, each compressed when it fills (straight into the output segment)
     * and followed by the xxHash32 of its compressed bytes; no content checksum, which would hash
     * every uncompressed byte once more. A block LZ4 cannot shrink is stored as it is.
     */
    static final class Lz4Frame extends BodyWriter {
        private static final LZ4Compressor LZ4 = LZ4Factory.fastestInstance().fastCompressor();
        private static final XXHash32 XXH = XXHashFactory.fastestInstance().hash32();
        /** Version 01, independent blocks, block checksums. */
        private static final int FLG = 0b0111_0000;
        /** Block maximum size 1 MiB. */
        private static final int BD = 6 << 4;
        private static final int MAGIC = 0x184D2204;

        private final SegmentPool pool;
        private byte[] block;
        private int blockLength;

        Lz4Frame(SegmentPool pool) {
            super(pool);
            this.pool = pool;
            byte[] s = out.room(7);
            int at = out.position();
            intLE(s, at, MAGIC);
            s[at + 4] = (byte) FLG;
            s[at + 5] = (byte) BD;
            s[at + 6] = (byte) (XXH.hash(new byte[] {(byte) FLG, (byte) BD}, 0, 2, 0) >>> 8);
            out.advance(7);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            while (len > 0) {
                if (block == null) {
                    block = pool.take();
                }
                int n = Math.min(len, SegmentPool.BLOCK - blockLength);
                System.arraycopy(b, off, block, blockLength, n);
                blockLength += n;
                off += n;
                len -= n;
                if (blockLength == SegmentPool.BLOCK) {
                    flushBlock();
                }
            }
        }

        private void flushBlock() {
            int max = LZ4.maxCompressedLength(blockLength);
            byte[] s = out.room(4 + max + 4);
            int at = out.position();
            int n = LZ4.compress(block, 0, blockLength, s, at + 4, max);
            if (n >= blockLength) {
                System.arraycopy(block, 0, s, at + 4, blockLength);
                n = blockLength;
                intLE(s, at, n | 0x8000_0000);
            } else {
                intLE(s, at, n);
            }
            intLE(s, at + 4 + n, XXH.hash(s, at + 4, n, 0));
            out.advance(4 + n + 4);
            blockLength = 0;
        }

        @Override
        public Body finish() {
            if (blockLength > 0) {
                flushBlock();
            }
            byte[] s = out.room(4);
            intLE(s, out.position(), 0); // end mark
            out.advance(4);
            giveBlockBack();
            return out.body();
        }

        @Override
        public void abandon() {
            giveBlockBack();
            super.abandon();
        }

        private void giveBlockBack() {
            if (block != null) {
                pool.give(block);
                block = null;
            }
        }

        private static void intLE(byte[] b, int at, int v) {
            b[at] = (byte) v;
            b[at + 1] = (byte) (v >>> 8);
            b[at + 2] = (byte) (v >>> 16);
            b[at + 3] = (byte) (v >>> 24);
        }
    }

    /** Zstandard's streaming compressor at level 1 (ClickHouse's own default level). */
    static final class Zstd extends BodyWriter {
        private final ZstdOutputStream zstd;

        Zstd(SegmentPool pool) {
            super(pool);
            try {
                zstd = new ZstdOutputStream(new OutputStream() {
                    @Override
                    public void write(int b) {
                        out.write(b);
                    }

                    @Override
                    public void write(byte[] b, int off, int len) {
                        out.write(b, off, len);
                    }
                }, 1);
            } catch (IOException e) {
                throw new UncheckedIOException("opening a zstd stream", e);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) {
            try {
                zstd.write(b, off, len);
            } catch (IOException e) {
                throw new UncheckedIOException("compressing with zstd", e);
            }
        }

        @Override
        public Body finish() {
            try {
                zstd.close();
            } catch (IOException e) {
                throw new UncheckedIOException("compressing with zstd", e);
            }
            return out.body();
        }

        @Override
        public void abandon() {
            try {
                zstd.close();
            } catch (IOException ignored) {
                // the bytes are dropped anyway
            }
            super.abandon();
        }
    }
}
