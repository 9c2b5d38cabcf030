package io.tributary.services;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The local Kafka 4.2: one KRaft node (broker and controller) on a classpath that Maven resolves from
 * {@code services/kafka/pom.xml}, with a PLAINTEXT listener and, when {@code openssl} is there, SASL_SSL
 * (SCRAM-SHA-512, PLAIN, OAUTHBEARER) and SSL (client certificates) listeners for the security tests.
 */
final class Kafka {

    static final String NAME = "kafka";
    static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    /** The OAUTHBEARER test issuer's key id in the JWKS. */
    static final String OAUTH_KID = "tributary-test";
    /** The one PLAIN user of the SASL_SSL listener. */
    static final String PLAIN_USER = "tributary-plain";
    static final String PLAIN_PASSWORD = "plain-secret";

    private final Settings settings;

    Kafka(Settings settings) {
        this.settings = settings;
    }

    Path dir() {
        return settings.dir(NAME);
    }

    Path tls() {
        return dir().resolve("tls");
    }

    /** The broker's properties file, which is also what tells this state dir's broker apart on its command line. */
    String marker() {
        return dir().resolve("server.properties").toString();
    }

    Optional<Long> pid(boolean quiet) {
        return Supervisor.pid(settings.pidFile(NAME), marker(), quiet);
    }

    void start() {
        Optional<Long> running = pid(false);
        if (running.isPresent()) {
            await(running.get());
            Console.say("kafka: already running, reusing it (pid " + running.get() + ", bootstrap "
                    + settings.kafkaBootstrap() + ")");
            return;
        }
        Supervisor.checkPortFree(NAME, settings.kafkaPort(), "TRIBUTARY_KAFKA_PORT");
        Supervisor.checkPortFree(NAME, settings.kafkaControllerPort(), "TRIBUTARY_KAFKA_CONTROLLER_PORT");
        String classpath = classpath();
        boolean secure = Certificates.available();
        try {
            Files.createDirectories(dir().resolve("data"));
            if (secure) {
                Supervisor.checkPortFree(NAME, settings.kafkaSaslSslPort(), "TRIBUTARY_KAFKA_SASL_SSL_PORT");
                Supervisor.checkPortFree(NAME, settings.kafkaSslPort(), "TRIBUTARY_KAFKA_SSL_PORT");
                makeTls(tls());
            } else {
                Console.say("kafka: openssl is not on PATH; starting without the SASL_SSL and SSL listeners");
            }
            Files.writeString(dir().resolve("server.properties"), serverProperties(secure));
            // admin client settings for the health check: fail fast instead of retrying for 60 s
            Files.writeString(dir().resolve("admin.properties"), "request.timeout.ms=5000\ndefault.api.timeout.ms=10000\n");
        } catch (IOException e) {
            throw new ServiceException("kafka: cannot write its configuration in " + dir() + ": " + e.getMessage(), e);
        }
        format(classpath);
        Supervisor.rotateLog(settings.logFile(NAME));
        long started = System.nanoTime();
        Path jwks = tls().resolve("jwks.json");
        long pid = Supervisor.spawn(List.of(Supervisor.java(), "-Xms128m", "-Xmx" + settings.kafkaHeap(),
                "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20", "-XX:+ExitOnOutOfMemoryError", "-Djava.awt.headless=true",
                "-Dlog4j2.configurationFile=" + settings.root().resolve("services/kafka/log4j2.properties"),
                "-Dorg.apache.kafka.sasl.oauthbearer.allowed.urls=file://" + jwks,
                "-Dorg.apache.kafka.sasl.oauthbearer.allowed.files=" + jwks,
                "kafka.Kafka", marker()), settings.logFile(NAME), Map.of("CLASSPATH", classpath));
        Supervisor.writePid(settings.pidFile(NAME), pid);
        await(pid);
        Console.say("kafka: started Kafka 4.2.0 (pid " + pid + ", bootstrap " + settings.kafkaBootstrap() + ", data in "
                + dir().resolve("data") + ") in " + (System.nanoTime() - started) / 1_000_000 + " ms");
    }

    private void await(long pid) {
        Supervisor.awaitHealthy(NAME, pid, settings.pidFile(NAME), settings.logFile(NAME), START_TIMEOUT, this::healthy);
    }

