package io.tributary.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.schema.TableEngine;
import io.tributary.testing.RealServices;
import io.tributary.testing.UniqueSpans;
import io.tributary.topology.SchemaManager;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The job as users run it: on a real standalone Flink session cluster ({@code bin/tributary
 * cluster start}: JobManager and TaskManager processes), submitted with {@code bin/tributary
 * submit} (Flink's CLI front end) and through the REST API, watched through the Prometheus
 * reporter, and changed by stop-with-savepoint and redeploy.
 */
class ClusterITCase {

    private static final int REST_PORT = 18081;
    private static final int PROMETHEUS_JM = 19249;
    private static final int PROMETHEUS_TM = 19250;
    private static final Path JAR = Path.of("target", "tributary-job.jar").toAbsolutePath();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void startCluster() throws Exception {
        String out = shell("cluster_main start");
        assertThat(out).contains("session cluster up");
    }

    @AfterAll
    static void stopCluster() throws Exception {
        shell("cluster_main stop");
    }

    @Test
    void cliAndRestSubmissionsRunAndThePrometheusEndpointsShowTheMetricsByName() throws Exception {
        // 1. bin/tributary submit (Flink's CliFrontend)
        Pipeline a = Pipeline.create();
        String submitted = shell("cluster_submit " + JAR + " " + quoted(a.args("--parallelism", "2")));
        Matcher m = Pattern.compile("JobID ([0-9a-f]{32})").matcher(submitted);
        assertThat(m.find()).as(submitted).isTrue();
        String job = m.group(1);
        awaitRunning(job);
        AtomicLong acked = new AtomicLong();
        UniqueSpans.produce(a.topic, 2, 10_000, 20_000, new AtomicBoolean(), acked);
        RealServices.produce(a.topic, List.of("not OTLP".getBytes(StandardCharsets.UTF_8)));
        a.awaitRows(10_000);
        assertThat(a.counts()).isEqualTo(new long[] {10_000, 10_000});

        // 2. the metrics, found by name on the TaskManager's and JobManager's reporters
        Map<String, Double> tm = awaitMetrics(PROMETHEUS_TM, job, Map.of(
                "flink_taskmanager_job_task_operator_tributary_rowsWritten", 10_000.0,
                "flink_taskmanager_job_task_operator_tributary_signal_rowsDecoded", 10_000.0,
                "flink_taskmanager_job_task_operator_tributary_signal_recordsRead", 101.0,
                "flink_taskmanager_job_task_operator_tributary_signal_decodeFailures", 1.0));
        assertThat(tm.get("flink_taskmanager_job_task_operator_tributary_table_rowsWritten{table=\"otel_traces\"}"))
                .isEqualTo(10_000.0);
        assertThat(tm.get("flink_taskmanager_job_task_operator_tributary_batchesSent")).isGreaterThanOrEqualTo(2.0);
        assertThat(tm.get("flink_taskmanager_job_task_operator_tributary_bytesCompressed"))
                .isPositive()
                .isLessThan(tm.get("flink_taskmanager_job_task_operator_tributary_bytesUncompressed"));
        assertThat(tm.get("flink_taskmanager_job_task_operator_tributary_signal_bytesRead")).isGreaterThan(100_000.0);
        assertThat(tm).containsKeys(
                "flink_taskmanager_job_task_operator_tributary_rowsBuffered",
                "flink_taskmanager_job_task_operator_tributary_insertsInFlight",
                "flink_taskmanager_job_task_operator_tributary_insertRetries",
                "flink_taskmanager_job_task_operator_tributary_deadLetters",
                "flink_taskmanager_job_task_operator_tributary_insertLatencyMs_count",
                "flink_taskmanager_job_task_operator_tributary_batchRows_count",
                // Flink's own: backpressure and Kafka consumer lag
                "flink_taskmanager_job_task_backPressuredTimeMsPerSecond",
                "flink_taskmanager_job_task_busyTimeMsPerSecond",
                "flink_taskmanager_job_task_operator_KafkaSourceReader_KafkaConsumer_records_lag_max",
                "flink_taskmanager_job_task_operator_pendingRecords");
        assertThat(tm.get("flink_taskmanager_job_task_operator_tributary_batchRows_count")).isGreaterThanOrEqualTo(2.0);
        Map<String, Double> jm = awaitMetrics(PROMETHEUS_JM, job, Map.of());
        assertThat(jm).containsKeys(
                "flink_jobmanager_job_lastCheckpointDuration",
                "flink_jobmanager_job_numberOfCompletedCheckpoints",
                "flink_jobmanager_job_numberOfFailedCheckpoints");
        assertThat(jm.get("flink_jobmanager_job_numberOfCompletedCheckpoints")).isGreaterThanOrEqualTo(1.0);
        // every metric the Grafana dashboard in docker/ queries exists under that name
        Set<String> names = new HashSet<>(names(PROMETHEUS_TM, job));
        names.addAll(names(PROMETHEUS_JM, job));
        JsonNode dashboard = JSON.readTree(new File("../docker/grafana/dashboards/tributary.json"));
        List<String> queried = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                Matcher n = Pattern.compile("\\b(flink_[A-Za-z0-9_]+)").matcher(target.path("expr").asText());
                while (n.find()) {
                    queried.add(n.group(1));
                }
            }
        }
        assertThat(queried).hasSizeGreaterThan(15);
        assertThat(names).containsAll(queried);
        cancel(job);

        // 3. the same jar through the REST API: POST /jars/upload, then /jars/<id>/run
        Pipeline b = Pipeline.create();
        String jarId = upload(JAR);
        String restJob = run(jarId, b.args(), 2, null);
        awaitRunning(restJob);
        UniqueSpans.produce(b.topic, 2, 5_000, 20_000, new AtomicBoolean(), new AtomicLong());
        b.awaitRows(5_000);
        assertThat(b.counts()).isEqualTo(new long[] {5_000, 5_000});
        cancel(restJob);
        HTTP.send(HttpRequest.newBuilder(rest("/jars/" + jarId)).DELETE().build(), HttpResponse.BodyHandlers.ofString());
        a.drop();
        b.drop();
    }

    @Test
    void savepointRedeploysWithChangedSettingsLoseNothingAndRepeatNothing() throws Exception {
        Pipeline p = Pipeline.create();
        String jarId = upload(JAR);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong acked = new AtomicLong();
        Thread producer = new Thread(() -> UniqueSpans.produce(p.topic, 4, Long.MAX_VALUE, 2_000, stop, acked));
        producer.start();
        try {
            // {parallelism, decode.parallelism, sink.batch.max-rows}; alternately through REST and the CLI
            int[][] deployments = {{1, 1, 1_000}, {1, 2, 5_000}, {2, 2, 20_000}, {1, 1, 1_000}};
            String job = null;
            String savepoint = null;
            for (int i = 0; i < deployments.length; i++) {
                int[] d = deployments[i];
                List<String> args = p.args("--decode.parallelism", Integer.toString(d[1]),
                        "--sink.batch.max-rows", Integer.toString(d[2]));
                if (i % 2 == 0) {
                    job = run(jarId, args, d[0], savepoint);
                } else {
                    String out = shell("cluster_submit " + JAR + " --savepoint " + savepoint + " --parallelism " + d[0]
                            + " " + quoted(args));
                    Matcher m = Pattern.compile("JobID ([0-9a-f]{32})").matcher(out);
                    assertThat(m.find()).as(out).isTrue();
                    job = m.group(1);
                }
                awaitRunning(job);
                if (savepoint != null) {
                    // resumed from the savepoint's offsets, not from the group's or the start
                    JsonNode restored = get("/jobs/" + job + "/checkpoints").path("latest").path("restored");
                    assertThat(restored.path("is_savepoint").asBoolean()).isTrue();
                    assertThat(restored.path("external_path").asText()).isEqualTo(savepoint);
                }
                JsonNode vertices = get("/jobs/" + job).path("vertices");
                Map<String, Integer> parallelism = new HashMap<>();
                vertices.forEach(v -> parallelism.put(v.path("name").asText(), v.path("parallelism").asInt()));
                assertThat(parallelism.values()).as("vertices %s", parallelism).contains(d[1]);
                Thread.sleep(8_000);
                savepoint = stopWithSavepoint(job);
            }
            // the last deployment drains: bounded, from the unbounded job's savepoint, on the cluster
            stop.set(true);
            producer.join();
            String out = shell("cluster_submit " + JAR + " --savepoint " + savepoint + " --parallelism 2 "
                    + quoted(p.args("--kafka.bounded", "true")));
            Matcher m = Pattern.compile("JobID ([0-9a-f]{32})").matcher(out);
            assertThat(m.find()).as(out).isTrue();
            job = m.group(1);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            String state = "";
            while (System.nanoTime() < deadline && !(state = get("/jobs/" + job).path("state").asText()).equals("FINISHED")) {
                assertThat(state).as("bounded job %s", job).isNotIn("FAILED", "CANCELED");
                Thread.sleep(500);
            }
            assertThat(state).as("the bounded job ends by itself").isEqualTo("FINISHED");
            long[] counts = p.counts();
            assertThat(counts[0]).as("spans lost").isEqualTo(acked.get());
            assertThat(counts[1]).as("spans stored twice").isEqualTo(acked.get());
        } finally {
            stop.set(true);
            producer.join();
            HTTP.send(HttpRequest.newBuilder(rest("/jars/" + jarId)).DELETE().build(), HttpResponse.BodyHandlers.ofString());
            p.drop();
        }
    }

    /**
     * What a cancelled job leaves on the TaskManager: the job is submitted and cancelled 20 times
     * (each run writing rows, and cancelled with batches open), and the TaskManager's live threads,
     * direct memory and loaded classes (after a full GC) must not grow from the 5th run to the 20th.
     * A run that left a thread behind would keep its class loader, and with it every class of the
     * job jar, alive.
     */
    @Test
    void cancelledAndSubmittedAgainTwentyTimesTheTaskManagerKeepsNothingOfTheRuns() throws Exception {
        Pipeline p = Pipeline.create();
        String jarId = upload(JAR);
        String tm = shell("_svc_settings && _svc_pid flink-taskmanager").strip();
        try {
            long[] before = null;
            for (int run = 1; run <= 20; run++) {
                UniqueSpans.produce(p.topic, 4, 500, 100_000, new AtomicBoolean(), new AtomicLong());
                // batches open for a minute: the cancel meets them open
                String job = run(jarId, p.args("--sink.batch.max-age", "60s", "--checkpoint.interval", "1h"), 2, null);
                awaitRunning(job);
                Thread.sleep(500);
                cancel(job);
                if (run == 5) {
                    before = taskManager(tm);
                }
            }
            long[] after = taskManager(tm);
            System.out.printf("TaskManager after runs 5 and 20 (cancelled, full GC): threads %d, %d; direct memory %,d, %,d"
                    + " bytes; classes loaded %,d, %,d%n", before[0], after[0], before[1], after[1], before[2], after[2]);
            assertThat(after[0] - before[0]).as("threads").isLessThanOrEqualTo(2);
            assertThat(after[1] - before[1]).as("direct memory").isLessThan(16L << 20);
            assertThat(after[2] - before[2]).as("classes (a run's class loader kept alive keeps thousands)")
                    .isLessThan(500);
        } finally {
            HTTP.send(HttpRequest.newBuilder(rest("/jars/" + jarId)).DELETE().build(), HttpResponse.BodyHandlers.ofString());
            p.drop();
        }
    }

    /**
     * {threads, direct memory used, classes loaded now} of the TaskManager after full GCs (with a
     * pause for threads that end when their objects are collected): threads and classes from the
     * JVM's own counters (jcmd PerfCounter.print), direct memory from Flink's JVM metrics on the
     * TaskManager's Prometheus reporter.
     */
    private static long[] taskManager(String pid) throws Exception {
        for (int i = 0; i < 2; i++) {
            jcmd(pid, "GC.run");
            Thread.sleep(3_500); // a JDK HTTP client's selector thread ends a few seconds after its client is collected
        }
        Map<String, Long> perf = new HashMap<>();
        for (String line : jcmd(pid, "PerfCounter.print").split("\n")) {
            String[] kv = line.split("=", 2);
            if (kv.length == 2 && kv[1].matches("\\d+")) {
                perf.put(kv[0].strip(), Long.parseLong(kv[1]));
            }
        }
        // the Prometheus reporter reads the gauge when scraped (the REST API caches metrics for 10 s)
        long direct = -1;
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + PROMETHEUS_TM + "/metrics"))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        for (String line : r.body().split("\n")) {
            if (line.startsWith("flink_taskmanager_Status_JVM_Memory_Direct_MemoryUsed")) {
                direct = (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        assertThat(direct).as("the TaskManager's direct memory on its Prometheus reporter").isPositive();
        return new long[] {perf.get("java.threads.live"), direct,
            perf.get("java.cls.loadedClasses") - perf.get("java.cls.unloadedClasses")};
    }

    private static String jcmd(String pid, String command) throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), pid, command)
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        return out;
    }

    /** A topic, a database with the traces tables, and the job's settings for them. */
    private record Pipeline(String topic, String db) {
        static Pipeline create() throws Exception {
            Pipeline p = new Pipeline(RealServices.uniqueName("it_cluster"), RealServices.uniqueName("it_cluster"));
            RealServices.createTopic(p.topic, 4);
            SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()),
                    TributaryConfig.fromArgs(p.args().toArray(new String[0])), TableEngine.MERGE_TREE, null);
            return p;
        }

        List<String> args(String... more) {
            List<String> out = new ArrayList<>(List.of(
                    "--signals", "traces",
                    "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
                    "--kafka.topics.traces", topic,
                    "--kafka.group-id", db,
                    "--dlq.topic", "",
                    "--clickhouse.url", RealServices.clickHouseUrl(),
                    "--clickhouse.database", db,
                    "--checkpoint.interval", "1s",
                    "--sink.batch.max-age", "500ms"));
            out.addAll(Arrays.asList(more));
            return out;
        }

        /** {distinct span ids, rows}. */
        long[] counts() throws Exception {
            String[] c = RealServices.clickHouse().query("SELECT uniqExact(SpanId), count() FROM `" + db
                    + "`.otel_traces FORMAT TSV").strip().split("\t");
            return new long[] {Long.parseLong(c[0]), Long.parseLong(c[1])};
        }

        void awaitRows(long n) throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (counts()[0] < n && System.nanoTime() < deadline) {
                Thread.sleep(500);
            }
        }

        void drop() throws Exception {
            RealServices.clickHouse().execute("DROP DATABASE IF EXISTS `" + db + "`");
        }
    }

    /** Runs a function of bin/lib/cluster.sh with the test's ports and the test command's state dir. */
    private static String shell(String command) throws Exception {
        File root = new File("..").getCanonicalFile();
        ProcessBuilder pb = new ProcessBuilder("bash", "-c",
                "source bin/lib/services.sh && source bin/lib/cluster.sh && " + command);
        pb.directory(root);
        pb.environment().put("ROOT", root.getPath());
        pb.environment().putAll(RealServices.servicesSettings());
        pb.environment().put("TRIBUTARY_FLINK_REST_PORT", Integer.toString(REST_PORT));
        pb.environment().put("TRIBUTARY_FLINK_RPC_PORT", "16123");
        pb.environment().put("TRIBUTARY_FLINK_PROMETHEUS_JM_PORT", Integer.toString(PROMETHEUS_JM));
        pb.environment().put("TRIBUTARY_FLINK_PROMETHEUS_TM_PORT", Integer.toString(PROMETHEUS_TM));
        pb.redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as("%s: %s", command, out).isZero();
        return out;
    }

    /** The arguments as bash words (an empty value stays an argument). */
    private static String quoted(List<String> args) {
        StringBuilder sb = new StringBuilder();
        for (String a : args) {
            sb.append(" '").append(a.replace("'", "'\\''")).append('\'');
        }
        return sb.toString();
    }

    private static URI rest(String path) {
        return URI.create("http://127.0.0.1:" + REST_PORT + path);
    }

    private static JsonNode get(String path) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(rest(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("GET %s: %s", path, r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private static JsonNode post(String path, Object body) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(rest(path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("POST %s: %s", path, r.body()).isIn(200, 202);
        return JSON.readTree(r.body());
    }

    /** {@code POST /jars/upload} (multipart, as curl -F jarfile=@...); returns the jar id. */
    private static String upload(Path jar) throws Exception {
        String boundary = "tributary" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"jarfile\"; filename=\""
                + jar.getFileName() + "\"\r\nContent-Type: application/x-java-archive\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        body.write(Files.readAllBytes(jar));
        body.write(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(rest("/jars/upload"))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode reply = JSON.readTree(r.body());
        assertThat(reply.path("status").asText()).isEqualTo("success");
        return Path.of(reply.path("filename").asText()).getFileName().toString();
    }

    /** {@code POST /jars/<id>/run}; returns the job id. */
    private static String run(String jarId, List<String> args, int parallelism, String savepoint) throws Exception {
        Map<String, Object> body = new HashMap<>();
        body.put("programArgsList", args);
        body.put("parallelism", parallelism);
        if (savepoint != null) {
            body.put("savepointPath", savepoint);
        }
        return post("/jars/" + jarId + "/run", body).path("jobid").asText();
    }

    private static void awaitRunning(String job) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        JsonNode j = null;
        while (System.nanoTime() < deadline) {
            j = get("/jobs/" + job);
            boolean allRunning = j.path("state").asText().equals("RUNNING");
            for (JsonNode v : j.path("vertices")) {
                allRunning &= v.path("status").asText().equals("RUNNING");
            }
            if (allRunning) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("job " + job + " not running: " + j);
    }

    /** {@code POST /jobs/<id>/stop}, then polls the operation; returns the savepoint's location. */
    private static String stopWithSavepoint(String job) throws Exception {
        String trigger = post("/jobs/" + job + "/stop", Map.of("drain", false)).path("request-id").asText();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            JsonNode s = get("/jobs/" + job + "/savepoints/" + trigger);
            if (s.path("status").path("id").asText().equals("COMPLETED")) {
                JsonNode op = s.path("operation");
                assertThat(op.has("failure-cause")).as("savepoint failed: %s", op).isFalse();
                return op.path("location").asText();
            }
            Thread.sleep(500);
        }
        throw new AssertionError("stop-with-savepoint of " + job + " did not complete");
    }

    private static void cancel(String job) throws Exception {
        HTTP.send(HttpRequest.newBuilder(rest("/jobs/" + job + "?mode=cancel"))
                .method("PATCH", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline && !get("/jobs/" + job).path("state").asText().equals("CANCELED")) {
            Thread.sleep(300);
        }
    }

    /**
     * Scrapes a reporter until the sums (over subtasks) of the {@code expected} metrics of the job
     * reach their values; returns every metric of the job, each summed over its series, by name
     * (and by name with the {@code table} label, for the per-table metrics).
     */
    private static Map<String, Double> awaitMetrics(int port, String job, Map<String, Double> expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Map<String, Double> sums;
        do {
            sums = scrape(port, job);
            boolean reached = true;
            for (Map.Entry<String, Double> e : expected.entrySet()) {
                reached &= e.getValue().equals(sums.get(e.getKey()));
            }
            if (reached) {
                return sums;
            }
            Thread.sleep(1_000);
        } while (System.nanoTime() < deadline);
        Map<String, Double> last = sums;
        Map<String, Double> seen = new HashMap<>();
        expected.keySet().forEach(k -> seen.put(k, last.get(k)));
        throw new AssertionError("metrics on :" + port + " did not reach " + expected + "; last " + seen);
    }

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)\\{(.*)\\} (\\S+)$");
    private static final Pattern TABLE = Pattern.compile("(?:^|,)table=\"([^\"]*)\"");

    /** The names of the job's metrics on a reporter, histogram quantiles included. */
    private static Set<String> names(int port, String job) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        Set<String> out = new HashSet<>();
        for (String line : r.body().split("\n")) {
            Matcher m = SAMPLE.matcher(line);
            if (m.matches() && m.group(2).contains("job_id=\"" + job + "\"")) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    private static Map<String, Double> scrape(int port, String job) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        Map<String, Double> sums = new HashMap<>();
        for (String line : r.body().split("\n")) {
            Matcher m = SAMPLE.matcher(line);
            if (!m.matches() || !m.group(2).contains("job_id=\"" + job + "\"") || m.group(2).contains("quantile=")) {
                continue;
            }
            double v = Double.parseDouble(m.group(3));
            if (Double.isNaN(v)) {
                v = 0;
            }
            sums.merge(m.group(1), v, Double::sum);
            Matcher t = TABLE.matcher(m.group(2));
            if (t.find()) {
                sums.merge(m.group(1) + "{table=\"" + t.group(1) + "\"}", v, Double::sum);
            }
        }
        return sums;
    }
}
