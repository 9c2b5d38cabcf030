package io.tributary.bench;

import com.google.protobuf.Message;
import io.tributary.clickhouse.body.Body;
import io.tributary.clickhouse.body.BodyWriter;
import io.tributary.clickhouse.body.Compression;
import io.tributary.clickhouse.body.SegmentPool;
import io.tributary.otlp.Signal;
import io.tributary.otlp.json.OtlpJsonWriter;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.schema.SchemaFlavor;
import io.tributary.tables.OtelTable;
import io.tributary.tables.RecordRows;
import io.tributary.tables.RecordTranscoder;
import io.tributary.tables.TableLayouts;
import io.tributary.tools.loadgen.LoadShape;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code bench decode}: the job's hot path without Flink, Kafka or ClickHouse, as its task runs it
 * per Kafka record: decode OTLP, write each table's rows in RowBinary, copy them into the table's
 * batch, which compresses them as they arrive (a batch closes every 500 records). On loadgen-shaped
 * records of 100 items; with {@code --threads N}, N threads each on their own records (the decode
 * parallelism of a job on one machine).
 */
final class DecodeBench {

    /** One thread's work: its own records, decoder, rows and batches. */
    private static final class Worker {
        final List<byte[]> input = new ArrayList<>();
        final RecordTranscoder transcoder;
        final RecordRows out;
        final Compression compression;
        final SegmentPool pool = new SegmentPool(64);
        final BodyWriter[] batches = new BodyWriter[OtelTable.values().length];
        final int[] batchRecords = new int[batches.length];
        long rows;
        long rowBytes;
        long compressed;

        Worker(Signal signal, String encoding, SchemaFlavor flavor, Compression compression, int records, long seed)
                throws Exception {
            boolean otlp = encoding.equals("proto") || encoding.equals("json");
            TableLayouts layouts = TableLayouts.canonical(flavor);
            // the job's decoders: OTLP told apart per record (auto), the others by their names (which
            // refuse a signal they do not carry before any record is written)
            this.transcoder = RecordTranscoder.of(signal, otlp ? "auto" : encoding.equals("json_lines") ? "json" : encoding,
                    io.tributary.encoding.HeaderExtraction.NONE, layouts);
            LoadShape shape = new LoadShape(seed, 100);
            long now = System.currentTimeMillis() * 1_000_000L;
            for (int i = 0; i < records; i++) {
                Message r = shape.next(signal, now + i * 1_000_000L);
                if (otlp) {
                    input.add(encoding.equals("json") ? OtlpJsonWriter.write(r) : r.toByteArray());
                } else {
                    input.addAll(EncodedRecords.of(encoding, r));
                }
            }
            this.out = new RecordRows(layouts);
            this.compression = compression;
        }

        /** Every record once. */
        void round() throws Exception {
            for (byte[] value : input) {
                transcoder.transcode(value, out);
                rows += out.total();
                for (OtelTable t : OtelTable.values()) {
                    int i = t.ordinal();
                    if (out.rows(t) > 0) {
                        RowBinaryWriter w = out.writer(t);
                        if (batches[i] == null) {
                            batches[i] = compression.open(pool);
                        }
                        batches[i].write(w.buffer(), 0, w.size());
                        rowBytes += w.size();
                        if (++batchRecords[i] == 500) {
                            compressed += finish(batches[i]);
                            batches[i] = null;
                            batchRecords[i] = 0;
                        }
                    }
                }
                out.clear();
            }
        }

        long inputBytes() {
            long n = 0;
            for (byte[] b : input) {
                n += b.length;
            }
            return n;
        }

        private static long finish(BodyWriter w) {
            Body body = w.finish();
            long n = body.length();
            body.release();
            return n;
        }
    }

