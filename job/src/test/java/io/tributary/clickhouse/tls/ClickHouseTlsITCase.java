package io.tributary.clickhouse.tls;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.TributaryJob;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.schema.TableEngine;
import io.tributary.testing.RealServices;
import io.tributary.testing.Socat;
import io.tributary.testing.TlsFiles;
import io.tributary.testing.UniqueSpans;
import io.tributary.testing.oracle.RandomOtlp;
import io.tributary.topology.SchemaManager;
import io.tributary.topology.TributaryTopology;

import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The job over TLS and mutual TLS to the real ClickHouse, through socat terminators holding
 * certificates made with openssl: what a good CA writes, what each wrong setting says at start,
 * and a client certificate renewed on disk while the job runs.
 */
class ClickHouseTlsITCase {

    @RegisterExtension
    static final MiniClusterExtension FLINK = RealServices.miniCluster(2);

    private static TlsFiles files;
    /** TLS, no client certificate asked. */
    private static Socat tls;
    /** Mutual TLS: a client certificate from the test CA is required. */
    private static Socat mtls;
    private static String topic;
    private static int records;

    @BeforeAll
    static void setUp() throws Exception {
        files = TlsFiles.make(Files.createTempDirectory("tributary-tls"));
        int chPort = URI.create(RealServices.clickHouseUrl()).getPort();
        tls = new Socat(files.serverCert, files.serverKey, null, chPort);
        mtls = new Socat(files.serverCert, files.serverKey, files.ca, chPort);
        topic = RealServices.uniqueName("it_tls");
        RealServices.createTopic(topic, 2);
        RandomOtlp random = new RandomOtlp(13);
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            values.add(i % 2 == 0 ? random.scramble(random.traces()) : random.encode(random.traces()));
        }
        records = values.size();
        RealServices.produce(topic, values);
    }

    @AfterAll
    static void tearDown() throws Exception {
        if (tls != null) {
            tls.close();
        }
        if (mtls != null) {
            mtls.close();
        }
    }

    private static String[] args(String db, String url, String... more) {
        String[] base = {
            "--signals", "traces",
            "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
            "--kafka.topics.traces", topic,
            "--kafka.group-id", db,
            "--kafka.starting-offsets", "earliest",
            "--kafka.bounded", "true",
            "--clickhouse.url", url,
            "--clickhouse.database", db,
            "--dlq.topic", "",
            "--checkpoint.interval", "1s",
            "--flink.restart-strategy.type", "none"
        };
        return RealServices.concat(base, more);
    }

    /** Runs a bounded job into a fresh database; returns the database. */
    private static String run(String url, String... more) throws Exception {
        String db = RealServices.uniqueName("it_tls");
        TributaryConfig config = TributaryConfig.fromArgs(args(db, url, more));
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
        TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), config);
        return db;
    }

    private static List<String> rows(String db) throws Exception {
        return RealServices.rows(db, "otel_traces");
    }

    @Test
    void overTlsAndMutualTlsTheJobWritesWhatItWritesOverPlainHttp() throws Exception {
        String plain = run(RealServices.clickHouseUrl());
        String overTls = run(tls.url("localhost"), "--clickhouse.tls.ca-file", files.ca.toString());
        // mutual TLS with a key encrypted with a password from a file, and one in PKCS #1
        String overMtls = run(mtls.url("localhost"),
                "--clickhouse.tls.ca-file", files.ca.toString(),
                "--clickhouse.tls.client-cert-file", files.clientCert.toString(),
                "--clickhouse.tls.client-key-file", files.clientKeyEncrypted.toString(),
                "--clickhouse.tls.client-key-password-file", files.keyPasswordFile.toString());
        String pkcs1 = run(mtls.url("localhost"),
                "--clickhouse.tls.ca-file", files.ca.toString(),
                "--clickhouse.tls.client-cert-file", files.clientCert.toString(),
                "--clickhouse.tls.client-key-file", files.clientKeyPkcs1.toString());
        // the name left unchecked, on request: 127.0.0.1 is not in the certificate
        String unchecked = run(tls.url("127.0.0.1"), "--clickhouse.tls.ca-file", files.ca.toString(),
                "--clickhouse.tls.verify-hostname", "false");
        try {
            List<String> expected = rows(plain);
            assertThat(expected).hasSizeGreaterThan(records);
            assertThat(rows(overTls)).isEqualTo(expected);
            assertThat(rows(overMtls)).isEqualTo(expected);
            assertThat(rows(pkcs1)).isEqualTo(expected);
            assertThat(rows(unchecked)).isEqualTo(expected);
        } finally {
            RealServices.dropDatabases(plain, overTls, overMtls, pkcs1, unchecked);
        }
    }

    /** What the job says, failing before it is submitted. */
    private static String failure(String url, String... more) {
        return RealServices.startFailure(TributaryConfig.fromArgs(args(RealServices.uniqueName("it_tls_bad"), url, more)));
    }

    @Test
    void eachSettingThatDoesNotFitFailsAtStartNamingTheKey() throws Exception {
        assertThat(failure(tls.url("localhost")))
                .as("no CA file: the JVM's trust store does not know the test CA")
                .contains("is not trusted by the JVM's trust store (set clickhouse.tls.ca-file");
        assertThat(failure(tls.url("localhost"), "--clickhouse.tls.ca-file", files.otherCa.toString()))
                .contains("is not trusted by the CAs of clickhouse.tls.ca-file = " + files.otherCa);
        assertThat(failure(tls.url("127.0.0.1"), "--clickhouse.tls.ca-file", files.ca.toString()))
                .contains("ClickHouse's certificate does not name the host of clickhouse.url")
                .contains("clickhouse.tls.verify-hostname = false");
        assertThat(failure(mtls.url("localhost"), "--clickhouse.tls.ca-file", files.ca.toString()))
                .contains("it asks for a client certificate: set clickhouse.tls.client-cert-file and"
                        + " clickhouse.tls.client-key-file");
        assertThat(failure(mtls.url("localhost"), "--clickhouse.tls.ca-file", files.ca.toString(),
                "--clickhouse.tls.client-cert-file", files.wrongClientCert.toString(),
                "--clickhouse.tls.client-key-file", files.wrongClientKey.toString()))
                .contains("it does not accept the client certificate of clickhouse.tls.client-cert-file = "
                        + files.wrongClientCert);
        Path wrongPassword = files.dir.resolve("wrong-password");
        Files.writeString(wrongPassword, "not-it\n");
        assertThat(failure(mtls.url("localhost"), "--clickhouse.tls.ca-file", files.ca.toString(),
                "--clickhouse.tls.client-cert-file", files.clientCert.toString(),
                "--clickhouse.tls.client-key-file", files.clientKeyEncrypted.toString(),
                "--clickhouse.tls.client-key-password-file", wrongPassword.toString()))
                .contains("clickhouse.tls.client-key-password-file: the password does not decrypt");
        assertThat(failure(mtls.url("localhost"), "--clickhouse.tls.ca-file", files.ca.toString(),
                "--clickhouse.tls.client-cert-file", files.clientCert.toString(),
                "--clickhouse.tls.client-key-file", files.wrongClientKey.toString()))
                .contains("clickhouse.tls.client-key-file: the key is not the key of the certificate in"
                        + " clickhouse.tls.client-cert-file");
        assertThat(failure(RealServices.clickHouseUrl().replace("http://", "https://"),
                "--clickhouse.tls.ca-file", files.ca.toString()))
                .contains("the server does not speak TLS on that port");
    }

    @Test
    void aClientCertificateRenewedOnDiskIsUsedWithoutARestart() throws Exception {
        Path cert = files.dir.resolve("rotating.pem");
        Path key = files.dir.resolve("rotating.key");
        Files.copy(files.clientCert, cert, StandardCopyOption.REPLACE_EXISTING);
        Files.copy(files.clientKey, key, StandardCopyOption.REPLACE_EXISTING);
        Path newCa = files.dir.resolve("new-ca.pem");
        Path newCaKey = files.dir.resolve("new-ca.key");
        files.newCa(newCa, newCaKey, "Tributary Test CA 2");
        // during the rotation the server trusts both CAs, then only the new one: what the old
        // certificate cannot pass
        Path both = files.dir.resolve("both-cas.pem");
        Files.writeString(both, Files.readString(files.ca) + Files.readString(newCa));
        int chPort = URI.create(RealServices.clickHouseUrl()).getPort();
        String liveTopic = RealServices.uniqueName("it_tls_rotate");
        RealServices.createTopic(liveTopic, 1);
        String db = RealServices.uniqueName("it_tls_rotate");
        try (Socat server = new Socat(files.serverCert, files.serverKey, both, chPort)) {
            String[] keys = RealServices.concat(args(db, server.url("localhost"),
                    "--clickhouse.tls.ca-file", files.ca.toString(),
                    "--clickhouse.tls.client-cert-file", cert.toString(),
                    "--clickhouse.tls.client-key-file", key.toString(),
                    "--kafka.topics.traces", liveTopic,
                    "--sink.batch.max-age", "200ms"), "--kafka.bounded", "false");
            TributaryConfig config = TributaryConfig.fromArgs(keys);
            SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            TributaryTopology.build(env, config);
            JobClient job = env.executeAsync("tls rotation");
            try {
                RealServices.produce(liveTopic, List.of(UniqueSpans.spans(0).toByteArray()));
                RealServices.awaitCount(db, "otel_traces", UniqueSpans.PER_RECORD, 60);
                assertThat(RealServices.count(db, "otel_traces")).isEqualTo(UniqueSpans.PER_RECORD);

                files.renewClient(cert, key, newCa, newCaKey);
                Thread.sleep(1_500); // past the client's look at the files
                server.restart(files.serverCert, files.serverKey, newCa);
                RealServices.produce(liveTopic, List.of(UniqueSpans.spans(UniqueSpans.PER_RECORD).toByteArray()));
                RealServices.awaitCount(db, "otel_traces", 2 * UniqueSpans.PER_RECORD, 60);
                assertThat(RealServices.clickHouse().query("SELECT count(), uniqExact(SpanId) FROM `" + db
                        + "`.otel_traces FORMAT TSV")).isEqualTo((2 * UniqueSpans.PER_RECORD) + "\t" + (2 * UniqueSpans.PER_RECORD) + "\n");
                // no restart (the strategy is none: a failure would have ended the job)
                assertThat(job.getJobStatus().get(10, TimeUnit.SECONDS)).isEqualTo(JobStatus.RUNNING);
            } finally {
                job.cancel().get(60, TimeUnit.SECONDS);
            }
        } finally {
            RealServices.dropDatabases(db);
        }
    }
}