    /**
     * Healthy = the broker answers an ApiVersions request (cheap; the listener accepts connections
     * seconds before it processes requests) and then a metadata request made by TopicCommand --list.
     */
    boolean healthy() {
        if (!apiVersionsOk(settings.kafkaPort())) {
            return false;
        }
        return tool(List.of("org.apache.kafka.tools.TopicCommand", "--bootstrap-server", settings.kafkaBootstrap(),
                "--command-config", dir().resolve("admin.properties").toString(), "--list")).ok();
    }

    /** ApiVersions v0 (api key 18, accepted by every Kafka version) with correlation id 7. */
    static byte[] apiVersionsRequest() {
        byte[] clientId = "tributary-health".getBytes(StandardCharsets.US_ASCII);
        ByteBuffer b = ByteBuffer.allocate(4 + 2 + 2 + 4 + 2 + clientId.length);
        b.putInt(b.capacity() - 4).putShort((short) 18).putShort((short) 0).putInt(7)
                .putShort((short) clientId.length).put(clientId);
        return b.array();
    }

    /** Whether a reply starts with our correlation id and error code 0 (after its 4-byte size). */
    static boolean apiVersionsReplyOk(byte[] head) {
        if (head.length < 10) {
            return false;
        }
        ByteBuffer b = ByteBuffer.wrap(head);
        b.getInt();
        return b.getInt() == 7 && b.getShort() == 0;
    }

