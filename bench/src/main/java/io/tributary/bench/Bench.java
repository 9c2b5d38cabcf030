package io.tributary.tools.bench;

import com.google.protobuf.Message;
import io.tributary.TributaryJob;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.clickhouse.Body;
import io.tributary.clickhouse.BodyWriter;
import io.tributary.clickhouse.Compression;
import io.tributary.clickhouse.SegmentPool;
import io.tributary.config.TributaryConfig;
import io.tributary.config.TributaryOptions;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.Signal;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.tables.DecodeFunction;
import io.tributary.tables.OtelTable;
import io.tributary.tables.SchemaFlavor;
import io.tributary.tables.TableEngine;
import io.tributary.tables.TableLayouts;
import io.tributary.tables.TableRows;
import io.tributary.tools.cli.Args;
import io.tributary.tools.loadgen.LoadGenerator;
import io.tributary.tools.loadgen.LoadShape;
import io.tributary.tools.loadgen.OtlpJsonWriter;
import io.tributary.topology.SchemaManager;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bin/tributary bench}: prints figures, asserts nothing.
 *
 * <ul>
 *   <li>{@code decode [--signal traces|logs|metrics] [--schema map|json] [--records N] [--seconds S]
 *       [--encoding proto|json] [--compression lz4|zstd|none]}: one thread, decode → transform →
 *       RowBinary encode → compress, over loadgen-shaped records of 100 items.
 *   <li>{@code job [--spans N] [--kafka.bootstrap-servers H] [--clickhouse.url U] [--parallelism P]
 *       [--sink.delivery at-least-once|exactly-once] [--checkpoint.interval D]}:
 *       produce N spans to a fresh topic, then run the whole job bounded (real Kafka → job →
 *       ClickHouse Null engine) and report spans/s and the process's CPU-seconds per million spans.
 * </ul>
 */
public final class Bench {

    private Bench() {}

    public static void main(String[] args) throws Exception {
        String what = args.length == 0 ? "decode" : args[0];
        String[] rest = args.length == 0 ? args : java.util.Arrays.copyOfRange(args, 1, args.length);
        switch (what) {
            case "decode":
                decode(Args.parse(rest, "records", "seconds", "encoding", "compression", "schema", "signal"));
                break;
            case "job":
                job(Args.parse(rest, "spans", "kafka.bootstrap-servers", "clickhouse.url", "parallelism", "encoding", "schema",
                        "sink.delivery", "checkpoint.interval"));
                break;
            default:
                throw new IllegalArgumentException("bench: use 'bench decode' or 'bench job'");
        }
    }

    private static void decode(Map<String, String> o) throws Exception {
        int records = Integer.parseInt(o.getOrDefault("records", "2000"));
        double seconds = Double.parseDouble(o.getOrDefault("seconds", "10"));
        boolean json = o.getOrDefault("encoding", "proto").equals("json");
        Compression compression = Compression.parse(o.getOrDefault("compression", "lz4"));
        Signal signal = Signal.valueOf(o.getOrDefault("signal", "traces").toUpperCase(Locale.ROOT));
        SchemaFlavor flavor = SchemaFlavor.parse(o.getOrDefault("schema", "map"));
        LoadShape shape = new LoadShape(42, 100);
        List<byte[]> input = new ArrayList<>();
        long now = System.currentTimeMillis() * 1_000_000L;
        for (int i = 0; i < records; i++) {
            long t = now + i * 1_000_000L;
            Message r = signal == Signal.TRACES ? shape.next(t) : signal == Signal.LOGS ? shape.nextLogs(t) : shape.nextMetrics(t);
            input.add(json ? OtlpJsonWriter.write(r) : r.toByteArray());
        }
        TableLayouts layouts = TableLayouts.canonical(flavor);
        DecodeFunction.RecordTranscoder transcoder = DecodeFunction.transcoder(signal, Encoding.AUTO, layouts);
        TableRows out = new TableRows(layouts);
        // as the sink does: each record's rows copied into its table's batch, compressed as they come
        SegmentPool pool = new SegmentPool(64);
        BodyWriter[] batches = new BodyWriter[OtelTable.values().length];
        int[] batchRecords = new int[batches.length];
        long inBytes = 0;
        for (byte[] b : input) {
            inBytes += b.length;
        }
        String unit = signal == Signal.TRACES ? "span" : signal == Signal.LOGS ? "log record" : "data point";
        System.out.printf(Locale.ROOT, "bench decode: %d records of 100 %ss, %s, %.0f bytes/record, %s tables, %s compression, 1 thread%n",
                records, unit, json ? "OTLP/JSON" : "OTLP protobuf", (double) inBytes / records,
                flavor.name().toLowerCase(Locale.ROOT), compression);
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        int round = 0;
        List<Double> micros = new ArrayList<>();
        while (true) {
            long start = System.nanoTime();
            long rows = 0;
            long rowBytes = 0;
            long compressed = 0;
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
            for (int i = 0; i < batches.length; i++) {
                if (batches[i] != null) {
                    compressed += finish(batches[i]);
                    batches[i] = null;
                    batchRecords[i] = 0;
                }
            }
            double secs = (System.nanoTime() - start) / 1e9;
            round++;
            System.out.printf(Locale.ROOT, "  round %2d: %,.0f %ss/s  (%.2f µs/%s; RowBinary %.0f B/%s, compressed %.0f B/%s)%n",
                    round, rows / secs, unit, secs * 1e6 / rows, unit, (double) rowBytes / rows, unit,
                    (double) compressed / rows, unit);
            micros.add(secs * 1e6 / rows);
            if (System.nanoTime() > deadline && round >= 3) {
                break;
            }
        }
        // the first third warms up; the rest is steady state
        List<Double> steady = new ArrayList<>(micros.subList(micros.size() / 3, micros.size()));
        steady.sort(null);
        System.out.printf(Locale.ROOT, "bench decode: steady state over %d rounds: median %.3f µs/%s (%,.0f %ss/s), best %.3f%n",
                steady.size(), steady.get(steady.size() / 2), unit, 1e6 / steady.get(steady.size() / 2), unit, steady.get(0));
    }

