package io.tributary.bench;

import io.tributary.clickhouse.ClickHouseClient;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.schema.TableEngine;
import io.tributary.sql.SqlRunner;
import io.tributary.topology.SchemaManager;

import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code bench span-metrics}: {@code sql/flink/span_metrics.sql} (bounded, through the SQL runner,
 * in this JVM) over a large and a small topic of the same spans; the difference of the two runs
 * is the steady state, with planning, start-up and the final windows cancelled out: spans per
 * second and core-µs per span (this process's CPU). The same for the script's source half alone
 * (format 'otlp' into a blackhole), which says what the windows and the JDBC writes add, and for
 * raw records through {@code OTLP_SPANS} into a blackhole.
 */
final class SpanMetricsBench {

    private SpanMetricsBench() {}

    /** One bounded run: spans read, wall seconds, CPU seconds of this process. */
    private record Run(long spans, double seconds, double cpuSeconds) {}

    static void run(Args o) throws Exception {
        long spans = o.longValue("spans", 4_000_000L);
        long small = (long) (spans * o.decimal("small-fraction", 0.1)) / 100 * 100;
        String bootstrap = o.get("kafka.bootstrap-servers", "localhost:9092");
        String url = o.get("clickhouse.url", "http://localhost:8123");
        String large = "bench_spans_" + spans + "_proto";
        String little = "bench_spans_" + small + "_proto";
        JobBench.ensureTopic(bootstrap, large, spans, "proto", "traces");
        JobBench.ensureTopic(bootstrap, little, small, "proto", "traces");
        String db = "bench_span_metrics";
        String[] base = {"--kafka.bootstrap-servers", bootstrap, "--kafka.bounded", "true", "--kafka.starting-offsets",
            "earliest", "--clickhouse.url", url, "--clickhouse.database", db, "--flink.rest.port", "0"};
        SchemaManager.create(ClickHouseEndpoint.of(url),
                TributaryConfig.fromArgs(concat(base, "--signals", "metrics")), TableEngine.MERGE_TREE, null);
        Path home = Path.of(System.getProperty("tributary.home", "."));
        Path spanMetrics = home.resolve("sql/flink/span_metrics.sql");
        Path decodeOnly = resource("span_decode_only.sql");
        Path functionOnly = resource("span_function_only.sql");
        try (ClickHouseClient ch = new ClickHouseClient(ClickHouseEndpoint.of(url), Duration.ofMinutes(2))) {
            for (Path script : List.of(functionOnly, decodeOnly, spanMetrics)) {
                String name = script.equals(spanMetrics) ? "span_metrics.sql"
                        : script.equals(decodeOnly) ? "source half (otlp format -> blackhole)"
                        : "OTLP_SPANS (raw bytes, LATERAL TABLE -> blackhole)";
                // warm the JVM once on the small topic, then measure small and large
                once(script, base, little, small);
                Run s = once(script, base, little, small);
                Run l = once(script, base, large, spans);
                double n = l.spans - s.spans;
                double secs = l.seconds - s.seconds;
                double cpu = l.cpuSeconds - s.cpuSeconds;
                System.out.printf(Locale.ROOT, "bench span-metrics, %s: %,d vs %,d spans in %.1f s vs %.1f s (%.1f vs %.1f CPU-s);"
                                + " steady state %,.0f spans/s, %.3f core-µs/span%n",
                        name, l.spans, s.spans, l.seconds, s.seconds, l.cpuSeconds, s.cpuSeconds, n / secs, cpu * 1e6 / n);
                Results.append(o, "span-metrics", Results.fields("script", name, "spans_large", l.spans, "spans_small", s.spans,
                        "seconds_large", l.seconds, "seconds_small", s.seconds, "cpu_s_large", l.cpuSeconds,
                        "cpu_s_small", s.cpuSeconds, "spans_per_s", Math.round(n / secs), "core_us_per_span", cpu * 1e6 / n));
            }
            long calls = Long.parseLong(ch.query("SELECT sum(Value) FROM " + db + ".otel_metrics_sum FORMAT TSV").strip());
            System.out.printf(Locale.ROOT, "bench span-metrics: %,d calls counted over the runs into %s.otel_metrics_sum%n", calls, db);
            ch.execute("DROP DATABASE IF EXISTS " + db);
        } finally {
            Files.deleteIfExists(decodeOnly);
            Files.deleteIfExists(functionOnly);
        }
    }

    /** A script of the benchmark's resources as a file. */
    private static Path resource(String name) throws Exception {
        Path file = Files.createTempFile(name.replace(".sql", ""), ".sql");
        try (InputStream in = SpanMetricsBench.class.getResourceAsStream("/" + name)) {
            Files.write(file, in.readAllBytes());
        }
        return file;
    }

    private static Run once(Path script, String[] base, String topic, long spans) throws Exception {
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        List<String> args = new ArrayList<>(List.of(script.toString()));
        args.addAll(List.of(base));
        args.addAll(List.of("--kafka.topics.traces", topic, "--kafka.group-id", "bench-sm-" + System.nanoTime()));
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        SqlRunner.run(args.toArray(new String[0]));
        return new Run(spans, (System.nanoTime() - t0) / 1e9, (os.getProcessCpuTime() - cpu0) / 1e9);
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
