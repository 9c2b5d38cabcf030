package io.tributary.secret;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.kafka.KafkaSecurityITCase;
import io.tributary.schema.TableEngine;
import io.tributary.testing.FaultProxy;
import io.tributary.testing.JobProcess;
import io.tributary.testing.RealServices;
import io.tributary.testing.Socat;
import io.tributary.testing.TlsFiles;
import io.tributary.testing.UniqueSpans;
import io.tributary.topology.SchemaManager;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * Looks for the job's secrets the way an attacker would: every secret setting holds a planted,
 * recognisable value (the ClickHouse password and its TLS client key's password, the Kafka SASL
 * password, OAuth client secret and TLS key password, and the {@code dlq.kafka.*} ones), the job
 * runs as {@code bin/tributary run} runs it (its own process, the secrets in its environment and
 * in files, as a deployment gives them), failures are provoked (a wrong password, a value with a
 * control character, ClickHouse away, a certificate not trusted, a key password that does not
 * decrypt), and then its whole output (log and stdout/stderr), every file it wrote, and the REST
 * API's answers (the exception history above all) are searched for the planted values. Each
 * failure is asserted to have happened and to name the setting, so that finding nothing means
 * something; values that end in a line end, as Kubernetes mounts them, are asserted to work.
 *
 * <p>The one password that cannot be planted is the ClickHouse user's ({@code io.tributary.services.ClickHouse}
 * gives {@code tributary_password} a fixed one): it is searched for as well.
 */
class SecretLeakITCase {

    /** The random part, searched for alone: a message quoting a piece of a value shows it too. */
    private static final String MARK = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    private static final String PLANTED = "PLANTED-s3cr3t-" + MARK;
    private static final String CH_USER = "tributary_password";
    private static final String CH_PASSWORD = "pw-from-the-environment";
    private static final String SCRAM_USER = RealServices.uniqueName("tributary-leak");
    private static final String OAUTH_CLIENT = "tributary-leak";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static Path dir;
    private static TlsFiles files;
    private static Socat mtls;
    private static com.sun.net.httpserver.HttpServer issuer;
    private static String topic;
    private static String db;
    /** The ClickHouse client key, encrypted with a planted password. */
    private static Path chKey;
    /** A client certificate from the broker's CA, and its key encrypted with a planted password. */
    private static Path kafkaCert;
    private static Path kafkaKey;
    private static final List<String> dbs = new ArrayList<>();

    private static String secret(String what) {
        return PLANTED + "-" + what;
    }

