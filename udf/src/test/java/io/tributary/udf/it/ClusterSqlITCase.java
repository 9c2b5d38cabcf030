package io.tributary.udf.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.schema.TableEngine;
import io.tributary.testing.RealServices;
import io.tributary.tools.loadgen.LoadShape;
import io.tributary.topology.SchemaManager;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A SQL script submitted to a real standalone Flink cluster ({@code bin/tributary cluster}: its
 * JobManager and TaskManager processes, Flink's table stack on their classpath as in a
 * distribution's lib/) the way {@code bin/tributary submit --sql} does it: Flink's command line
 * front end runs the udf jar's main class, which plans the script in the client and submits the
 * job detached. The bounded span-metrics job finishes on the cluster and counts every span.
 */
class ClusterSqlITCase {

    private static final int REST_PORT = 18181;
    private static final Path JAR = Path.of("target", "tributary-udf.jar").toAbsolutePath();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void startCluster() throws Exception {
        assertThat(shell("cluster_main start")).contains("session cluster up");
    }

    @AfterAll
    static void stopCluster() throws Exception {
        shell("cluster_main stop");
    }

    @Test
    void spanMetricsScriptRunsOnTheCluster() throws Exception {
        String db = RealServices.uniqueName("it_cluster_sql");
        String topic = RealServices.uniqueName("it_cluster_sql");
        RealServices.createTopic(topic, 2);
        LoadShape shape = new LoadShape(11, 100);
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            records.add(shape.next(1_767_261_600_000_000_000L + i * 1_000_000_000L).toByteArray());
        }
        RealServices.produce(topic, records);
        String[] keys = {"--kafka.bootstrap-servers", RealServices.kafkaBootstrap(), "--kafka.topics.traces", topic,
            "--kafka.group-id", db, "--kafka.bounded", "true", "--kafka.starting-offsets", "earliest",
            "--clickhouse.url", RealServices.clickHouseUrl(), "--clickhouse.database", db};
        String[] submitted = RealServices.concat(keys, "--flink.restart-strategy.type", "none");
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()),
                TributaryConfig.fromArgs(RealServices.concat(keys, "--signals", "metrics")), TableEngine.MERGE_TREE, null);
        try {
            StringBuilder args = new StringBuilder();
            for (String k : submitted) {
                args.append(" '").append(k).append('\'');
            }
            String out = shell("cluster_submit " + JAR + " sql/flink/span_metrics.sql" + args);
            Matcher m = Pattern.compile("JobID ([0-9a-f]{32})").matcher(out);
            assertThat(m.find()).as(out).isTrue();
            String job = m.group(1);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            String state = "";
            while (System.nanoTime() < deadline) {
                state = get("/jobs/" + job).get("state").asText();
                if (state.equals("FINISHED") || state.equals("FAILED") || state.equals("CANCELED")) {
                    break;
                }
                Thread.sleep(500);
            }
            assertThat(state).as(get("/jobs/" + job + "/exceptions").toString()).isEqualTo("FINISHED");
            assertThat(get("/jobs/" + job).get("name").asText()).isEqualTo("tributary sql span_metrics.sql");
            assertThat(RealServices.clickHouse().query("SELECT sum(Value), uniqExact(ServiceName) > 1 FROM " + db
                    + ".otel_metrics_sum WHERE MetricName = 'traces.span.metrics.calls' FORMAT TSV").strip())
                    .isEqualTo("6000\t1");
            assertThat(RealServices.clickHouse().query("SELECT sum(Count) FROM " + db + ".otel_metrics_histogram FORMAT TSV").strip())
                    .isEqualTo("6000");
        } finally {
            RealServices.clickHouse().execute("DROP DATABASE IF EXISTS " + db);
        }
    }

    private static JsonNode get(String path) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + REST_PORT + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("GET %s: %s", path, r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    /** Runs a function of bin/lib/cluster.sh with this test's ports and the test command's state dir. */
    private static String shell(String command) throws Exception {
        File root = new File("..").getCanonicalFile();
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", "source bin/lib/services.sh && source bin/lib/cluster.sh && " + command);
        pb.directory(root);
        pb.environment().put("ROOT", root.getPath());
        pb.environment().putAll(RealServices.servicesSettings());
        pb.environment().put("TRIBUTARY_FLINK_REST_PORT", Integer.toString(REST_PORT));
        pb.environment().put("TRIBUTARY_FLINK_RPC_PORT", "16323");
        pb.environment().put("TRIBUTARY_FLINK_PROMETHEUS_JM_PORT", "19349");
        pb.environment().put("TRIBUTARY_FLINK_PROMETHEUS_TM_PORT", "19350");
        pb.redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as("%s: %s", command, out).isZero();
        return out;
    }
}