    /** Sends ApiVersions; a listener still starting holds the request, which the 2 s timeout bounds. */
    static boolean apiVersionsOk(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            s.setSoTimeout(2000);
            OutputStream out = s.getOutputStream();
            out.write(apiVersionsRequest());
            out.flush();
            InputStream in = s.getInputStream();
            return apiVersionsReplyOk(in.readNBytes(10));
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * A CA and the broker's certificate (for localhost and 127.0.0.1), made once: the secure listeners'
     * identity. The CA's key stays there so that tests can issue client certificates the SSL listener
     * accepts; oauth.key signs the test issuer's tokens, jwks.json is its public half for the broker.
     */
    static void makeTls(Path tls) throws IOException {
        if (nonEmpty(tls.resolve("broker-keystore.pem")) && nonEmpty(tls.resolve("ca.pem"))
                && nonEmpty(tls.resolve("ca.key")) && nonEmpty(tls.resolve("jwks.json"))) {
            return;
        }
        Files.createDirectories(tls);
        Path caKey = tls.resolve("ca.key");
        Path ca = tls.resolve("ca.pem");
        Path brokerKey = tls.resolve("broker.key");
        Path broker = tls.resolve("broker.pem");
        Path keystore = tls.resolve("broker-keystore.pem");
        Path oauthKey = tls.resolve("oauth.key");
        try {
            Certificates.selfSigned(ca, caKey, "Tributary local Kafka CA", 3650);
            Certificates.issue(broker, brokerKey, "localhost", ca, caKey, "subjectAltName=DNS:localhost,IP:127.0.0.1", 3650);
            Files.writeString(keystore, Files.readString(brokerKey) + Files.readString(broker));
            Certificates.rsaKey(oauthKey);
            Files.writeString(tls.resolve("jwks.json"), Certificates.jwks(oauthKey, OAUTH_KID) + "\n");
            Certificates.ownerOnly(caKey, brokerKey, keystore, oauthKey);
        } catch (ServiceException e) {
            throw new ServiceException("kafka: cannot make the secure listeners' certificates: " + e.getMessage(), e);
        }
    }

    private static boolean nonEmpty(Path f) throws IOException {
        return Files.exists(f) && Files.size(f) > 0;
    }

    /** The broker's server.properties: listeners, single-node replication factors and, when secure, TLS and SASL. */
    String serverProperties(boolean secure) {
        Path dir = dir();
        String listeners = "PLAINTEXT://127.0.0.1:" + settings.kafkaPort() + ",CONTROLLER://127.0.0.1:" + settings.kafkaControllerPort();
        String advertised = "PLAINTEXT://127.0.0.1:" + settings.kafkaPort();
        String map = "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT";
        if (secure) {
            listeners += ",SASL_SSL://127.0.0.1:" + settings.kafkaSaslSslPort() + ",SSL://127.0.0.1:" + settings.kafkaSslPort();
            advertised += ",SASL_SSL://localhost:" + settings.kafkaSaslSslPort() + ",SSL://localhost:" + settings.kafkaSslPort();
            map += ",SASL_SSL:SASL_SSL,SSL:SSL";
        }
        StringBuilder sb = new StringBuilder("""
                # Written by bin/tributary services on every start; edits are overwritten.
                # One KRaft node that is both broker and controller, reachable on 127.0.0.1 only.
                process.roles=broker,controller
                node.id=1
                controller.quorum.voters=1@127.0.0.1:%d
                listeners=%s
                advertised.listeners=%s
                listener.security.protocol.map=%s
                controller.listener.names=CONTROLLER
                inter.broker.listener.name=PLAINTEXT
                log.dirs=%s

                # A single node: every replication factor is 1, or internal topics (consumer offsets,
                # transactions) are never created and consumers with a group id see nothing.
                default.replication.factor=1
                min.insync.replicas=1
                offsets.topic.replication.factor=1
                transaction.state.log.replication.factor=1
                transaction.state.log.min.isr=1
                share.coordinator.state.topic.replication.factor=1
                share.coordinator.state.topic.min.isr=1

                num.partitions=%d
                auto.create.topics.enable=true
                group.initial.rebalance.delay.ms=0
                # Sized for a 2-core development machine.
                num.network.threads=2
                num.io.threads=4
                """.formatted(settings.kafkaControllerPort(), listeners, advertised, map, dir.resolve("data"),
                settings.kafkaPartitions()));
        if (secure) {
            Path tls = tls();
            sb.append("""

                    # Secure listeners, for the tests of Kafka over TLS and SASL: the broker's certificate from
                    # %1$s. SASL_SSL takes SCRAM-SHA-512 (users created with the Admin API), PLAIN (the one
                    # user below) and OAUTHBEARER; SSL requires a client certificate from the same CA.
                    ssl.keystore.type=PEM
                    ssl.keystore.location=%1$s/broker-keystore.pem
                    sasl.enabled.mechanisms=SCRAM-SHA-512,PLAIN,OAUTHBEARER
                    listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
                    listener.name.sasl_ssl.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_%2$s="%3$s";
                    # OAUTHBEARER: RS256 tokens checked against the JWKS of the tests' issuer (its key in %1$s/oauth.key)
                    listener.name.sasl_ssl.oauthbearer.sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;
                    listener.name.sasl_ssl.oauthbearer.sasl.server.callback.handler.class=org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler
                    listener.name.sasl_ssl.oauthbearer.sasl.oauthbearer.jwks.endpoint.url=file://%1$s/jwks.json
                    listener.name.ssl.ssl.client.auth=required
                    listener.name.ssl.ssl.truststore.type=PEM
                    listener.name.ssl.ssl.truststore.location=%1$s/ca.pem
                    """.formatted(tls, PLAIN_USER, PLAIN_PASSWORD));
        }
        return sb.toString();
    }

    /** Formats the data directory once, with a new cluster id. */
    private void format(String classpath) {
        if (Files.exists(dir().resolve("data/meta.properties"))) {
            return;
        }
        Supervisor.Result uuid = tool(classpath, List.of("kafka.tools.StorageTool", "random-uuid"));
        if (!uuid.ok()) {
            Console.tail(uuid.output(), 25);
            throw new ServiceException("kafka: 'kafka.tools.StorageTool random-uuid' failed");
        }
        // the id is the one line shaped like one (22 characters of URL-safe base64); a JVM warning may share the output
        String clusterId = uuid.output().lines().map(String::strip).filter(l -> l.matches("[A-Za-z0-9_-]{22}"))
                .reduce((a, b) -> b).orElseThrow(() -> new ServiceException("kafka: no cluster id in the output of"
                        + " 'kafka.tools.StorageTool random-uuid': " + uuid.output().strip()));
        Supervisor.Result r = tool(classpath, List.of("kafka.tools.StorageTool", "format", "-t", clusterId, "-c", marker()));
        if (!r.ok()) {
            Console.tail(r.output(), 25);
            throw new ServiceException("kafka: formatting " + dir().resolve("data") + " failed");
        }
        Console.say("kafka: formatted " + dir().resolve("data") + " (cluster id " + clusterId + ")");
    }

    /** Runs a Java main class on the Kafka classpath with quiet tool logging, to its end. */
    Supervisor.Result tool(List<String> classAndArgs) {
        return tool(classpath(), classAndArgs);
    }

    private Supervisor.Result tool(String classpath, List<String> classAndArgs) {
        return Supervisor.run(toolCommand(classAndArgs), Map.of("CLASSPATH", classpath), null);
    }

    /** The command line of a Kafka tool (the classpath goes in the CLASSPATH variable). */
    List<String> toolCommand(List<String> classAndArgs) {
        List<String> cmd = new ArrayList<>(List.of(Supervisor.java(), "-Xmx256m", "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-Djava.awt.headless=true",
                "-Dlog4j2.configurationFile=" + settings.root().resolve("services/kafka/tools-log4j2.properties")));
        cmd.addAll(classAndArgs);
        return cmd;
    }

    /**
     * The broker and tools classpath, resolved with Maven when the pom changed (the cache file's name
     * carries the pom's sha256) or a jar it lists has gone from the local repository.
     */
    String classpath() {
        Path pom = settings.root().resolve("services/kafka/pom.xml");
        if (!Files.exists(pom)) {
            throw new ServiceException("kafka: " + pom + " is missing");
        }
        Path dir = settings.cacheDir().resolve("kafka");
        Path file;
        try {
            file = dir.resolve("classpath-" + sha256(pom) + ".txt");
        } catch (IOException e) {
            throw new ServiceException("kafka: cannot read " + pom + ": " + e.getMessage(), e);
        }
        if (!complete(file)) {
            Supervisor.locked(dir.resolve(".lock"), () -> resolve(pom, file));
        }
        try {
            return Files.readString(file).strip();
        } catch (IOException e) {
            throw new ServiceException("kafka: cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** Whether the classpath file exists and every jar it lists is still there. */
    static boolean complete(Path file) {
        try {
            if (!Files.exists(file) || Files.size(file) == 0) {
                return false;
            }
            for (String jar : Files.readString(file).strip().split(":")) {
                if (!Files.isRegularFile(Path.of(jar))) {
                    return false;
                }
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static Path resolve(Path pom, Path file) throws IOException {
        if (complete(file)) {
            return file; // resolved by a concurrent start
        }
        Supervisor.require("mvn");
        Console.say("kafka: resolving the Kafka 4.2.0 classpath with Maven (first run downloads ~60 MB)");
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp." + ProcessHandle.current().pid());
        Supervisor.Result r = Supervisor.run(List.of("mvn", "-B", "-q", "-f", pom.toString(),
                "dependency:build-classpath", "-Dmdep.outputFile=" + tmp), Map.of(), null);
        if (!r.ok()) {
            Files.deleteIfExists(tmp);
            Console.tail(r.output(), 25);
            throw new ServiceException("kafka: 'mvn -f " + pom + " dependency:build-classpath' failed");
        }
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return file;
    }

    static String sha256(Path file) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The secure listeners and the files the tests need, by the names {@code bin/tributary test} exports
     * them under; empty when the broker was made without openssl.
     */
    Map<String, String> secureEnvironment() {
        Map<String, String> env = new LinkedHashMap<>();
        if (Files.exists(tls().resolve("ca.pem"))) {
            env.put("TRIBUTARY_TEST_KAFKA_SASL_SSL_BOOTSTRAP", "localhost:" + settings.kafkaSaslSslPort());
            env.put("TRIBUTARY_TEST_KAFKA_SSL_BOOTSTRAP", "localhost:" + settings.kafkaSslPort());
            env.put("TRIBUTARY_TEST_KAFKA_CA_FILE", tls().resolve("ca.pem").toString());
            env.put("TRIBUTARY_TEST_KAFKA_CA_KEY", tls().resolve("ca.key").toString());
            env.put("TRIBUTARY_TEST_KAFKA_OAUTH_KEY", tls().resolve("oauth.key").toString());
        }
        return env;
    }
}