    @BeforeAll
    static void setUp() throws Exception {
        dir = Files.createTempDirectory("tributary-leak");
        files = TlsFiles.make(dir.resolve("tls"));
        mtls = new Socat(files.serverCert, files.serverKey, files.ca, URI.create(RealServices.clickHouseUrl()).getPort());
        chKey = dir.resolve("ch-client-encrypted.key");
        files.encrypt(files.clientKey, chKey, secret("ch-key"), false);
        kafkaCert = dir.resolve("kafka-client.pem");
        Path plainKafkaKey = dir.resolve("kafka-client.key");
        Files.copy(files.clientCert, kafkaCert);
        Files.copy(files.clientKey, plainKafkaKey);
        files.renewClient(kafkaCert, plainKafkaKey, Path.of(RealServices.kafkaSecure("ca_file")),
                Path.of(RealServices.kafkaSecure("ca_key")));
        kafkaKey = dir.resolve("kafka-client-encrypted.key");
        files.encrypt(plainKafkaKey, kafkaKey, secret("kafka-key"), true);
        Files.delete(plainKafkaKey);
        try (Admin a = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, RealServices.kafkaBootstrap()))) {
            a.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(SCRAM_USER,
                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), secret("scram"))))
                    .all().get(30, java.util.concurrent.TimeUnit.SECONDS);
        }
        issuer = KafkaSecurityITCase.issuer(OAUTH_CLIENT, secret("oauth"));
        topic = RealServices.uniqueName("it_leak");
        RealServices.createTopic(topic, 1);
        RealServices.produce(topic, List.of(UniqueSpans.spans(0).toByteArray(), new byte[] {0x0a, 0x7f, 0x01}));
    }

    @AfterAll
    static void tearDown() throws Exception {
        if (issuer != null) {
            issuer.stop(0);
        }
        if (mtls != null) {
            mtls.close();
        }
        RealServices.dropDatabases(dbs.toArray(new String[0]));
        if (dir != null) {
            try (Stream<Path> all = Files.walk(dir)) {
                all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** A database with the traces table, for a run that writes. */
    private static String database() throws Exception {
        String name = RealServices.uniqueName("it_leak");
        dbs.add(name);
        TributaryConfig c = TributaryConfig.fromArgs(new String[] {"--signals", "traces", "--clickhouse.database", name});
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), c, TableEngine.MERGE_TREE, null);
        return name;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** {@code bin/tributary run} with these settings, reading the test topic from its start, once. */
    private static List<String> run(String name, String... settings) throws IOException {
        List<String> args = new ArrayList<>(List.of("run", "--restore", "none",
                "--signals", "traces",
                "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
                "--kafka.topics.traces", topic,
                "--kafka.group-id", RealServices.uniqueName("it_leak"),
                "--kafka.starting-offsets", "earliest",
                "--kafka.bounded", "true",
                "--clickhouse.url", RealServices.clickHouseUrl(),
                "--clickhouse.database", "it_leak_none",
                "--dlq.topic", "",
                "--checkpoint.interval", "1s",
                "--flink.restart-strategy.type", "none",
                "--flink.rest.port", Integer.toString(freePort()),
                "--flink.execution.checkpointing.dir", dir.resolve("checkpoints-" + name).toUri().toString()));
        args.addAll(List.of(settings));
        return args;
    }

    private static String[] kafkaOAuth(String prefix, String secretEnv) {
        return new String[] {
            "--" + prefix + "security.protocol", "SASL_SSL",
            "--" + prefix + "sasl.mechanism", "OAUTHBEARER",
            "--" + prefix + "sasl.oauthbearer.token-endpoint-url", "http://127.0.0.1:" + issuer.getAddress().getPort() + "/token",
            "--" + prefix + "sasl.oauthbearer.client-id", OAUTH_CLIENT,
            "--" + prefix + "sasl.oauthbearer.client-secret-env", secretEnv,
            "--" + prefix + "tls.ca-file", RealServices.kafkaSecure("ca_file")
        };
    }

    private static String[] kafkaScram(String prefix, String passwordKey, String passwordSource) {
        return new String[] {
            "--" + prefix + "security.protocol", "SASL_SSL",
            "--" + prefix + "sasl.mechanism", "SCRAM-SHA-512",
            "--" + prefix + "sasl.username", SCRAM_USER,
            "--" + prefix + passwordKey, passwordSource,
            "--" + prefix + "tls.ca-file", RealServices.kafkaSecure("ca_file")
        };
    }

    private static String[] kafkaMutualTls(String prefix, String keyPasswordEnv) {
        return new String[] {
            "--" + prefix + "security.protocol", "SSL",
            "--" + prefix + "tls.ca-file", RealServices.kafkaSecure("ca_file"),
            "--" + prefix + "tls.client-cert-file", kafkaCert.toString(),
            "--" + prefix + "tls.client-key-file", kafkaKey.toString(),
            "--" + prefix + "tls.client-key-password-env", keyPasswordEnv
        };
    }

    private static String[] clickHouseMutualTls(String ca) {
        return new String[] {
            "--clickhouse.url", mtls.url("localhost"),
            "--clickhouse.user", CH_USER,
            "--clickhouse.password-env", "LEAK_CH",
            "--clickhouse.tls.ca-file", ca,
            "--clickhouse.tls.client-cert-file", files.clientCert.toString(),
            "--clickhouse.tls.client-key-file", chKey.toString(),
            "--clickhouse.tls.client-key-password-env", "LEAK_CH_KEY"
        };
    }

    private static String[] concat(List<String> a, String[]... more) {
        List<String> out = new ArrayList<>(a);
        for (String[] m : more) {
            out.addAll(List.of(m));
        }
        return out.toArray(new String[0]);
    }

    /** Neither a planted value (nor its random part alone) nor the ClickHouse user's password is in {@code text}. */
    private static void assertNoSecret(String where, String text) {
        assertThat(text).as(where).doesNotContain(MARK).doesNotContain(CH_PASSWORD);
    }

    /** Every file under {@code root} (checkpoints, anything the run left), searched as bytes. */
    private static void assertNoSecretInFiles(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> all = Files.walk(root)) {
            for (Path f : (Iterable<Path>) all.filter(Files::isRegularFile)::iterator) {
                assertNoSecret(f.toString(), new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1));
            }
        }
    }

    @Test
    void secretsEndingInALineEndWorkAndTheRunShowsNone() throws Exception {
        String target = database();
        String dlq = RealServices.uniqueName("it_leak_dlq");
        RealServices.createTopic(dlq, 1);
        // every source of the run's secrets in one run: the Kafka cluster read over SASL_SSL with
        // OAuth, the dead-letter one over mutual TLS with an encrypted key, ClickHouse over mutual TLS
        // with an encrypted key and a password; each value ends in a line end, as a Kubernetes
        // secret mounted as a variable does
        Map<String, String> env = Map.of(
                "LEAK_OAUTH", secret("oauth") + "\n",
                "LEAK_KAFKA_KEY", secret("kafka-key") + "\n",
                "LEAK_CH", CH_PASSWORD + "\n",
                "LEAK_CH_KEY", secret("ch-key") + "\r\n");
        List<String> base = run("works", "--kafka.bootstrap-servers", RealServices.kafkaSecure("sasl_ssl"),
                "--clickhouse.database", target, "--dlq.topic", dlq,
                "--dlq.kafka.bootstrap-servers", RealServices.kafkaSecure("ssl"));
        try (JobProcess job = JobProcess.start("leak-works", "io.tributary.tools.cli.Tributary", List.of(),
                List.of(concat(base, kafkaOAuth("kafka.", "LEAK_OAUTH"), kafkaMutualTls("dlq.kafka.", "LEAK_KAFKA_KEY"),
                        clickHouseMutualTls(files.ca.toString()))), env)) {
            Integer exit = job.waitFor(90);
            String out = job.log();
            assertNoSecret("output of the run", out);
            assertThat(exit).as(out).isEqualTo(0);
        }
        assertThat(RealServices.clickHouse().query("SELECT count(), uniqExact(SpanId) FROM `" + target + "`.otel_traces FORMAT TSV"))
                .isEqualTo(UniqueSpans.PER_RECORD + "\t" + UniqueSpans.PER_RECORD + "\n");
        List<ConsumerRecord<byte[], byte[]>> dead = RealServices.consumeAll(dlq);
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).value()).containsExactly(0x0a, 0x7f, 0x01);
        assertNoSecretInFiles(dir.resolve("checkpoints-works"));
    }

    /** A run that must fail before the job is submitted, with {@code expected} in what it says. */
    private record StartFailure(String name, Map<String, String> env, String[] args, String expected) {}

    @Test
    void eachFailureAtStartNamesTheSettingAndShowsNoSecret() throws Exception {
        Path dlqPassword = Files.writeString(dir.resolve("dlq-scram-password"), secret("dlq-scram-wrong") + "\r\n");
        List<StartFailure> cases = List.of(
                new StartFailure("ch-control", Map.of("LEAK_CH", secret("ch") + "\u0007x\n", "LEAK_CH_KEY", secret("ch-key")),
                        concat(run("ch-control"), clickHouseMutualTls(files.ca.toString())),
                        "clickhouse.password-env: the value of environment variable 'LEAK_CH' holds the control character U+0007"),
                new StartFailure("ch-key-password", Map.of("LEAK_CH", CH_PASSWORD, "LEAK_CH_KEY", secret("ch-key-wrong") + "\n"),
                        concat(run("ch-key-password"), clickHouseMutualTls(files.ca.toString())),
                        "clickhouse.tls.client-key-password-env: the password does not decrypt"),
                new StartFailure("ch-certificate", Map.of("LEAK_CH", CH_PASSWORD, "LEAK_CH_KEY", secret("ch-key")),
                        concat(run("ch-certificate"), clickHouseMutualTls(files.otherCa.toString())),
                        "is not trusted by the CAs of clickhouse.tls.ca-file"),
                new StartFailure("ch-wrong-password", Map.of("LEAK_CH", secret("ch-wrong") + "\n", "LEAK_CH_KEY", secret("ch-key")),
                        concat(run("ch-wrong-password"), clickHouseMutualTls(files.ca.toString())),
                        "refusing user '" + CH_USER + "'"),
                new StartFailure("kafka-scram", Map.of("LEAK_SCRAM", secret("scram-wrong") + "\n"),
                        concat(run("kafka-scram", "--kafka.bootstrap-servers", RealServices.kafkaSecure("sasl_ssl")),
                                kafkaScram("kafka.", "sasl.password-env", "LEAK_SCRAM")),
                        "kafka.sasl.password-env: Kafka refused SASL user '" + SCRAM_USER + "'"),
                new StartFailure("kafka-tab", Map.of("LEAK_SCRAM", secret("scram") + "\t\n"),
                        concat(run("kafka-tab", "--kafka.bootstrap-servers", RealServices.kafkaSecure("sasl_ssl")),
                                kafkaScram("kafka.", "sasl.password-env", "LEAK_SCRAM")),
                        "kafka.sasl.password-env: the value of environment variable 'LEAK_SCRAM' holds a tab"),
                new StartFailure("kafka-oauth", Map.of("LEAK_OAUTH", secret("oauth-wrong") + "\n"),
                        concat(run("kafka-oauth", "--kafka.bootstrap-servers", RealServices.kafkaSecure("sasl_ssl")),
                                kafkaOAuth("kafka.", "LEAK_OAUTH")),
                        "kafka.sasl.oauthbearer.client-secret-env: no token for the OAuth client '" + OAUTH_CLIENT + "'"),
                new StartFailure("kafka-key-password", Map.of("LEAK_KAFKA_KEY", secret("kafka-key-wrong") + "\n"),
                        concat(run("kafka-key-password", "--kafka.bootstrap-servers", RealServices.kafkaSecure("ssl")),
                                kafkaMutualTls("kafka.", "LEAK_KAFKA_KEY")),
                        "kafka.tls.client-key-password-env: the password does not decrypt the client key"),
                new StartFailure("dlq-scram", Map.of(),
                        concat(run("dlq-scram", "--dlq.topic", "it_leak_dlq", "--dlq.kafka.bootstrap-servers",
                                RealServices.kafkaSecure("sasl_ssl")), kafkaScram("dlq.kafka.", "sasl.password-file", dlqPassword.toString())),
                        "dlq.kafka.sasl.password-file: Kafka refused SASL user '" + SCRAM_USER + "'"),
                new StartFailure("dlq-oauth", Map.of("LEAK_DLQ_OAUTH", secret("dlq-oauth-wrong")),
                        concat(run("dlq-oauth", "--dlq.topic", "it_leak_dlq", "--dlq.kafka.bootstrap-servers",
                                RealServices.kafkaSecure("sasl_ssl")), kafkaOAuth("dlq.kafka.", "LEAK_DLQ_OAUTH")),
                        "dlq.kafka.sasl.oauthbearer.client-secret-env: no token for the OAuth client '" + OAUTH_CLIENT + "'"),
                new StartFailure("dlq-key-control", Map.of("LEAK_DLQ_KEY", secret("kafka-key") + "\u001b[0m"),
                        concat(run("dlq-key-control", "--dlq.topic", "it_leak_dlq", "--dlq.kafka.bootstrap-servers",
                                RealServices.kafkaSecure("ssl")), kafkaMutualTls("dlq.kafka.", "LEAK_DLQ_KEY")),
                        "dlq.kafka.tls.client-key-password-env: the value of environment variable 'LEAK_DLQ_KEY' holds the"
                                + " control character U+001B"),
                // the argument screen: the values are on the command line, never in what the job says
                new StartFailure("argument-keystore-key", Map.of(),
                        concat(run("argument-keystore-key"), new String[] {"--kafka.properties.ssl.keystore.key", secret("pem")}),
                        "kafka.properties.ssl.keystore.key: a secret (its type in the Kafka clients' ConfigDef is PASSWORD)"),
                new StartFailure("argument-client-secret", Map.of(),
                        concat(run("argument-client-secret"), new String[] {
                            "--dlq.kafka.properties.sasl.oauthbearer.client.credentials.client.secret", secret("cc")}),
                        "dlq.kafka.properties.sasl.oauthbearer.client.credentials.client.secret: a secret"),
                new StartFailure("argument-url", Map.of(),
                        concat(run("argument-url"), new String[] {"--clickhouse.url", "http://127.0.0.1:8123/?password=" + secret("url")}),
                        "clickhouse.url: holds a URL with a query parameter named like a secret"));
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            Map<StartFailure, Future<String>> outputs = new LinkedHashMap<>();
            for (StartFailure c : cases) {
                outputs.put(c, pool.submit(() -> {
                    try (JobProcess p = JobProcess.start("leak-" + c.name(), "io.tributary.tools.cli.Tributary", List.of(),
                            List.of(c.args()), c.env())) {
                        Integer exit = p.waitFor(60);
                        return exit + "\n" + p.log();
                    }
                }));
            }
            for (Map.Entry<StartFailure, Future<String>> o : outputs.entrySet()) {
                String out = o.getValue().get();
                assertNoSecret("output of " + o.getKey().name(), out);
                assertThat(out).as(o.getKey().name()).startsWith("2\n").contains("tributary: ").contains(o.getKey().expected());
                assertNoSecretInFiles(dir.resolve("checkpoints-" + o.getKey().name()));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static String get(int port, String path) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        return r.body();
    }

    /** Waits until the job's exception history holds {@code text}; returns the history. */
    private static String awaitException(JobProcess job, int port, String jobId, String text) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        String history = "";
        while (System.nanoTime() < deadline) {
            assertThat(job.waitFor(0)).as(job.log()).isNull(); // it restarts, it does not end
            history = get(port, "/jobs/" + jobId + "/exceptions?maxExceptions=100");
            if (history.contains(text)) {
                return history;
            }
            Thread.sleep(500);
        }
        throw new AssertionError("no '" + text + "' in the exception history: " + history + "\n" + job.log());
    }

    @Test
    void failuresOfTheRunningJobReachTheRestApiWithoutTheSecret() throws Exception {
        String target = database();
        int port = freePort();
        // ClickHouse away when the job starts (its check only warns), then back, refusing the password
        try (FaultProxy proxy = new FaultProxy("127.0.0.1", URI.create(RealServices.clickHouseUrl()).getPort())) {
            proxy.mode(FaultProxy.Mode.REFUSE);
            List<String> args = new ArrayList<>(run("running", "--clickhouse.url", proxy.url(), "--clickhouse.database", target,
                    "--clickhouse.user", CH_USER, "--clickhouse.password-env", "LEAK_CH",
                    "--sink.retry.max-attempts", "1",
                    "--flink.restart-strategy.type", "fixed-delay",
                    "--flink.restart-strategy.fixed-delay.attempts", "1000",
                    "--flink.restart-strategy.fixed-delay.delay", "1s",
                    "--flink.rest.port", Integer.toString(port)));
            try (JobProcess job = JobProcess.start("leak-running", "io.tributary.tools.cli.Tributary", List.of(), args,
                    Map.of("LEAK_CH", secret("ch-wrong") + "\n"))) {
                String jobId = null;
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (jobId == null && System.nanoTime() < deadline) {
                    assertThat(job.waitFor(0)).as(job.log()).isNull();
                    try {
                        JsonNode jobs = JSON.readTree(get(port, "/jobs")).path("jobs");
                        jobId = jobs.size() == 1 ? jobs.get(0).path("id").asText() : null;
                    } catch (IOException e) {
                        // the dashboard is not up yet
                    }
                    Thread.sleep(300);
                }
                assertThat(jobId).as(job.log()).isNotNull();
                awaitException(job, port, jobId, "ClickHouse at " + proxy.url());
                proxy.mode(FaultProxy.Mode.PASS);
                awaitException(job, port, jobId, "refusing user '" + CH_USER + "'");
                // what the dashboard shows of the job, its settings, the cluster and every metric
                List<String> paths = new ArrayList<>(List.of("/jobs/" + jobId + "/exceptions?maxExceptions=100",
                        "/jobs/" + jobId, "/jobs/" + jobId + "/config", "/jobs/" + jobId + "/checkpoints",
                        "/jobmanager/config", "/jobmanager/environment", "/jobmanager/metrics", "/taskmanagers"));
                for (JsonNode tm : JSON.readTree(get(port, "/taskmanagers")).path("taskmanagers")) {
                    paths.add("/taskmanagers/" + tm.path("id").asText() + "/metrics");
                }
                for (JsonNode v : JSON.readTree(get(port, "/jobs/" + jobId)).path("vertices")) {
                    paths.add("/jobs/" + jobId + "/vertices/" + v.path("id").asText() + "/metrics");
                }
                int metricValues = 0;
                for (String path : paths) {
                    String answer = get(port, path);
                    assertNoSecret("GET " + path, answer);
                    if (path.endsWith("/metrics")) {
                        // the names; then their values
                        List<String> names = new ArrayList<>();
                        JSON.readTree(answer).forEach(m -> names.add(m.path("id").asText()));
                        for (int i = 0; i < names.size(); i += 40) {
                            List<String> some = names.subList(i, Math.min(names.size(), i + 40)).stream()
                                    .map(n -> java.net.URLEncoder.encode(n, StandardCharsets.UTF_8)).toList();
                            String values = get(port, path + "?get=" + String.join(",", some));
                            assertNoSecret("GET " + path + " values", values);
                            metricValues += JSON.readTree(values).size();
                        }
                    }
                }
                assertThat(metricValues).isGreaterThan(20);
                assertNoSecret("output of the running job", job.log());
            }
        }
        assertNoSecretInFiles(dir.resolve("checkpoints-running"));
    }
}
