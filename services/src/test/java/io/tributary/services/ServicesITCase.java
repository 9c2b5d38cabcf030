package io.tributary.services;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real ClickHouse and Kafka started and stopped by the program from a scratch state dir on free
 * ports (never the shared test services'), as {@code bin/tributary services start|status|stop} runs it.
 */
class ServicesITCase {

    @TempDir
    Path state;

    private Services services;
    private Settings settings;

    private static List<Integer> freePorts(int n) throws Exception {
        List<ServerSocket> sockets = new ArrayList<>();
        List<Integer> ports = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
                sockets.add(s);
                ports.add(s.getLocalPort());
            }
        } finally {
            for (ServerSocket s : sockets) {
                s.close();
            }
        }
        return ports;
    }

    private void newServices() throws Exception {
        List<Integer> p = freePorts(6);
        Map<String, String> env = new HashMap<>(System.getenv());
        // its own ports and state, the same download cache as everything else
        env.keySet().removeIf(k -> k.startsWith("TRIBUTARY_") && !k.equals("TRIBUTARY_CACHE_DIR"));
        env.put("TRIBUTARY_CLICKHOUSE_PORT", p.get(0).toString());
        env.put("TRIBUTARY_CLICKHOUSE_TCP_PORT", p.get(1).toString());
        env.put("TRIBUTARY_KAFKA_PORT", p.get(2).toString());
        env.put("TRIBUTARY_KAFKA_CONTROLLER_PORT", p.get(3).toString());
        env.put("TRIBUTARY_KAFKA_SASL_SSL_PORT", p.get(4).toString());
        env.put("TRIBUTARY_KAFKA_SSL_PORT", p.get(5).toString());
        env.put("TRIBUTARY_KAFKA_HEAP", "256m");
        env.put("TRIBUTARY_CLICKHOUSE_MAX_MEMORY", "1073741824");
        env.put("TRIBUTARY_STATE_DIR", state.toString());
        services = new Services(env, Path.of("..").toRealPath());
        settings = services.settings();
    }

    @AfterEach
    void stop() {
        if (services != null) {
            services.run(List.of("stop"));
        }
    }

    private static HttpResponse<String> post(String url, String user, String sql) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url + "/"))
                .header("X-ClickHouse-User", user).POST(HttpRequest.BodyPublishers.ofString(sql)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void clickHouseStartsWithItsTestUsersAndStops() throws Exception {
        newServices();
        assertThat(services.run(List.of("start", "clickhouse"))).isZero();
        long pid = new ClickHouse(settings).pid(true).orElseThrow();
        assertThat(services.run(List.of("status", "clickhouse"))).isZero();
        assertThat(services.run(List.of("pid", "clickhouse"))).isZero();
        assertThat(services.run(List.of("status"))).as("kafka is not started").isEqualTo(3);

        String url = settings.clickHouseUrl();
        assertThat(post(url, "default", "SELECT version()").body().strip()).startsWith("26.7.");
        assertThat(post(url, "default", "CREATE TABLE t (x UInt8) ENGINE = MergeTree ORDER BY x").statusCode()).isEqualTo(200);
        HttpResponse<String> readonly = post(url, "tributary_readonly", "INSERT INTO t VALUES (1)");
        assertThat(readonly.statusCode()).isNotEqualTo(200);
        assertThat(readonly.body()).contains("READONLY");
        assertThat(post(url, "tributary_password", "SELECT 1").statusCode()).as("needs its password").isNotEqualTo(200);
        assertThat(post(url, "tributary_small_memory", "SELECT getSetting('max_memory_usage')").body().strip()).isEqualTo("40000000");
        // the native port serves the one-shard cluster Distributed tables use
        assertThat(post(url, "default", "SELECT count() FROM remote('127.0.0.1:" + settings.clickHouseTcpPort()
                + "', system.one)").body().strip()).isEqualTo("1");

        // a second start reuses the running server
        assertThat(services.run(List.of("start", "clickhouse"))).isZero();
        assertThat(new ClickHouse(settings).pid(true)).contains(pid);

        assertThat(services.run(List.of("stop", "clickhouse"))).isZero();
        assertThat(Supervisor.alive(pid)).isFalse();
        assertThat(settings.pidFile("clickhouse")).doesNotExist();
        assertThat(Supervisor.portOpen(settings.clickHousePort())).isFalse();
        assertThat(services.run(List.of("status", "clickhouse"))).isEqualTo(3);
        assertThat(settings.dir("clickhouse").resolve("data")).isDirectory();

        assertThat(services.run(List.of("reset", "clickhouse"))).isZero();
        assertThat(settings.dir("clickhouse")).doesNotExist();
    }

    @Test
    void aStartThatFailsStopsWhatItHadStarted() throws Exception {
        newServices();
        // ClickHouse starts, then Kafka cannot: its port is taken. The caller never learns what this
        // start started (it failed), so the start itself must stop the ClickHouse it left running.
        try (ServerSocket taken = new ServerSocket(settings.kafkaPort(), 1, java.net.InetAddress.getLoopbackAddress())) {
            assertThatThrownBy(() -> services.run(List.of("start")))
                    .isInstanceOf(ServiceException.class).hasMessageContaining("TRIBUTARY_KAFKA_PORT");
        }
        assertThat(new ClickHouse(settings).pid(true)).as("the ClickHouse the failed start had started").isEmpty();
        assertThat(Supervisor.portOpen(settings.clickHousePort())).isFalse();
    }

    @Test
    void kafkaStartsWithItsSecureListenersAndStops() throws Exception {
        newServices();
        assertThat(services.run(List.of("start", "kafka"))).isZero();
        long pid = new Kafka(settings).pid(true).orElseThrow();
        assertThat(Kafka.apiVersionsOk(settings.kafkaPort())).isTrue();
        assertThat(Supervisor.portOpen(settings.kafkaSaslSslPort())).isTrue();
        assertThat(Supervisor.portOpen(settings.kafkaSslPort())).isTrue();
        Path tls = settings.dir("kafka").resolve("tls");
        assertThat(new Kafka(settings).secureEnvironment()).containsEntry("TRIBUTARY_TEST_KAFKA_CA_FILE", tls.resolve("ca.pem").toString())
                .containsEntry("TRIBUTARY_TEST_KAFKA_SSL_BOOTSTRAP", "localhost:" + settings.kafkaSslPort());
        // the broker took the topic and answers metadata on its PLAINTEXT listener
        Supervisor.Result created = new Kafka(settings).tool(List.of("org.apache.kafka.tools.TopicCommand",
                "--bootstrap-server", settings.kafkaBootstrap(), "--create", "--topic", "services-it", "--partitions", "2"));
        assertThat(created.ok()).as(created.output()).isTrue();
        Supervisor.Result described = new Kafka(settings).tool(List.of("org.apache.kafka.tools.TopicCommand",
                "--bootstrap-server", settings.kafkaBootstrap(), "--describe", "--topic", "services-it"));
        assertThat(described.output()).contains("PartitionCount: 2");
        assertThat(Files.readString(settings.dir("kafka").resolve("server.properties")))
                .contains("listeners=PLAINTEXT://127.0.0.1:" + settings.kafkaPort() + ",");

        assertThat(services.run(List.of("stop", "kafka"))).isZero();
        assertThat(Supervisor.alive(pid)).isFalse();
        assertThat(Supervisor.portOpen(settings.kafkaPort())).isFalse();
        assertThat(settings.pidFile("kafka")).doesNotExist();
    }
}
