package io.tributary.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.config.TributaryConfig;

import org.apache.kafka.common.config.ConfigData;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/** What the kafka.security / sasl / tls settings mean to a Kafka client, and how its secrets are read. */
class KafkaConnectionTest {

    private static Map<String, String> properties(String... args) {
        return TributaryConfig.fromArgs(args).kafka().properties();
    }

    @Test
    void scramOverSaslSslRefersToThePasswordAndNeverHoldsIt() {
        Map<String, String> p = properties("--kafka.security.protocol", "sasl_ssl", "--kafka.sasl.mechanism", "scram-sha-512",
                "--kafka.sasl.username", "ingest \"eu\"", "--kafka.sasl.password-env", "KAFKA_PW",
                "--kafka.tls.ca-file", "/etc/ca.pem", "--kafka.properties.fetch.min.bytes", "1");
        assertThat(p).containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required"
                        + " username=\"ingest \\\"eu\\\"\" password=\"${tributary:jaas/kafka.sasl.password-env:KAFKA_PW}\";")
                .containsEntry("ssl.truststore.type", "PEM")
                .containsEntry("ssl.truststore.location", "/etc/ca.pem")
                .containsEntry("config.providers", "tributary")
                .containsEntry("config.providers.tributary.class", SecretsConfigProvider.class.getName())
                .containsEntry("fetch.min.bytes", "1")
                .doesNotContainKey("ssl.endpoint.identification.algorithm");
    }

    @Test
    void clientCertificatesAndOauthBearer() {
        Map<String, String> p = properties("--kafka.security.protocol", "SASL_SSL", "--kafka.sasl.mechanism", "OAUTHBEARER",
                "--kafka.sasl.oauthbearer.token-endpoint-url", "https://idp.example/token",
                "--kafka.sasl.oauthbearer.client-id", "tributary", "--kafka.sasl.oauthbearer.client-secret-file", "/run/secret",
                "--kafka.sasl.oauthbearer.scope", "kafka", "--kafka.tls.client-cert-file", "/etc/c.pem",
                "--kafka.tls.client-key-file", "/etc/c.key", "--kafka.tls.client-key-password-file", "/run/key-pw",
                "--kafka.tls.verify-hostname", "false", "--kafka.properties.config.providers", "file");
        assertThat(p).containsEntry("sasl.login.callback.handler.class",
                        "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler")
                .containsEntry("sasl.oauthbearer.token.endpoint.url", "${tributary:allow-url:https://idp.example/token}")
                .containsEntry("sasl.jaas.config", "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required"
                        + " clientId=\"tributary\" clientSecret=\"${tributary:jaas/kafka.sasl.oauthbearer.client-secret-file:/run/secret}\""
                        + " scope=\"kafka\";")
                .containsEntry("ssl.keystore.type", "PEM")
                .containsEntry("ssl.keystore.certificate.chain", "${tributary:kafka.tls.client-cert-file:/etc/c.pem}")
                .containsEntry("ssl.keystore.key", "${tributary:kafka.tls.client-key-file:/etc/c.key}")
                .containsEntry("ssl.key.password", "${tributary:kafka.tls.client-key-password-file:/run/key-pw}")
                .containsEntry("ssl.endpoint.identification.algorithm", "")
                .containsEntry("config.providers", "file,tributary");
    }

    @Test
    void settingsThatDoNotFitAreRefusedNamingTheKey() {
        assertThatThrownBy(() -> properties("--kafka.sasl.mechanism", "PLAIN"))
                .hasMessageStartingWith("kafka.sasl.mechanism: needs kafka.security.protocol SASL_SSL");
        assertThatThrownBy(() -> properties("--kafka.security.protocol", "SASL_SSL"))
                .hasMessageStartingWith("kafka.sasl.mechanism: kafka.security.protocol = SASL_SSL needs a mechanism");
        assertThatThrownBy(() -> properties("--kafka.security.protocol", "SASL_SSL", "--kafka.sasl.mechanism", "PLAIN",
                "--kafka.sasl.username", "u"))
                .hasMessageStartingWith("kafka.sasl.password-env: PLAIN needs the password from");
        assertThatThrownBy(() -> properties("--kafka.security.protocol", "SASL_SSL", "--kafka.sasl.mechanism", "OAUTHBEARER"))
                .hasMessageStartingWith("kafka.sasl.oauthbearer.");
        assertThatThrownBy(() -> properties("--kafka.tls.ca-file", "/etc/ca.pem"))
                .hasMessageStartingWith("kafka.tls.ca-file: needs kafka.security.protocol SSL or SASL_SSL");
        assertThatThrownBy(() -> properties("--kafka.security.protocol", "SSL", "--kafka.tls.client-cert-file", "/c"))
                .hasMessageStartingWith("kafka.tls.client-key-file: a client certificate needs both");
        assertThatThrownBy(() -> properties("--kafka.security.protocol", "TLS"))
                .hasMessageStartingWith("kafka.security.protocol");
        assertThatThrownBy(() -> properties("--kafka.security.protocol", "SSL", "--kafka.properties.security.protocol", "SSL"))
                .hasMessageStartingWith("kafka.properties.security.protocol: set either kafka.security.protocol or the raw");
        assertThatThrownBy(() -> properties("--dlq.kafka.security.protocol", "SSL"))
                .hasMessageStartingWith("dlq.kafka.security.protocol: the dlq.kafka.* settings are for a dead-letter cluster");
        assertThatThrownBy(() -> properties("--dlq.kafka.properties.sasl.jaas.config", "x"))
                .hasMessageStartingWith("dlq.kafka.properties.sasl.jaas.config: a secret (its type in the Kafka clients' ConfigDef is PASSWORD) is never a program argument");
    }

    @Test
    void whatTheStartUpCheckTakesForARefusalAndWhatForAnAbsence() {
        assertThat(KafkaCheck.refused(new org.apache.kafka.common.KafkaException("Failed to create new KafkaAdminClient",
                new ConfigException("kafka.sasl.password-file: cannot read '/x': No such file")))).isTrue();
        assertThat(KafkaCheck.refused(new org.apache.kafka.common.KafkaException("Failed to create new KafkaAdminClient",
                new ConfigException("No resolvable bootstrap urls given in bootstrap.servers")))).isFalse();
        assertThat(KafkaCheck.refused(new org.apache.kafka.common.KafkaException("login",
                new java.io.IOException("token endpoint", new java.net.ConnectException("Connection refused"))))).isFalse();
        assertThat(KafkaCheck.refused(new org.apache.kafka.common.KafkaException("login",
                new java.io.IOException("The response code 401 and error response {\"error\":\"invalid_client\"}")))).isTrue();
        KafkaConnection k = TributaryConfig.fromArgs(new String[0]).kafka();
        assertThat(KafkaCheck.explain(k, new org.apache.kafka.common.KafkaException("Failed to create new KafkaAdminClient",
                new ConfigException("kafka.sasl.password-file: cannot read '/run/x': No such file\nmore"))))
                .isEqualTo("kafka.sasl.password-file: cannot read '/run/x': No such file");
    }

    @Test
    void aClientKeyKafkaCannotReadNamesThePasswordWhenItIsThePassword() {
        KafkaConnection k = TributaryConfig.fromArgs(new String[] {"--kafka.security.protocol", "SSL",
            "--kafka.tls.client-cert-file", "/c.pem", "--kafka.tls.client-key-file", "/k.pem",
            "--kafka.tls.client-key-password-env", "KEY_PW"}).kafka();
        Exception wrongPassword = new org.apache.kafka.common.KafkaException("Failed to create new KafkaAdminClient",
                new org.apache.kafka.common.errors.InvalidConfigurationException("Invalid PEM keystore configs",
                        new java.security.spec.InvalidKeySpecException("Cannot retrieve the PKCS8EncodedKeySpec",
                                new javax.crypto.BadPaddingException("Given final block not properly padded."))));
        assertThat(KafkaCheck.refused(wrongPassword)).isTrue();
        assertThat(KafkaCheck.explain(k, wrongPassword))
                .startsWith("kafka.tls.client-key-password-env: the password does not decrypt the client key"
                        + " (kafka.tls.client-key-file = /k.pem)");
        Exception pbes2 = new org.apache.kafka.common.KafkaException("Failed to create new KafkaAdminClient",
                new org.apache.kafka.common.errors.InvalidConfigurationException("Invalid PEM keystore configs",
                        new java.security.NoSuchAlgorithmException("PBES2 SecretKeyFactory not available")));
        assertThat(KafkaCheck.explain(k, pbes2)).startsWith("kafka.tls.client-key-file: /k.pem is encrypted with PBES2");
    }

    @Test
    void deadLettersUseTheSourceClusterUnlessTheyHaveOneOfTheirOwn() {
        TributaryConfig same = TributaryConfig.fromArgs(new String[] {"--kafka.bootstrap-servers", "k:9092",
            "--kafka.security.protocol", "SSL"});
        assertThat(same.deadLetterKafka()).isEqualTo(same.kafka());
        TributaryConfig other = TributaryConfig.fromArgs(new String[] {"--kafka.bootstrap-servers", "k:9092",
            "--kafka.security.protocol", "SSL", "--dlq.kafka.bootstrap-servers", "dlq:9093",
            "--dlq.kafka.properties.acks", "all"});
        assertThat(other.deadLetterKafka().bootstrapServers()).isEqualTo("dlq:9093");
        assertThat(other.deadLetterKafka().properties()).containsExactly(Map.entry("acks", "all"));
    }

    @Test
    void theProviderReadsSecretsFromFilesAndQuotesThemForJaas(@TempDir Path dir) throws Exception {
        Path pw = Files.writeString(dir.resolve("pw"), "a\"b\\c\n");
        try (SecretsConfigProvider provider = new SecretsConfigProvider()) {
            ConfigData plain = provider.get("kafka.sasl.password-file", Set.of(pw.toString()));
            assertThat(plain.data()).containsExactly(Map.entry(pw.toString(), "a\"b\\c"));
            ConfigData jaas = provider.get("jaas/kafka.sasl.password-file", Set.of(pw.toString()));
            assertThat(jaas.data()).containsExactly(Map.entry(pw.toString(), "a\\\"b\\\\c"));
            Path twoLines = Files.writeString(dir.resolve("two-lines"), "alpha\nbeta\n");
            assertThatThrownBy(() -> provider.get("jaas/kafka.sasl.password-file", Set.of(twoLines.toString())))
                    .hasMessageStartingWith("kafka.sasl.password-file: the value of '" + twoLines + "' holds a second line end")
                    .hasMessageNotContaining("alpha").hasMessageNotContaining("beta");
            // the client certificate and key are PEM documents, taken whole
            String pem = "-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n";
            Path key = Files.writeString(dir.resolve("key.pem"), pem);
            assertThat(provider.get("dlq.kafka.tls.client-key-file", Set.of(key.toString())).data())
                    .containsExactly(Map.entry(key.toString(), pem));
            assertThat(provider.get("kafka.tls.client-cert-file", Set.of(key.toString())).data())
                    .containsExactly(Map.entry(key.toString(), pem));
            assertThatThrownBy(() -> provider.get("kafka.sasl.password-env", Set.of("TRIBUTARY_NO_SUCH_VARIABLE")))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("kafka.sasl.password-env: environment variable 'TRIBUTARY_NO_SUCH_VARIABLE' is not set");
            assertThatThrownBy(() -> provider.get("kafka.sasl.password-file", Set.of(dir.resolve("absent").toString())))
                    .hasMessageContaining("kafka.sasl.password-file: cannot read");
            String before = System.getProperty(SecretsConfigProvider.ALLOWED_URLS);
            try {
                System.setProperty(SecretsConfigProvider.ALLOWED_URLS, "https://a.example/token");
                assertThat(provider.get("allow-url", Set.of("https://idp.example/token")).data())
                        .containsEntry("https://idp.example/token", "https://idp.example/token");
                assertThat(System.getProperty(SecretsConfigProvider.ALLOWED_URLS))
                        .isEqualTo("https://a.example/token,https://idp.example/token");
            } finally {
                if (before == null) {
                    System.clearProperty(SecretsConfigProvider.ALLOWED_URLS);
                } else {
                    System.setProperty(SecretsConfigProvider.ALLOWED_URLS, before);
                }
            }
        }
    }
}
