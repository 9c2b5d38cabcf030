package io.tributary.bench;

import io.tributary.TributaryJob;
import io.tributary.bench.baseline.ClientV2Spans;
import io.tributary.bench.baseline.JdbcSpans;
import io.tributary.bench.baseline.ObjectSpans;
import io.tributary.bench.baseline.SpanRecord;
import io.tributary.clickhouse.ClickHouseClient;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.config.TributaryOptions;
import io.tributary.kafka.SourceRecord;
import io.tributary.schema.TableEngine;
import io.tributary.tools.loadgen.LoadGenerator;
import io.tributary.topology.SchemaManager;
import io.tributary.topology.TributaryTopology;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code bench job}: the whole job in this JVM (Kafka → job → ClickHouse, both real), bounded
 * over a topic of loadgen spans produced once and read again by every run, measured in its steady
 * state: from the moment a {@code --warmup} share of the spans is in the table to the moment 95 %
 * are, so that start-up (the JVM, Flink, the JIT) and the final drain stay outside. In that
 * window it takes the process's CPU time, ClickHouse's (its {@code UserTimeMicroseconds} and
 * {@code SystemTimeMicroseconds} events: queries and merges) and the bytes ClickHouse received,
 * and divides by the rows that arrived.
 *
 * <p>{@code --sink}: a comma list of {@code ours} (the job as released), {@code rowbinary} and
 * {@code native} (the job with that {@code sink.format}), {@code client-v2} and {@code jdbc} (the
 * same Kafka source feeding the baselines, {@link ObjectSpans} into {@link ClientV2Spans} or {@link
 * JdbcSpans}), or {@code all}; into the same kind of table, with the same batch size and
 * compression on. {@code --engine}: a comma list of {@code MergeTree} (the exporter's table) and
 * {@code null} (a Null table: what ClickHouse spends to read the INSERTs, nothing stored). Every
 * sink runs for every engine, and a summary puts them side by side. {@code --signal logs}, {@code
 * metrics} or {@code profiles} (the job and loadgen only) moves that signal's items instead (log
 * records, data points, samples), counted by {@code --spans} and in the "span" figures all the same.
 */
final class JobBench {

    private JobBench() {}

    /** What one run measured in its steady window. */
    record Figures(String sink, long spans, double seconds, double spansPerSecond, double jobCpuMicrosPerSpan,
            double clickHouseCpuMicrosPerSpan, double wireBytesPerSpan, long gcCount, long gcMillis, long heapMaxMiB,
            String rows) {}

    /**
     * The bench's own way to ClickHouse: the job's, from {@code --clickhouse.url} and the {@code
     * --job.clickhouse.*} keys (user, password source, TLS), so that a TLS ClickHouse works too.
     */
    static ClickHouseEndpoint endpoint(Args o, String url) {
        List<String> args = new ArrayList<>(List.of("--clickhouse.url", url));
        for (Map.Entry<String, String> e : o.asMap().entrySet()) {
            if (e.getKey().startsWith("job.clickhouse.")) {
                args.add("--" + e.getKey().substring(4));
                args.add(e.getValue());
            }
        }
        return io.tributary.topology.TributaryTopology.endpoint(TributaryConfig.fromArgs(args.toArray(new String[0])));
    }

