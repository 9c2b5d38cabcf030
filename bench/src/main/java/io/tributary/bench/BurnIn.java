package io.tributary.bench;

import io.tributary.clickhouse.ClickHouseClient;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.schema.TableEngine;
import io.tributary.tools.loadgen.LoadGenerator;
import io.tributary.topology.SchemaManager;
import io.tributary.topology.TributaryTopology;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * {@code bench burn-in}: the job unbounded in this JVM for {@code --minutes} under a constant
 * load of {@code --rate} spans per second from the load generator (a separate process, so its CPU
 * is not the job's), sampling every {@code --sample-seconds}: the spans stored per second, how
 * far ClickHouse is behind what Kafka acknowledged (the end-to-end lag, in spans), the heap in use
 * and the old generation after its last collection, and the job's CPU. The Ceph team's burn-in:
 * a long run at a fixed share of the maximum rate, to see that nothing drifts.
 */
final class BurnIn {

    private BurnIn() {}

    static void run(Args o) throws Exception {
        double minutes = o.decimal("minutes", 30);
        long rate = o.longValue("rate", 100_000);
        int sampleSeconds = o.integer("sample-seconds", 10);
        String bootstrap = o.get("kafka.bootstrap-servers", "localhost:9092");
        String url = o.get("clickhouse.url", "http://localhost:8123");
        String name = "burnin_" + System.currentTimeMillis();
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(p)) {
            // a burn-in writes tens of GB: Kafka keeps a quarter of an hour of it
            admin.createTopics(List.of(new NewTopic(name, 2, (short) 1).configs(Map.of(
                    "retention.ms", "900000", "segment.bytes", Integer.toString(256 << 20))))).all().get();
        }
        TributaryConfig config = TributaryConfig.fromArgs(new String[] {
            "--signals", "traces", "--kafka.bootstrap-servers", bootstrap, "--kafka.topics.traces", name,
            "--kafka.group-id", name, "--kafka.starting-offsets", "earliest",
            "--parallelism", Integer.toString(o.integer("parallelism", 2)),
            "--clickhouse.url", url, "--clickhouse.database", "bench", "--clickhouse.tables.traces", name,
            "--dlq.topic", "", "--flink.rest.port", "0"});
        SchemaManager.create(ClickHouseEndpoint.of(url), config, TableEngine.MERGE_TREE, null);
        ClickHouseClient ch = new ClickHouseClient(ClickHouseEndpoint.of(url), Duration.ofMinutes(2));
        Path progress = Files.createTempFile("tributary-burnin", ".progress");
        Process loadgen = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-cp", System.getProperty("java.class.path"), LoadGenerator.class.getName(),
                "--kafka.bootstrap-servers", bootstrap, "--topic", name, "--rate", Long.toString(rate), "--count", "0",
                "--seed", "1", "--progress-file", progress.toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        TributaryTopology.build(env, config);
        JobClient job = env.executeAsync("Tributary burn-in");
        System.out.printf(Locale.ROOT, "bench burn-in: %.0f min at %,d spans/s into bench.%s, a sample every %d s%n",
                minutes, rate, name, sampleSeconds);
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long start = System.nanoTime();
        long end = start + (long) (minutes * 60e9);
        long lastRows = 0;
        long lastT = start;
        long lastCpu = os.getProcessCpuTime();
        long firstCpu = lastCpu;
        long maxLag = 0;
        try {
            while (System.nanoTime() < end) {
                Thread.sleep(sampleSeconds * 1000L);
                if (job.getJobStatus().get().isGloballyTerminalState()) {
                    throw new IllegalStateException("bench burn-in: the job ended: " + job.getJobStatus().get());
                }
                long t = System.nanoTime();
                long cpu = os.getProcessCpuTime();
                long rows = Long.parseLong(ch.query("SELECT count() FROM bench.`" + name + "` FORMAT TSV").trim());
                String acked = Files.exists(progress) ? Files.readString(progress).trim() : "0";
                long produced = acked.isEmpty() ? 0 : Long.parseLong(acked);
                long lag = Math.max(0, produced - rows);
                maxLag = Math.max(maxLag, lag);
                double secs = (t - lastT) / 1e9;
                double stored = (rows - lastRows) / secs;
                double cpuPerSpan = rows > lastRows ? (cpu - lastCpu) / 1e3 / (rows - lastRows) : 0;
                long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
                long oldAfterGc = oldGenAfterGc();
                double at = (t - start) / 1e9;
                System.out.printf(Locale.ROOT, "  %6.0f s: %,9.0f spans/s stored, lag %,10d spans, heap %5d MiB"
                                + " (old gen after GC %5d MiB), job %.3f core-µs/span%n",
                        at, stored, lag, heap >> 20, oldAfterGc >> 20, cpuPerSpan);
                Results.append(o, "burnin-sample", Results.fields("name", name, "t_s", at, "rate", rate,
                        "stored_spans_per_s", stored, "lag_spans", lag, "heap_mib", heap >> 20,
                        "old_after_gc_mib", oldAfterGc >> 20, "job_core_us_per_span", cpuPerSpan, "stored", rows,
                        "produced", produced));
                lastRows = rows;
                lastT = t;
                lastCpu = cpu;
            }
        } finally {
            loadgen.destroy();
            job.cancel().get();
        }
        double total = (lastT - start) / 1e9;
        System.out.printf(Locale.ROOT, "bench burn-in: %,d spans stored in %.0f s (%,.0f/s of %,d/s offered), max lag %,d"
                        + " spans, job %.3f core-µs/span over the run%n",
                lastRows, total, lastRows / total, rate, maxLag, (lastCpu - firstCpu) / 1e3 / Math.max(1, lastRows));
        Results.append(o, "burnin", Results.fields("name", name, "minutes", minutes, "rate", rate, "stored", lastRows,
                "stored_spans_per_s", lastRows / total, "max_lag_spans", maxLag,
                "job_core_us_per_span", (lastCpu - firstCpu) / 1e3 / Math.max(1, lastRows)));
        for (String t : List.of(name + "_trace_id_ts_mv", name + "_trace_id_ts", name)) {
            ch.execute("DROP TABLE IF EXISTS bench.`" + t + "` SYNC");
        }
        ch.close();
        try (Admin admin = Admin.create(p)) {
            admin.deleteTopics(List.of(name)).all().get();
        }
        Files.deleteIfExists(progress);
    }

    /** The old generation's use after its last collection (the live data), or 0 before one. */
    private static long oldGenAfterGc() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getName().contains("Old") && pool.getCollectionUsage() != null) {
                return pool.getCollectionUsage().getUsed();
            }
        }
        return 0;
    }
}