    static void run(Args o) throws Exception {
        int records = o.integer("records", 2000);
        double seconds = o.decimal("seconds", 10);
        int threads = o.integer("threads", 1);
        String encoding = o.get("encoding", "proto");
        Compression compression = Compression.parse(o.get("compression", "lz4"));
        Signal signal = Signal.valueOf(o.get("signal", "traces").toUpperCase(Locale.ROOT));
        SchemaFlavor flavor = SchemaFlavor.parse(o.get("schema", "map"));
        String unit = signal == Signal.TRACES ? "span" : signal == Signal.LOGS ? "log record"
                : signal == Signal.METRICS ? "data point" : "sample";
        Worker[] workers = new Worker[threads];
        for (int i = 0; i < threads; i++) {
            workers[i] = new Worker(signal, encoding, flavor, compression, records, 42 + i);
        }
        int inputs = workers[0].input.size();
        System.out.printf(Locale.ROOT, "bench decode: %d records of %d %ss, %s, %.0f bytes/record, %s tables, %s compression, %d thread(s)%n",
                inputs, records * 100 / inputs, unit, encoding.equals("json") ? "OTLP/JSON" : encoding.equals("proto") ? "OTLP protobuf"
                        : encoding, (double) workers[0].inputBytes() / inputs,
                flavor.name().toLowerCase(Locale.ROOT), compression, threads);
        // each round: every thread decodes all its records; the round's time is the slowest thread's
        CyclicBarrier start = new CyclicBarrier(threads + 1);
        CyclicBarrier end = new CyclicBarrier(threads + 1);
        Thread[] ts = new Thread[threads];
        AtomicBoolean stop = new AtomicBoolean();
        for (int i = 0; i < threads; i++) {
            Worker w = workers[i];
            ts[i] = new Thread(() -> {
                try {
                    while (true) {
                        start.await();
                        if (stop.get()) {
                            return;
                        }
                        w.round();
                        end.await();
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            }, "decode-" + i);
            ts[i].setDaemon(true);
            ts[i].start();
        }
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        List<Double> rates = new ArrayList<>();
        int round = 0;
        double perItemBytes = 0;
        double perItemCompressed = 0;
        while (true) {
            long rows0 = 0;
            long bytes0 = 0;
            long comp0 = 0;
            for (Worker w : workers) {
                rows0 += w.rows;
                bytes0 += w.rowBytes;
                comp0 += w.compressed;
            }
            long t0 = System.nanoTime();
            start.await();
            end.await();
            double secs = (System.nanoTime() - t0) / 1e9;
            long rows = -rows0;
            long bytes = -bytes0;
            long comp = -comp0;
            for (Worker w : workers) {
                rows += w.rows;
                bytes += w.rowBytes;
                comp += w.compressed;
            }
            round++;
            perItemBytes = (double) bytes / rows;
            perItemCompressed = (double) comp / rows;
            rates.add(rows / secs);
            System.out.printf(Locale.ROOT, "  round %2d: %,.0f %ss/s  (%.3f µs/%s per thread; RowBinary %.0f B/%s, compressed %.0f B/%s)%n",
                    round, rows / secs, unit, secs * 1e6 * threads / rows, unit, perItemBytes, unit, perItemCompressed, unit);
            if (System.nanoTime() > deadline && round >= 3) {
                break;
            }
        }
        stop.set(true);
        start.await();
        // the first third warms up; the rest is steady state
        List<Double> steady = new ArrayList<>(rates.subList(rates.size() / 3, rates.size()));
        steady.sort(null);
        double median = steady.get(steady.size() / 2);
        System.out.printf(Locale.ROOT, "bench decode: steady state over %d rounds, %d thread(s): median %,.0f %ss/s (%.3f µs/%s per thread),"
                        + " best %,.0f%n",
                steady.size(), threads, median, unit, 1e6 * threads / median, unit, steady.get(steady.size() - 1));
        Results.append(o, "decode", Results.fields(
                "signal", signal.id(), "schema", flavor.name().toLowerCase(Locale.ROOT), "encoding", encoding,
                "compression", compression.name().toLowerCase(Locale.ROOT), "threads", threads,
                "items_per_s", Math.round(median), "us_per_item_per_thread", 1e6 * threads / median,
                "rowbinary_bytes_per_item", perItemBytes, "compressed_bytes_per_item", perItemCompressed));
    }

    private DecodeBench() {}
}