    static void run(Args o) throws Exception {
        long spans = o.longValue("spans", 10_000_000L);
        String bootstrap = o.get("kafka.bootstrap-servers", "localhost:9092");
        String url = o.get("clickhouse.url", "http://localhost:8123");
        String encoding = o.get("encoding", "proto");
        String signal = o.get("signal", "traces");
        String topic = o.get("topic", "bench_" + (signal.equals("traces") ? "spans" : signal) + "_" + spans + "_" + encoding);
        String which = o.get("sink", "ours");
        List<String> sinks = which.equals("all") ? List.of("rowbinary", "native", "client-v2", "jdbc")
                : List.of(which.split(","));
        List<String> engines = List.of(o.get("engine", "MergeTree").split(","));
        ensureTopic(bootstrap, topic, spans, encoding, signal);
        ClickHouseClient ch = new ClickHouseClient(endpoint(o, url), Duration.ofMinutes(2));
        List<Figures> all = new ArrayList<>();
        List<String> allEngines = new ArrayList<>();
        for (String engine : engines) {
            for (String sink : sinks) {
                Figures f = runOne(o, ch, sink, engine, spans, topic, bootstrap, url);
                all.add(f);
                allEngines.add(engine);
                System.out.printf(Locale.ROOT, "bench job --sink %s --engine %s: %,d spans in the steady window (%.1f s):"
                                + " %,.0f spans/s; job %.3f core-µs/span; ClickHouse %.3f core-µs/span; %.1f wire bytes/span;"
                                + " %d GCs (%d ms); heap max %d MiB%n",
                        f.sink(), engine, f.spans(), f.seconds(), f.spansPerSecond(), f.jobCpuMicrosPerSpan(),
                        f.clickHouseCpuMicrosPerSpan(), f.wireBytesPerSpan(), f.gcCount(), f.gcMillis(), f.heapMaxMiB());
                Results.append(o, "job", Results.fields(
                        "sink", f.sink(), "signal", signal, "spans_total", spans, "encoding", encoding, "parallelism", o.integer("parallelism", 2),
                        "engine", engine, "window_spans", f.spans(), "window_seconds", f.seconds(),
                        "spans_per_s", Math.round(f.spansPerSecond()), "job_core_us_per_span", f.jobCpuMicrosPerSpan(),
                        "clickhouse_core_us_per_span", f.clickHouseCpuMicrosPerSpan(),
                        "wire_bytes_per_span", f.wireBytesPerSpan(), "gc_count", f.gcCount(), "gc_ms", f.gcMillis(),
                        "heap_max_mib", f.heapMaxMiB(), "rows", f.rows()));
            }
        }
        if (all.size() > 1) {
            summary(all, allEngines);
        }
        ch.close();
    }

    /**
     * The runs side by side: per engine, each sink against the first; and every figure in the
     * machine unit of this run, ClickHouse's CPU per span for the first sink into the first engine
     * (with {@code --sink rowbinary,native --engine null,MergeTree}: ClickHouse parsing RowBinary
     * into a Null table), so that runs on machines of different speed compare.
     */
    private static void summary(List<Figures> all, List<String> engines) {
        double unit = all.get(0).clickHouseCpuMicrosPerSpan();
        System.out.printf(Locale.ROOT, "bench job: machine unit = ClickHouse core-µs/span of --sink %s --engine %s = %.3f%n",
                all.get(0).sink(), engines.get(0), unit);
        System.out.printf(Locale.ROOT, "  %-10s %-10s %9s %9s %9s %9s %9s %9s %8s %s%n", "sink", "engine", "job µs", "CH µs",
                "sum µs", "job/unit", "CH/unit", "CH/first", "bytes", "same rows as the first");
        for (int i = 0; i < all.size(); i++) {
            Figures f = all.get(i);
            int first = engines.indexOf(engines.get(i));
            Figures base = all.get(first);
            boolean hashed = !f.rows().contains("/") || base.rows().equals(f.rows());
            System.out.printf(Locale.ROOT, "  %-10s %-10s %9.3f %9.3f %9.3f %9.3f %9.3f %9.2f %8.1f %s%n", f.sink(),
                    engines.get(i), f.jobCpuMicrosPerSpan(), f.clickHouseCpuMicrosPerSpan(),
                    f.jobCpuMicrosPerSpan() + f.clickHouseCpuMicrosPerSpan(), f.jobCpuMicrosPerSpan() / unit,
                    f.clickHouseCpuMicrosPerSpan() / unit, f.clickHouseCpuMicrosPerSpan() / base.clickHouseCpuMicrosPerSpan(),
                    f.wireBytesPerSpan(), hashed ? "yes (" + f.rows() + ")" : "NO: " + f.rows() + " vs " + base.rows());
        }
    }

