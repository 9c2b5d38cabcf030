package io.tributary.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.TributaryJob;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.deadletter.DeadLetterSerializer;
import io.tributary.schema.TableEngine;
import io.tributary.testing.RealServices;
import io.tributary.testing.TlsFiles;
import io.tributary.testing.oracle.RandomOtlp;
import io.tributary.topology.SchemaManager;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The job through the local broker's SASL_SSL listener (a SCRAM-SHA-512 user this test creates,
 * and the PLAIN user of its JAAS config) and its SSL listener that requires client certificates:
 * it reads and dead-letters there, writes what it writes over PLAINTEXT, and a wrong password, a
 * missing client certificate or a wrong CA fails at start naming the setting.
 */
public class KafkaSecurityITCase {

    @RegisterExtension
    static final MiniClusterExtension FLINK = RealServices.miniCluster(2);

    private static final String SCRAM_USER = "tributary-scram";
    private static final String SCRAM_PASSWORD = "scram \"secret\" \\ with quotes";
    private static String topic;
    private static TlsFiles files;
    private static Path scramPassword;
    private static Path clientCert;
    private static Path clientKey;
    private static List<String> plainRows;

    @BeforeAll
    static void setUp() throws Exception {
        Map<String, Object> admin = Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, RealServices.kafkaBootstrap());
        try (Admin a = Admin.create(admin)) {
            a.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(SCRAM_USER,
                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192), SCRAM_PASSWORD))).all().get(30, TimeUnit.SECONDS);
        }
        files = TlsFiles.make(Files.createTempDirectory("tributary-kafka-tls"));
        scramPassword = files.dir.resolve("scram-password");
        Files.writeString(scramPassword, SCRAM_PASSWORD + "\n");
        // a client certificate from the broker's CA, for the SSL listener
        clientCert = files.dir.resolve("kafka-client.pem");
        clientKey = files.dir.resolve("kafka-client.key");
        Files.copy(files.clientCert, clientCert);
        Files.copy(files.clientKey, clientKey);
        files.renewClient(clientCert, clientKey, Path.of(RealServices.kafkaSecure("ca_file")),
                Path.of(RealServices.kafkaSecure("ca_key")));

        topic = RealServices.uniqueName("it_kafka_sec");
        RealServices.createTopic(topic, 2);
        RandomOtlp random = new RandomOtlp(21);
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            values.add(i % 2 == 0 ? random.scramble(random.traces()) : random.encode(random.traces()));
        }
        values.add(new byte[] {0x0a, 0x7f, 0x01}); // undecodable: a dead letter
        RealServices.produce(topic, values);
        String db = run(RealServices.kafkaBootstrap(), "");
        try {
            plainRows = rows(db);
            assertThat(plainRows).hasSizeGreaterThan(20);
        } finally {
            drop(db);
        }
    }

    private static String[] args(String db, String bootstrap, String dlq, String... more) {
        String[] base = {
            "--signals", "traces",
            "--kafka.bootstrap-servers", bootstrap,
            "--kafka.topics.traces", topic,
            "--kafka.group-id", db,
            "--kafka.starting-offsets", "earliest",
            "--kafka.bounded", "true",
            "--clickhouse.url", RealServices.clickHouseUrl(),
            "--clickhouse.database", db,
            "--dlq.topic", dlq,
            "--checkpoint.interval", "1s",
            "--flink.restart-strategy.type", "none"
        };
        return RealServices.concat(base, more);
    }

    private static String run(String bootstrap, String dlq, String... more) throws Exception {
        String db = RealServices.uniqueName("it_kafka_sec");
        TributaryConfig config = TributaryConfig.fromArgs(args(db, bootstrap, dlq, more));
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
        TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), config);
        return db;
    }

    private static List<String> rows(String db) throws Exception {
        return RealServices.rows(db, "otel_traces");
    }

    private static void drop(String db) throws Exception {
        RealServices.dropDatabases(db);
    }

    private static String[] scram(Path password) {
        return new String[] {
            "--kafka.security.protocol", "SASL_SSL",
            "--kafka.sasl.mechanism", "SCRAM-SHA-512",
            "--kafka.sasl.username", SCRAM_USER,
            "--kafka.sasl.password-file", password.toString(),
            "--kafka.tls.ca-file", RealServices.kafkaSecure("ca_file")
        };
    }

    /** The one dead letter of the topic's garbage record, as read over PLAINTEXT. */
    private static void assertOneDeadLetter(String dlq) {
        List<ConsumerRecord<byte[], byte[]>> dead = RealServices.consumeAll(dlq);
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).value()).containsExactly(0x0a, 0x7f, 0x01);
        assertThat(new String(dead.get(0).headers().lastHeader(DeadLetterSerializer.SOURCE_TOPIC).value(),
                StandardCharsets.UTF_8)).isEqualTo(topic);
    }

    @Test
    void scramOverSaslSslReadsAndDeadLettersAsPlaintextDoes() throws Exception {
        String dlq = RealServices.uniqueName("it_kafka_sec_dlq");
        RealServices.createTopic(dlq, 1);
        String db = run(RealServices.kafkaSecure("sasl_ssl"), dlq, scram(scramPassword));
        try {
            assertThat(rows(db)).isEqualTo(plainRows);
            assertOneDeadLetter(dlq);
        } finally {
            drop(db);
        }
    }

    @Test
    void plainOverSaslSslAndClientCertificatesOverSslRead() throws Exception {
        Path plainPassword = files.dir.resolve("plain-password");
        Files.writeString(plainPassword, "plain-secret");
        String plain = run(RealServices.kafkaSecure("sasl_ssl"), "",
                "--kafka.security.protocol", "SASL_SSL",
                "--kafka.sasl.mechanism", "PLAIN",
                "--kafka.sasl.username", "tributary-plain",
                "--kafka.sasl.password-file", plainPassword.toString(),
                "--kafka.tls.ca-file", RealServices.kafkaSecure("ca_file"));
        String mtls = run(RealServices.kafkaSecure("ssl"), "",
                "--kafka.security.protocol", "SSL",
                "--kafka.tls.ca-file", RealServices.kafkaSecure("ca_file"),
                "--kafka.tls.client-cert-file", clientCert.toString(),
                "--kafka.tls.client-key-file", clientKey.toString());
        try {
            assertThat(rows(plain)).isEqualTo(plainRows);
            assertThat(rows(mtls)).isEqualTo(plainRows);
        } finally {
            drop(plain);
            drop(mtls);
        }
    }

    @Test
    void deadLettersGoToAnotherClusterWithItsOwnSettings() throws Exception {
        // read over PLAINTEXT; the dead-letter "cluster" is the SASL_SSL listener, with its own credentials
        String dlq = RealServices.uniqueName("it_kafka_sec_dlq2");
        RealServices.createTopic(dlq, 1);
        String db = run(RealServices.kafkaBootstrap(), dlq,
                "--dlq.kafka.bootstrap-servers", RealServices.kafkaSecure("sasl_ssl"),
                "--dlq.kafka.security.protocol", "SASL_SSL",
                "--dlq.kafka.sasl.mechanism", "SCRAM-SHA-512",
                "--dlq.kafka.sasl.username", SCRAM_USER,
                "--dlq.kafka.sasl.password-file", scramPassword.toString(),
                "--dlq.kafka.tls.ca-file", RealServices.kafkaSecure("ca_file"));
        try {
            assertThat(rows(db)).isEqualTo(plainRows);
            assertOneDeadLetter(dlq);
        } finally {
            drop(db);
        }
    }

    private static String failure(String bootstrap, String... more) {
        return RealServices.startFailure(TributaryConfig.fromArgs(args(RealServices.uniqueName("it_kafka_bad"), bootstrap, "", more)));
    }

    @Test
    void wrongCredentialsAndCertificatesFailAtStartNamingTheKey() throws Exception {
        Path wrong = files.dir.resolve("wrong-scram-password");
        Files.writeString(wrong, "not-it");
        assertThat(failure(RealServices.kafkaSecure("sasl_ssl"), scram(wrong)))
                .contains("kafka.sasl.password-file: Kafka refused SASL user 'tributary-scram' (SCRAM-SHA-512)");
        assertThat(failure(RealServices.kafkaSecure("sasl_ssl"), RealServices.concat(scram(scramPassword),
                "--kafka.tls.ca-file", files.otherCa.toString())))
                .contains("kafka.tls.ca-file: the brokers' certificate is not trusted by the CAs of " + files.otherCa);
        assertThat(failure(RealServices.kafkaSecure("ssl"), "--kafka.security.protocol", "SSL",
                "--kafka.tls.ca-file", RealServices.kafkaSecure("ca_file")))
                .contains("kafka.tls.client-cert-file: the brokers ask for a client certificate");
        assertThat(failure(RealServices.kafkaSecure("ssl"), "--kafka.security.protocol", "SSL",
                "--kafka.tls.ca-file", RealServices.kafkaSecure("ca_file"),
                "--kafka.tls.client-cert-file", files.clientCert.toString(),
                "--kafka.tls.client-key-file", files.clientKey.toString()))
                .contains("kafka.tls.client-cert-file: the brokers do not accept the client certificate of " + files.clientCert);
        // the broker's certificate names localhost and 127.0.0.1; a wrong CA or user is what fails, not the name
        assertThat(failure(RealServices.kafkaSecure("sasl_ssl"), "--kafka.security.protocol", "SASL_SSL",
                "--kafka.sasl.mechanism", "SCRAM-SHA-512", "--kafka.sasl.username", "nobody",
                "--kafka.sasl.password-file", scramPassword.toString(),
                "--kafka.tls.ca-file", RealServices.kafkaSecure("ca_file")))
                .contains("Kafka refused SASL user 'nobody'");
    }

    /**
     * A token endpoint of the client credentials grant, as an identity provider runs it: tokens
     * for {@code client} with {@code secret}, signed RS256 with the key whose JWKS the broker
     * checks them against; 401 for anything else.
     */
    public static com.sun.net.httpserver.HttpServer issuer(String client, String secret) throws Exception {
        java.security.PrivateKey key = io.tributary.clickhouse.tls.Pem.privateKey(Path.of(RealServices.kafkaSecure("oauth_key")),
                "oauth key", null, "oauth-password-file");
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        String expected = "Basic " + java.util.Base64.getEncoder().encodeToString(
                (client + ":" + secret).getBytes(StandardCharsets.UTF_8));
        server.createContext("/token", ex -> {
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            byte[] reply;
            int status;
            if (expected.equals(ex.getRequestHeaders().getFirst("Authorization")) && body.contains("grant_type=client_credentials")) {
                long now = System.currentTimeMillis() / 1000;
                java.util.Base64.Encoder b64 = java.util.Base64.getUrlEncoder().withoutPadding();
                String signed = b64.encodeToString("{\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":\"tributary-test\"}"
                        .getBytes(StandardCharsets.UTF_8)) + "." + b64.encodeToString(("{\"sub\":\"" + client
                        + "\",\"iat\":" + now + ",\"exp\":" + (now + 3600) + ",\"scope\":\"kafka\"}").getBytes(StandardCharsets.UTF_8));
                try {
                    java.security.Signature rs256 = java.security.Signature.getInstance("SHA256withRSA");
                    rs256.initSign(key);
                    rs256.update(signed.getBytes(StandardCharsets.US_ASCII));
                    signed += "." + b64.encodeToString(rs256.sign());
                } catch (java.security.GeneralSecurityException e) {
                    throw new java.io.IOException(e);
                }
                reply = ("{\"access_token\":\"" + signed + "\",\"token_type\":\"bearer\",\"expires_in\":3600}")
                        .getBytes(StandardCharsets.UTF_8);
                status = 200;
            } else {
                reply = "{\"error\":\"invalid_client\"}".getBytes(StandardCharsets.UTF_8);
                status = 401;
            }
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(status, reply.length);
            ex.getResponseBody().write(reply);
            ex.close();
        });
        server.start();
        return server;
    }

    private static String[] oauth(com.sun.net.httpserver.HttpServer issuer, Path secret) {
        return new String[] {
            "--kafka.security.protocol", "SASL_SSL",
            "--kafka.sasl.mechanism", "OAUTHBEARER",
            "--kafka.sasl.oauthbearer.token-endpoint-url", "http://127.0.0.1:" + issuer.getAddress().getPort() + "/token",
            "--kafka.sasl.oauthbearer.client-id", "tributary-oauth",
            "--kafka.sasl.oauthbearer.client-secret-file", secret.toString(),
            "--kafka.sasl.oauthbearer.scope", "kafka",
            "--kafka.tls.ca-file", RealServices.kafkaSecure("ca_file")
        };
    }

    @Test
    void oauthBearerWithClientCredentialsReadsAndAWrongSecretFailsAtStart() throws Exception {
        com.sun.net.httpserver.HttpServer issuer = issuer("tributary-oauth", "oauth-secret");
        try {
            Path secret = Files.writeString(files.dir.resolve("oauth-secret"), "oauth-secret\n");
            String db = run(RealServices.kafkaSecure("sasl_ssl"), "", oauth(issuer, secret));
            try {
                assertThat(rows(db)).isEqualTo(plainRows);
            } finally {
                drop(db);
            }
            Path wrong = Files.writeString(files.dir.resolve("wrong-oauth-secret"), "not-it");
            assertThat(failure(RealServices.kafkaSecure("sasl_ssl"), oauth(issuer, wrong)))
                    .contains("kafka.sasl.oauthbearer.client-secret-file: no token for the OAuth client 'tributary-oauth'");
        } finally {
            issuer.stop(0);
        }
    }
}
