package io.tributary.bench;

import java.util.Arrays;
import java.util.Set;

/**
 * {@code bin/tributary bench}: benchmarks that print figures (and, with {@code --results F},
 * append them to F as JSON lines); they assert nothing. Every command takes {@code --results F}
 * and {@code --label L}.
 *
 * <ul>
 *   <li>{@code decode [--signal traces|logs|metrics|profiles] [--schema map|json|coroot] [--encoding proto|json|zipkin_json|zipkin_proto|zipkin_thrift|jaeger_proto|jaeger_json|raw|text|json_lines]
 *       [--compression lz4|zstd|none] [--records N] [--seconds S] [--threads N]}: the hot path
 *       without Flink ({@link DecodeBench}).
 *   <li>{@code job [--sink ours|client-v2|jdbc|all] [--signal traces|logs|metrics|profiles] [--spans N]
 *       [--parallelism P] [--engine MergeTree|Null] [--encoding proto|json] [--warmup F] [--job.KEY V
 *       ...]}: the whole job, steady state ({@link JobBench}).
 *   <li>{@code burn-in [--minutes M] [--rate N] [--sample-seconds S]}: the job unbounded under a
 *       constant load ({@link BurnIn}).
 *   <li>{@code framing [--records N] [--rounds R]}: LZ4 frame over HTTP Content-Encoding against
 *       ClickHouse's compressed blocks ({@code decompress=1}), client and server CPU ({@link
 *       FramingBench}).
 *   <li>{@code charts [--data DIR] [--out DIR]}: docs/benchmarks' PNG charts from the runs' JSON
 *       lines ({@link Charts}).
 *   <li>{@code jmh [JMH options]}: the JMH benchmarks ({@code io.tributary.bench.jmh}), e.g.
 *       {@code jmh HotPath -prof gc}.
 * </ul>
 */
public final class Bench {

    private static final Set<String> COMMON = Set.of("results", "label");

    private Bench() {}

    public static void main(String[] args) throws Exception {
        String what = args.length == 0 ? "decode" : args[0];
        String[] rest = args.length == 0 ? args : Arrays.copyOfRange(args, 1, args.length);
        switch (what) {
            case "decode":
                DecodeBench.run(parse(what, rest, "records", "seconds", "threads", "encoding", "compression", "schema", "signal"));
                break;
            case "job":
                JobBench.run(parseJob(rest));
                break;
            case "burn-in":
                BurnIn.run(parse(what, rest, "minutes", "rate", "sample-seconds", "parallelism", "kafka.bootstrap-servers",
                        "clickhouse.url"));
                break;
            case "span-metrics":
                SpanMetricsBench.run(parse(what, rest, "spans", "small-fraction", "kafka.bootstrap-servers", "clickhouse.url"));
                break;
            case "framing":
                FramingBench.run(parse(what, rest, "records", "rounds", "format", "clickhouse.url"));
                break;
            case "charts":
                Charts.run(parse(what, rest, "data", "out"));
                break;
            case "jmh":
                org.openjdk.jmh.Main.main(rest);
                break;
            default:
                throw new IllegalArgumentException("bench: decode, job, span-metrics, framing, burn-in, charts or jmh, not '" + what + "'");
        }
    }

    private static Args parse(String command, String[] args, String... keys) {
        Set<String> known = new java.util.HashSet<>(COMMON);
        known.addAll(Arrays.asList(keys));
        return Args.parse(command, args, known);
    }

    /** {@code job} also passes {@code --job.KEY V} on to the job's settings. */
    private static Args parseJob(String[] args) {
        Set<String> known = new java.util.HashSet<>(COMMON);
        known.addAll(Set.of("sink", "signal", "spans", "parallelism", "engine", "encoding", "warmup", "topic",
                "kafka.bootstrap-servers", "clickhouse.url"));
        for (int i = 0; i < args.length; i += 2) {
            if (args[i].startsWith("--job.")) {
                known.add(args[i].substring(2));
            }
        }
        return Args.parse("job", args, known);
    }
}
