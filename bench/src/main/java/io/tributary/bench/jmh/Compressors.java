package io.tributary.bench.jmh;

import com.github.luben.zstd.Zstd;
import io.tributary.clickhouse.body.Body;
import io.tributary.clickhouse.body.BodyWriter;
import io.tributary.clickhouse.body.Compression;
import io.tributary.clickhouse.body.SegmentPool;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.Signal;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.schema.SchemaFlavor;
import io.tributary.tables.OtelTable;
import io.tributary.tables.RecordRows;
import io.tributary.tables.RecordTranscoder;
import io.tributary.tables.TableLayouts;
import io.tributary.tools.loadgen.LoadShape;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.io.ByteArrayOutputStream;
import java.util.concurrent.TimeUnit;

/**
 * The machine's limits the sink works against, on 16 MiB of real span rows in RowBinary: one
 * operation is one batch, so the score times 16 MiB is the bytes per second. memcpy (how fast a
 * copy of the rows can be), LZ4 blocks with lz4-java's JNI (native liblz4) and pure-Java
 * instances, our LZ4 frame writer (JNI blocks, block checksums, pooled segments), and zstd level 1.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class Compressors {

    static final int BYTES = 16 << 20;

    private byte[] rows;
    private byte[] copy;
    private byte[] out;
    private final SegmentPool pool = new SegmentPool(32);
    private final LZ4Compressor jni = LZ4Factory.nativeInstance().fastCompressor();
    private final LZ4Compressor pureJava = LZ4Factory.safeInstance().fastCompressor();

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        LoadShape shape = new LoadShape(42, 100);
        TableLayouts layouts = TableLayouts.canonical(SchemaFlavor.MAP);
        RecordTranscoder t = RecordTranscoder.of(Signal.TRACES, Encoding.AUTO, layouts);
        RecordRows r = new RecordRows(layouts);
        ByteArrayOutputStream all = new ByteArrayOutputStream(BYTES);
        long now = 1_760_000_000_000_000_000L;
        for (int i = 0; all.size() < BYTES; i++) {
            t.transcode(shape.next(now + i * 1_000_000L).toByteArray(), r);
            RowBinaryWriter w = r.writer(OtelTable.TRACES);
            all.write(w.buffer(), 0, w.size());
            r.clear();
        }
        rows = java.util.Arrays.copyOf(all.toByteArray(), BYTES);
        copy = new byte[BYTES];
        out = new byte[jni.maxCompressedLength(1 << 20) + 16];
    }

    @Benchmark
    public byte[] memcpy() {
        System.arraycopy(rows, 0, copy, 0, BYTES);
        return copy;
    }

    @Benchmark
    public int lz4BlocksJni() {
        return blocks(jni);
    }

    @Benchmark
    public int lz4BlocksJava() {
        return blocks(pureJava);
    }

    private int blocks(LZ4Compressor c) {
        int n = 0;
        for (int at = 0; at < BYTES; at += 1 << 20) {
            n += c.compress(rows, at, 1 << 20, out, 0, out.length);
        }
        return n;
    }

    @Benchmark
    public long lz4FrameOurs() {
        return write(Compression.LZ4);
    }

    @Benchmark
    public long zstd1Ours() {
        return write(Compression.ZSTD);
    }

    private long write(Compression c) {
        BodyWriter w = c.open(pool);
        // in pieces of one record's rows, as the sink gets them
        for (int at = 0; at < BYTES; at += 40_000) {
            w.write(rows, at, Math.min(40_000, BYTES - at));
        }
        Body b = w.finish();
        long n = b.length();
        b.release();
        return n;
    }

    /** How small: the compressed size of the batch, for the report. */
    public static void main(String[] args) throws Exception {
        Compressors c = new Compressors();
        c.setUp();
        System.out.printf("16 MiB of span rows: LZ4 frame %d bytes, zstd-1 %d bytes%n", c.write(Compression.LZ4),
                Zstd.compress(c.rows, 1).length);
    }
}
