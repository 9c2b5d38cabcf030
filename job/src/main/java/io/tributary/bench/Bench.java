package io.tributary.bench;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.tributary.TributaryJob;
import io.tributary.cli.Args;
import io.tributary.config.TributaryConfig;
import io.tributary.decode.Encoding;
import io.tributary.decode.OtlpDecoder;
import io.tributary.loadgen.LoadGenerator;
import io.tributary.loadgen.LoadShape;
import io.tributary.loadgen.OtlpJsonWriter;
import io.tributary.schema.SchemaManager;
import io.tributary.schema.TableEngine;
import io.tributary.schema.OtelTable;
import io.tributary.schema.SchemaFlavor;
import io.tributary.sink.TableRows;
import io.tributary.sink.ClickHouseEndpoint;
import io.tributary.sink.Compression;
import io.tributary.transcode.TracesTranscoder;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bin/tributary bench}: prints figures, asserts nothing.
 *
 * <ul>
 *   <li>{@code decode [--records N] [--seconds S] [--encoding proto|json] [--compression lz4|zstd|none]}:
 *       one thread, decode → transform → RowBinary encode → compress, over loadgen-shaped records.
 *   <li>{@code job [--spans N] [--kafka.bootstrap-servers H] [--clickhouse.url U] [--parallelism P]}:
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
                decode(Args.parse(rest, "records", "seconds", "encoding", "compression", "schema"));
                break;
            case "job":
                job(Args.parse(rest, "spans", "kafka.bootstrap-servers", "clickhouse.url", "parallelism", "encoding", "schema"));
                break;
            default:
                throw new IllegalArgumentException("bench: use 'bench decode' or 'bench job'");
        }
    }

    private static void decode(Map<String, String> o) {
        int records = Integer.parseInt(o.getOrDefault("records", "2000"));
        double seconds = Double.parseDouble(o.getOrDefault("seconds", "10"));
        boolean json = o.getOrDefault("encoding", "proto").equals("json");
        Compression compression = Compression.parse(o.getOrDefault("compression", "lz4"));
        LoadShape shape = new LoadShape(42, 100);
        List<byte[]> input = new ArrayList<>();
        long now = System.currentTimeMillis() * 1_000_000L;
        for (int i = 0; i < records; i++) {
            ExportTraceServiceRequest r = shape.next(now + i * 1_000_000L);
            input.add(json ? OtlpJsonWriter.write(r) : r.toByteArray());
        }
        OtlpDecoder<ExportTraceServiceRequest> decoder =
                new OtlpDecoder<>(Encoding.AUTO, ExportTraceServiceRequest.getDefaultInstance());
        TracesTranscoder transcoder = new TracesTranscoder(SchemaFlavor.parse(o.getOrDefault("schema", "map")));
        TableRows out = new TableRows();
        List<byte[]> batch = new ArrayList<>();
        long inBytes = 0;
        for (byte[] b : input) {
            inBytes += b.length;
        }
        System.out.printf(Locale.ROOT, "bench decode: %d records of 100 spans, %s, %.0f bytes/record, %s compression, 1 thread%n",
                records, json ? "OTLP/JSON" : "OTLP protobuf", (double) inBytes / records, compression);
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        int round = 0;
        while (true) {
            long start = System.nanoTime();
            long spans = 0;
            long rowBytes = 0;
            long compressed = 0;
            for (byte[] value : input) {
                try {
                    spans += transcoder.transcode(decoder.decode(value), out);
                } catch (java.io.IOException e) {
                    throw new IllegalStateException(e);
                }
                byte[] rows = out.writer(OtelTable.TRACES).toByteArray();
                out.clear();
                batch.add(rows);
                rowBytes += rows.length;
                if (batch.size() == 500) {
                    compressed += compression.compress(batch, rowBytes).length;
                    batch.clear();
                }
            }
            if (!batch.isEmpty()) {
                compressed += compression.compress(batch, rowBytes).length;
                batch.clear();
            }
            double secs = (System.nanoTime() - start) / 1e9;
            round++;
            System.out.printf(Locale.ROOT, "  round %2d: %,.0f spans/s  (%.2f µs/span; RowBinary %.0f B/span, compressed %.0f B/span)%n",
                    round, spans / secs, secs * 1e6 / spans, (double) rowBytes / spans, (double) compressed / spans);
            if (System.nanoTime() > deadline && round >= 3) {
                break;
            }
        }
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
            "--clickhouse.schema", o.getOrDefault("schema", "map")});
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
                "bench job: %,d spans Kafka -> job (parallelism %s) -> ClickHouse Null in %.1f s: %,.0f spans/s,"
                        + " %.1f CPU-s per million spans (%.2f core-µs/span; job JVM only, includes Flink start-up)%n",
                spans, parallelism, secs, spans / secs, cpu * 1e6 / spans, cpu * 1e6 / spans);
    }
}