    private static long finish(BodyWriter w) {
        Body body = w.finish();
        long n = body.length();
        body.release();
        return n;
    }

    private static void job(Map<String, String> o) throws Exception {
        long spans = Long.parseLong(o.getOrDefault("spans", "2000000"));
        String bootstrap = o.getOrDefault("kafka.bootstrap-servers", "localhost:9092");
        String url = o.getOrDefault("clickhouse.url", "http://localhost:8123");
        String parallelism = o.getOrDefault("parallelism", "2");
        String topic = "bench_spans_" + System.currentTimeMillis();
        String db = "bench";
        TributaryConfig config = TributaryConfig.fromArgs(new String[] {
            "--signals", "traces",
            "--kafka.bootstrap-servers", bootstrap, "--kafka.topics.traces", topic, "--kafka.group-id", topic,
            "--kafka.bounded", "true", "--kafka.starting-offsets", "earliest", "--parallelism", parallelism,
            "--clickhouse.url", url, "--clickhouse.database", db, "--clickhouse.tables.traces", "otel_traces_null",
            "--clickhouse.schema", o.getOrDefault("schema", "map"),
            "--sink.delivery", o.getOrDefault("sink.delivery", "at-least-once"),
            "--checkpoint.interval", o.getOrDefault("checkpoint.interval", "10s"),
            // exactly once, each interval's batches go into the checkpoint: file storage, not the JobManager's
            "--flink.execution.checkpointing.dir",
            Files.createTempDirectory("tributary-bench-checkpoints").toUri().toString()});
        SchemaManager.create(ClickHouseEndpoint.of(url), config, TableEngine.NULL, null);
        System.out.printf(Locale.ROOT, "bench job: producing %,d spans to %s...%n", spans, topic);
        LoadGenerator.main(new String[] {"--kafka.bootstrap-servers", bootstrap, "--topic", topic, "--rate", "0",
            "--count", Long.toString(spans), "--encoding", o.getOrDefault("encoding", "proto"), "--seed", "1"});
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), config);
        double secs = (System.nanoTime() - t0) / 1e9;
        double cpu = (os.getProcessCpuTime() - cpu0) / 1e9;
        System.out.printf(Locale.ROOT,
                "bench job: %,d spans Kafka -> job (parallelism %s, %s) -> ClickHouse Null in %.1f s: %,.0f spans/s,"
                        + " %.1f CPU-s per million spans (%.2f core-µs/span; job JVM only, includes Flink start-up)%n",
                spans, parallelism, config.get(TributaryOptions.SINK_DELIVERY).id(), secs, spans / secs,
                cpu * 1e6 / spans, cpu * 1e6 / spans);
    }
}
