package io.tributary.bench.jmh;

import io.tributary.clickhouse.body.Body;
import io.tributary.clickhouse.body.BodyWriter;
import io.tributary.clickhouse.body.Compression;
import io.tributary.clickhouse.body.SegmentPool;
import io.tributary.nativeformat.NativeBlock;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.Signal;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.schema.SchemaFlavor;
import io.tributary.tables.OtelTable;
import io.tributary.tables.RecordRows;
import io.tributary.tables.RecordTranscoder;
import io.tributary.tables.TableLayouts;
import io.tributary.tools.loadgen.LoadShape;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * What the sink's batch costs the job per item in each {@code sink.format}, one thread, the
 * decoding included (as {@link HotPath#decodeAndBatch}): {@code rowbinary} copies each record's
 * rows into the body, LZ4 as it grows; {@code native} adds them to the batch's columns ({@link
 * NativeBlock}) and, every 500 records, writes the block through LZ4, as a sender does when it
 * seals the batch. {@code -prof gc} gives the bytes allocated per item.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class BatchFormats {

    static final int ITEMS = 100;
    private static final int RECORDS = 500;

    @Param({"traces", "logs", "metrics", "profiles"})
    public String signal;

    @Param({"rowbinary", "native"})
    public String format;

    private byte[][] records;
    private int next;
    private RecordTranscoder transcoder;
    private RecordRows rows;
    private TableLayouts layouts;
    private final SegmentPool pool = new SegmentPool(64);
    private final BodyWriter[] bodies = new BodyWriter[OtelTable.values().length];
    private final NativeBlock[] blocks = new NativeBlock[OtelTable.values().length];
    private final int[] batchRecords = new int[bodies.length];

    @Setup(Level.Trial)
    public void setUp() {
        Signal s = Signal.valueOf(signal.toUpperCase(Locale.ROOT));
        LoadShape shape = new LoadShape(42, ITEMS);
        records = new byte[RECORDS][];
        long now = 1_760_000_000_000_000_000L;
        for (int i = 0; i < RECORDS; i++) {
            records[i] = shape.next(s, now + i * 1_000_000L).toByteArray();
        }
        layouts = TableLayouts.canonical(SchemaFlavor.MAP);
        transcoder = RecordTranscoder.of(s, Encoding.AUTO, layouts);
        rows = new RecordRows(layouts);
    }

    @Benchmark
    @OperationsPerInvocation(ITEMS)
    public long decodeAndBatch() throws Exception {
        byte[] value = records[next];
        next = (next + 1) % RECORDS;
        transcoder.transcode(value, rows);
        boolean columns = format.equals("native");
        long bytes = 0;
        for (OtelTable t : OtelTable.values()) {
            int i = t.ordinal();
            if (rows.rows(t) == 0) {
                continue;
            }
            RowBinaryWriter w = rows.writer(t);
            if (columns) {
                if (blocks[i] == null) {
                    blocks[i] = NativeBlock.forHeader(layouts.of(t).header());
                }
                blocks[i].addRows(w.buffer(), 0, w.size(), rows.rows(t));
            } else {
                if (bodies[i] == null) {
                    bodies[i] = Compression.LZ4.open(pool);
                }
                bodies[i].write(w.buffer(), 0, w.size());
            }
            if (++batchRecords[i] == 500) {
                if (columns) {
                    BodyWriter body = Compression.LZ4.open(pool);
                    blocks[i].writeTo(body::write);
                    blocks[i].clear();
                    bodies[i] = body;
                }
                Body body = bodies[i].finish();
                bytes += body.length();
                body.release();
                bodies[i] = null;
                batchRecords[i] = 0;
            }
        }
        rows.clear();
        return bytes;
    }
}