    /** The tables of {@code signal}: the option that names each, and its name in the exporter's schema. */
    private static Map<String, String> tables(String signal) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        switch (signal) {
            case "traces":
                out.put("clickhouse.tables.traces", "otel_traces");
                break;
            case "logs":
                out.put("clickhouse.tables.logs", "otel_logs");
                break;
            case "metrics":
                for (String kind : List.of("gauge", "sum", "histogram", "exponential_histogram", "summary")) {
                    out.put("clickhouse.tables.metrics." + kind, "otel_metrics_" + kind);
                }
                break;
            case "profiles":
                out.put("clickhouse.tables.profiles", "otel_profiles");
                break;
            default:
                throw new IllegalArgumentException("--signal: traces, logs, metrics or profiles, not '" + signal + "'");
        }
        return out;
    }

    private static Figures runOne(Args o, ClickHouseClient ch, String sink, String engineName, long spans, String topic,
            String bootstrap, String url) throws Exception {
        String db = "bench";
        String signal = o.get("signal", "traces");
        String suffix = "_" + sink.replace('-', '_') + "_" + System.currentTimeMillis();
        List<String> tables = new ArrayList<>();
        List<String> args = new ArrayList<>(List.of(
                "--signals", signal,
                "--kafka.bootstrap-servers", bootstrap, "--kafka.topics." + signal, topic, "--kafka.group-id", "bench" + suffix,
                "--kafka.bounded", "true", "--kafka.starting-offsets", "earliest",
                "--parallelism", Integer.toString(o.integer("parallelism", 2)),
                "--clickhouse.url", url, "--clickhouse.database", db,
                "--clickhouse.schema", "map", "--dlq.topic", "", "--flink.rest.port", "0"));
        for (Map.Entry<String, String> t : tables(signal).entrySet()) {
            tables.add(t.getValue() + suffix);
            args.addAll(List.of("--" + t.getKey(), t.getValue() + suffix));
        }
        String table = tables.get(0);
        if (sink.equals("rowbinary") || sink.equals("native")) {
            args.addAll(List.of("--sink.format", sink));
        } else if (!sink.equals("ours") && !signal.equals("traces")) {
            throw new IllegalArgumentException("--sink " + sink + ": the baselines write spans only");
        }
        for (Map.Entry<String, String> e : o.asMap().entrySet()) {
            if (e.getKey().startsWith("job.")) {
                args.add("--" + e.getKey().substring(4));
                args.add(e.getValue());
            }
        }
        TributaryConfig config = TributaryConfig.fromArgs(args.toArray(new String[0]));
        TableEngine engine = engineName.equalsIgnoreCase("null") ? TableEngine.NULL : TableEngine.MERGE_TREE;
        SchemaManager.create(io.tributary.topology.TributaryTopology.endpoint(config), config, engine, null);
        List<String> counts = new ArrayList<>();
        for (String t : tables) {
            if (engine == TableEngine.NULL) {
                // a Null table counts nothing: a view counts its rows
                ch.execute("CREATE TABLE `" + db + "`.`" + t + "_rows` (n UInt64) ENGINE = SummingMergeTree ORDER BY tuple()");
                ch.execute("CREATE MATERIALIZED VIEW `" + db + "`.`" + t + "_count` TO `" + db + "`.`" + t + "_rows`"
                        + " AS SELECT count() AS n FROM `" + db + "`.`" + t + "`");
                counts.add("(SELECT sum(n) FROM `" + db + "`.`" + t + "_rows`)");
            } else {
                counts.add("(SELECT count() FROM `" + db + "`.`" + t + "`)");
            }
        }
        String countSql = "SELECT " + String.join(" + ", counts);
        int batchRows = config.get(TributaryOptions.SINK_BATCH_MAX_ROWS);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread job = new Thread(() -> {
            try {
                if (sink.equals("ours") || sink.equals("rowbinary") || sink.equals("native")) {
                    TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), config);
                } else {
                    baseline(config, sink, url, db, table, batchRows);
                }
            } catch (Throwable t) {
                failed.set(t);
            }
        }, "bench-job");
        System.out.printf(Locale.ROOT, "bench job --sink %s: %,d %s items from %s into %s.%s (%s)...%n", sink, spans, signal,
                topic, db, String.join(",", tables), engine);
        List<long[]> samples = new ArrayList<>();
        job.start();
        while (job.isAlive()) {
            samples.add(sample(ch, countSql));
            job.join(250);
        }
        if (failed.get() != null) {
            throw new IllegalStateException("bench job --sink " + sink + " failed", failed.get());
        }
        samples.add(sample(ch, countSql));
        long total = samples.get(samples.size() - 1)[2];
        if (total != spans) {
            throw new IllegalStateException("bench job --sink " + sink + ": " + total + " rows in the tables, " + spans
                    + " items sent");
        }
        String rows = Long.toString(total);
        if (engine != TableEngine.NULL) {
            List<String> hashes = new ArrayList<>();
            for (String t : tables) {
                hashes.add(ch.query("SELECT count(), sum(cityHash64(" + rowHashColumns(ch, db, t) + ")) FROM `" + db + "`.`"
                        + t + "` FORMAT TSV").trim().replace('\t', '/'));
            }
            rows = String.join(",", hashes);
        }
        // the next sink's window must not pay for these tables' merges
        for (String t : tables) {
            for (String d : List.of(t + "_trace_id_ts_mv", t + "_trace_id_ts", t + "_count", t + "_rows", t)) {
                ch.execute("DROP TABLE IF EXISTS `" + db + "`.`" + d + "` SYNC");
            }
        }
        double warmup = o.decimal("warmup", 0.3);
        long[] a = null;
        long[] b = null;
        long heapMax = 0;
        for (long[] s : samples) {
            if (a == null && s[2] >= warmup * spans) {
                a = s;
            }
            if (a != null && s[2] <= 0.95 * spans) {
                b = s;
                heapMax = Math.max(heapMax, s[6]);
            }
        }
        if (a == null || b == null || b[2] - a[2] < 0.25 * spans) {
            throw new IllegalStateException("bench job: too few samples in the steady window; use more --spans");
        }
        double n = b[2] - a[2];
        double secs = (b[0] - a[0]) / 1e9;
        return new Figures(sink, (long) n, secs, n / secs, (b[1] - a[1]) / 1e3 / n, (b[3] - a[3]) / n,
                (b[4] - a[4]) / n, b[5] - a[5], b[7] - a[7], heapMax >> 20, rows);
    }

    /**
     * The stored columns, maps with their entries sorted: rows are the same when their values are;
     * the JDBC driver writes a map's entries in hash order, the job and client-v2 in the order given.
     */
    private static String rowHashColumns(ClickHouseClient ch, String db, String table) throws Exception {
        List<String> out = new ArrayList<>();
        for (String line : ch.query("SELECT name, type FROM system.columns WHERE database = '" + db + "' AND table = '"
                + table + "' AND default_kind NOT IN ('ALIAS', 'MATERIALIZED') ORDER BY position FORMAT TSV").split("\n")) {
            String[] nt = line.split("\t");
            if (nt.length == 2) {
                out.add(nt[1].startsWith("Map(") ? "mapSort(`" + nt[0] + "`)" : "`" + nt[0] + "`");
            }
        }
        return String.join(", ", out);
    }

    /** [nanoTime, process CPU ns, rows in the table, ClickHouse CPU µs, ClickHouse bytes received, GCs, heap used, GC ms]. */
    private static long[] sample(ClickHouseClient ch, String countSql) throws Exception {
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu = os.getProcessCpuTime();
        long t = System.nanoTime();
        long rows = Long.parseLong(ch.query(countSql + " FORMAT TSV").trim());
        Map<String, Long> events = new HashMap<>();
        for (String line : ch.query("SELECT event, value FROM system.events WHERE event IN ('UserTimeMicroseconds',"
                + " 'SystemTimeMicroseconds', 'NetworkReceiveBytes') FORMAT TSV").split("\n")) {
            String[] kv = line.split("\t");
            if (kv.length == 2) {
                events.put(kv[0], Long.parseLong(kv[1]));
            }
        }
        long gcs = 0;
        long gcMillis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcs += Math.max(0, gc.getCollectionCount());
            gcMillis += Math.max(0, gc.getCollectionTime());
        }
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        return new long[] {t, cpu, rows,
            events.getOrDefault("UserTimeMicroseconds", 0L) + events.getOrDefault("SystemTimeMicroseconds", 0L),
            events.getOrDefault("NetworkReceiveBytes", 0L), gcs, heap, gcMillis};
    }

    /** The same source, the usual decoder and one of the baseline sinks. */
    private static void baseline(TributaryConfig config, String sink, String url, String db, String table, int batchRows)
            throws Exception {
        Configuration flink = new Configuration();
        flink.setString("restart-strategy.type", "none"); // a broken baseline fails the bench, never loops
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        env.setParallelism(config.get(TributaryOptions.PARALLELISM));
        env.enableCheckpointing(config.get(TributaryOptions.CHECKPOINT_INTERVAL).toMillis(), CheckpointingMode.AT_LEAST_ONCE);
        env.getConfig().enableObjectReuse();
        var spans = env.fromSource(TributaryTopology.kafkaSource(config), WatermarkStrategy.noWatermarks(), "Kafka",
                        TypeInformation.of(SourceRecord.class))
                .flatMap(new ObjectSpans())
                .returns(SpanRecord.class)
                .name("Decode (protobuf-java)");
        if (sink.equals("jdbc")) {
            spans.sinkTo(JdbcSpans.sink(url, db, table, batchRows, 5000)).name("JDBC");
        } else if (sink.equals("client-v2")) {
            spans.sinkTo(new ClientV2Spans(url, db, table, batchRows,
                    config.get(TributaryOptions.SINK_MAX_IN_FLIGHT))).name("client-v2");
        } else {
            throw new IllegalArgumentException("--sink: ours, rowbinary, native, client-v2, jdbc (a comma list) or all, not '"
                    + sink + "'");
        }
        env.execute("bench baseline " + sink);
    }

    /** Produces the items once: a topic with as many records as the items ask for is read again. */
    static void ensureTopic(String bootstrap, String topic, long spans, String encoding, String signal) throws Exception {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(p)) {
            if (admin.listTopics().names().get().contains(topic)) {
                TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
                Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
                d.partitions().forEach(pi -> latest.put(new TopicPartition(topic, pi.partition()), OffsetSpec.latest()));
                long records = 0;
                for (var r : admin.listOffsets(latest).all().get().values()) {
                    records += r.offset();
                }
                if (records * 100 == spans) {
                    System.out.printf(Locale.ROOT, "bench job: reading the %,d spans already in %s%n", spans, topic);
                    return;
                }
                admin.deleteTopics(List.of(topic)).all().get();
                Thread.sleep(2000);
            }
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
        }
        System.out.printf(Locale.ROOT, "bench job: producing %,d spans to %s...%n", spans, topic);
        LoadGenerator.main(new String[] {"--kafka.bootstrap-servers", bootstrap, "--topic", topic, "--rate", "0",
            "--count", Long.toString(spans), "--encoding", encoding, "--seed", "1", "--signal", signal});
    }
}
