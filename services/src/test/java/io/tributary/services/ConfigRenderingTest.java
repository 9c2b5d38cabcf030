package io.tributary.services;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

/** The files the services are started with: ClickHouse's XML and Kafka's properties. */
class ConfigRenderingTest {

    @TempDir
    Path tmp;

    private Settings settings() {
        Map<String, String> env = new HashMap<>();
        env.put("HOME", tmp.toString());
        env.put("TRIBUTARY_CLICKHOUSE_PORT", "28123");
        env.put("TRIBUTARY_CLICKHOUSE_MAX_MEMORY", "536870912");
        env.put("TRIBUTARY_KAFKA_PORT", "29092");
        env.put("TRIBUTARY_KAFKA_PARTITIONS", "3");
        env.put("TRIBUTARY_STATE_DIR", tmp.resolve("state & more").toString());
        return Settings.from(env, tmp);
    }

    private static Document xml(String text) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }

    private static String at(Document d, String path) throws Exception {
        return XPathFactory.newInstance().newXPath().evaluate(path, d);
    }

    @Test
    void clickHouseConfigNamesItsUsersFilePortsMemoryAndLog() throws Exception {
        Settings s = settings();
        Path users = s.dir("clickhouse").resolve("users.xml");
        Document d = xml(new ClickHouse(s).configXml(users, s.logFile("clickhouse")));
        assertThat(at(d, "/clickhouse/users_config")).isEqualTo(users.toString());
        assertThat(at(d, "/clickhouse/remote_servers/tributary_local/shard/replica/host")).isEqualTo("127.0.0.1");
        assertThat(at(d, "/clickhouse/remote_servers/tributary_local/shard/replica/port")).isEqualTo("28124");
        assertThat(at(d, "/clickhouse/max_server_memory_usage")).isEqualTo("536870912");
        assertThat(at(d, "/clickhouse/query_log/ttl")).isEqualTo("event_date + INTERVAL 3 DAY");
        // the state dir's '&' is escaped, or ClickHouse could not read its own config
        assertThat(at(d, "/clickhouse/logger/log")).isEqualTo(s.logFile("clickhouse").toString()).contains("&");
        assertThat(at(d, "/clickhouse/logger/console")).isEqualTo("0");
    }

    @Test
    void clickHouseUsersAreTheOnesTheTestsLogInAs() throws Exception {
        Document d = xml(ClickHouse.usersXml());
        NodeList users = (NodeList) XPathFactory.newInstance().newXPath().evaluate("/clickhouse/users/*", d, XPathConstants.NODESET);
        Map<String, String> profileOf = new LinkedHashMap<>();
        Map<String, String> passwordOf = new LinkedHashMap<>();
        for (int i = 0; i < users.getLength(); i++) {
            String name = users.item(i).getNodeName();
            profileOf.put(name, at(d, "/clickhouse/users/" + name + "/profile"));
            passwordOf.put(name, at(d, "/clickhouse/users/" + name + "/password"));
            assertThat(at(d, "/clickhouse/users/" + name + "/networks/ip")).isEqualTo("::/0");
        }
        assertThat(profileOf).containsExactly(Map.entry("default", "default"),
                Map.entry("tributary_readonly", "readonly"), Map.entry("tributary_progress", "progress"),
                Map.entry("tributary_small_memory", "small_memory"), Map.entry("tributary_password", "default"));
        assertThat(passwordOf).containsEntry("tributary_password", "pw-from-the-environment")
                .containsEntry("default", "").containsEntry("tributary_readonly", "");
        assertThat(at(d, "/clickhouse/profiles/readonly/readonly")).isEqualTo("1");
        assertThat(at(d, "/clickhouse/profiles/progress/send_progress_in_http_headers")).isEqualTo("1");
        assertThat(at(d, "/clickhouse/profiles/progress/http_headers_progress_interval_ms")).isEqualTo("1");
        assertThat(at(d, "/clickhouse/profiles/small_memory/max_memory_usage")).isEqualTo("40000000");
    }

    private Properties kafka(boolean secure) throws Exception {
        Properties p = new Properties();
        p.load(new StringReader(new Kafka(settings()).serverProperties(secure)));
        return p;
    }

    @Test
    void kafkaPlaintextOnlyWithoutOpenssl() throws Exception {
        Settings s = settings();
        Properties p = kafka(false);
        assertThat(p.getProperty("listeners")).isEqualTo("PLAINTEXT://127.0.0.1:29092,CONTROLLER://127.0.0.1:29093");
        assertThat(p.getProperty("advertised.listeners")).isEqualTo("PLAINTEXT://127.0.0.1:29092");
        assertThat(p.getProperty("listener.security.protocol.map")).isEqualTo("PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        assertThat(p.getProperty("controller.quorum.voters")).isEqualTo("1@127.0.0.1:29093");
        assertThat(p.getProperty("process.roles")).isEqualTo("broker,controller");
        assertThat(p.getProperty("log.dirs")).isEqualTo(s.dir("kafka").resolve("data").toString());
        assertThat(p.getProperty("num.partitions")).isEqualTo("3");
        for (String rf : new String[] {"default.replication.factor", "offsets.topic.replication.factor",
                "transaction.state.log.replication.factor", "transaction.state.log.min.isr", "min.insync.replicas"}) {
            assertThat(p.getProperty(rf)).as(rf).isEqualTo("1");
        }
        assertThat(p.stringPropertyNames()).noneMatch(k -> k.startsWith("ssl.") || k.startsWith("listener.name."));
    }

    @Test
    void kafkaSecureListenersUseTheStateDirsCertificatesAndUsers() throws Exception {
        Path tls = settings().dir("kafka").resolve("tls");
        Properties p = kafka(true);
        assertThat(p.getProperty("listeners")).isEqualTo("PLAINTEXT://127.0.0.1:29092,CONTROLLER://127.0.0.1:29093,"
                + "SASL_SSL://127.0.0.1:29094,SSL://127.0.0.1:29095");
        assertThat(p.getProperty("advertised.listeners")).isEqualTo("PLAINTEXT://127.0.0.1:29092,"
                + "SASL_SSL://localhost:29094,SSL://localhost:29095");
        assertThat(p.getProperty("listener.security.protocol.map"))
                .isEqualTo("PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_SSL:SASL_SSL,SSL:SSL");
        assertThat(p.getProperty("ssl.keystore.type")).isEqualTo("PEM");
        assertThat(p.getProperty("ssl.keystore.location")).isEqualTo(tls + "/broker-keystore.pem");
        assertThat(p.getProperty("sasl.enabled.mechanisms")).isEqualTo("SCRAM-SHA-512,PLAIN,OAUTHBEARER");
        assertThat(p.getProperty("listener.name.sasl_ssl.plain.sasl.jaas.config"))
                .isEqualTo("org.apache.kafka.common.security.plain.PlainLoginModule required user_tributary-plain=\"plain-secret\";");
        assertThat(p.getProperty("listener.name.sasl_ssl.oauthbearer.sasl.oauthbearer.jwks.endpoint.url"))
                .isEqualTo("file://" + tls + "/jwks.json");
        assertThat(p.getProperty("listener.name.ssl.ssl.client.auth")).isEqualTo("required");
        assertThat(p.getProperty("listener.name.ssl.ssl.truststore.location")).isEqualTo(tls + "/ca.pem");
    }

    @Test
    void theTestsSecureAddressesComeFromTheSameSettings() throws Exception {
        Settings s = settings();
        Path tls = s.dir("kafka").resolve("tls");
        Kafka kafka = new Kafka(s);
        assertThat(kafka.secureEnvironment()).isEmpty(); // no CA yet: no secure listeners to offer
        java.nio.file.Files.createDirectories(tls);
        java.nio.file.Files.writeString(tls.resolve("ca.pem"), "x");
        assertThat(kafka.secureEnvironment()).containsExactly(
                Map.entry("TRIBUTARY_TEST_KAFKA_SASL_SSL_BOOTSTRAP", "localhost:29094"),
                Map.entry("TRIBUTARY_TEST_KAFKA_SSL_BOOTSTRAP", "localhost:29095"),
                Map.entry("TRIBUTARY_TEST_KAFKA_CA_FILE", tls + "/ca.pem"),
                Map.entry("TRIBUTARY_TEST_KAFKA_CA_KEY", tls + "/ca.key"),
                Map.entry("TRIBUTARY_TEST_KAFKA_OAUTH_KEY", tls + "/oauth.key"));
    }

    @Test
    void apiVersionsRequestBytesAndReply() {
        // size 26 | api key 18 | version 0 | correlation id 7 | client id length 16 | "tributary-health"
        assertThat(Kafka.apiVersionsRequest()).containsExactly(0, 0, 0, 26, 0, 18, 0, 0, 0, 0, 0, 7, 0, 16,
                't', 'r', 'i', 'b', 'u', 't', 'a', 'r', 'y', '-', 'h', 'e', 'a', 'l', 't', 'h');
        assertThat(Kafka.apiVersionsReplyOk(new byte[] {0, 0, 1, 0, 0, 0, 0, 7, 0, 0})).isTrue();
        assertThat(Kafka.apiVersionsReplyOk(new byte[] {0, 0, 1, 0, 0, 0, 0, 8, 0, 0})).as("another request's").isFalse();
        assertThat(Kafka.apiVersionsReplyOk(new byte[] {0, 0, 1, 0, 0, 0, 0, 7, 0, 35})).as("error 35").isFalse();
        assertThat(Kafka.apiVersionsReplyOk(new byte[] {0, 0, 1, 0, 0, 0, 0, 7})).as("cut short").isFalse();
    }

    @Test
    void flinkResourceParamsAndOverview() {
        String out = "INFO something\nBASH_JAVA_UTILS_EXEC_RESULT:-Xmx1g -Xms1g\nnoise\n"
                + "BASH_JAVA_UTILS_EXEC_RESULT:-D taskmanager.cpu.cores=2.0 -D a=b\n";
        assertThat(FlinkCluster.resultLines(out)).containsExactly("-Xmx1g -Xms1g", "-D taskmanager.cpu.cores=2.0 -D a=b");
        assertThat(FlinkCluster.words(" -D  a=b -D c=d ")).containsExactly("-D", "a=b", "-D", "c=d");
        assertThat(FlinkCluster.taskManagers("{\"taskmanagers\":2,\"slots-total\":4}")).isEqualTo(2);
        assertThat(FlinkCluster.taskManagers("{\"slots-total\":0}")).isZero();
        FlinkCluster c = new FlinkCluster(settings(), Map.of("TRIBUTARY_FLINK_REST_PORT", "28081"));
        assertThat(c.dynamicProperties()).contains("-Drest.port=28081", "-Djobmanager.rpc.port=6123",
                "-Dexecution.checkpointing.dir=file://" + settings().dir("flink").resolve("checkpoints"));
        assertThat(c.marker("flink-jobmanager")).isEqualTo("-Dtributary.cluster=" + settings().dir("flink-jobmanager"));
    }

    @Test
    void submitArgumentsSplitIntoFlinkRunsAndTheJobs() {
        FlinkCluster.SubmitArguments a = FlinkCluster.SubmitArguments.parse(List.of("--parallelism", "2",
                "--savepoint", "/sp/1", "--kafka.topics.traces", "t", "--allow-non-restored-state", ""));
        assertThat(a.flink()).containsExactly("--fromSavepoint", "/sp/1", "--allowNonRestoredState");
        assertThat(a.job()).containsExactly("--parallelism", "2", "--kafka.topics.traces", "t", "");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> FlinkCluster.SubmitArguments.parse(List.of("--savepoint")))
                .hasMessage("--savepoint needs a path");
    }
}
