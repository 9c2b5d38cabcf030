package io.tributary.kafka;

import java.io.Serializable;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeMap;

/**
 * How a Kafka client reaches one cluster: its brokers, TLS (a PEM CA bundle, a client certificate)
 * and SASL (PLAIN, SCRAM-SHA-256/512, OAUTHBEARER with client credentials), plus the raw {@code
 * kafka.properties.*}. Secrets are never values here: {@link #properties()} refers to them through
 * {@link SecretsConfigProvider}, which reads each from its environment variable or file where the
 * client runs. Serializable: it travels in the job graph to the TaskManagers.
 *
 * @param prefix the settings' prefix ({@code kafka.} or {@code dlq.kafka.}), for messages
 */
public record KafkaConnection(
        String prefix,
        String bootstrapServers,
        String securityProtocol,
        String saslMechanism,
        String saslUsername,
        String saslPasswordEnv,
        String saslPasswordFile,
        String oauthTokenEndpointUrl,
        String oauthClientId,
        String oauthClientSecretEnv,
        String oauthClientSecretFile,
        String oauthScope,
        String caFile,
        String clientCertFile,
        String clientKeyFile,
        String clientKeyPasswordEnv,
        String clientKeyPasswordFile,
        boolean verifyHostname,
        Map<String, String> extraProperties)
        implements Serializable {

    public KafkaConnection {
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        extraProperties = new TreeMap<>(extraProperties);
    }

    /** A plain connection: brokers and raw client properties only. */
    public static KafkaConnection plain(String bootstrapServers, Map<String, String> properties) {
        return new KafkaConnection("kafka.", bootstrapServers, null, null, null, null, null, null, null, null, null, null,
                null, null, null, null, null, true, properties);
    }

    /**
     * The client properties, without {@code bootstrap.servers}: {@code kafka.properties.*} plus
     * what the security settings mean to a Kafka client.
     */
    public Map<String, String> properties() {
        Map<String, String> p = new TreeMap<>(extraProperties);
        boolean secrets = false;
        if (securityProtocol != null) {
            p.put("security.protocol", securityProtocol);
        }
        if (caFile != null) {
            p.put("ssl.truststore.type", "PEM");
            p.put("ssl.truststore.location", caFile);
        }
        if (clientCertFile != null) {
            p.put("ssl.keystore.type", "PEM");
            p.put("ssl.keystore.certificate.chain", SecretsConfigProvider.reference(prefix + "tls.client-cert-file", clientCertFile));
            p.put("ssl.keystore.key", SecretsConfigProvider.reference(prefix + "tls.client-key-file", clientKeyFile));
            String password = secret("tls.client-key-password", clientKeyPasswordEnv, clientKeyPasswordFile, false);
            if (password != null) {
                p.put("ssl.key.password", password);
            }
            secrets = true;
        }
        if (!verifyHostname) {
            p.put("ssl.endpoint.identification.algorithm", "");
        }
        if (saslMechanism != null) {
            p.put("sasl.mechanism", saslMechanism);
            switch (saslMechanism) {
                case "PLAIN":
                    p.put("sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required username=\""
                            + quote(saslUsername) + "\" password=\"" + secret("sasl.password", saslPasswordEnv, saslPasswordFile, true) + "\";");
                    break;
                case "OAUTHBEARER":
                    p.put("sasl.login.callback.handler.class",
                            "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler");
                    p.put("sasl.oauthbearer.token.endpoint.url",
                            SecretsConfigProvider.reference(SecretsConfigProvider.ALLOW_URL, oauthTokenEndpointUrl));
                    p.put("sasl.jaas.config", "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required"
                            + " clientId=\"" + quote(oauthClientId) + "\" clientSecret=\""
                            + secret("sasl.oauthbearer.client-secret", oauthClientSecretEnv, oauthClientSecretFile, true) + "\""
                            + (oauthScope == null ? "" : " scope=\"" + quote(oauthScope) + "\"") + ";");
                    break;
                default: // SCRAM-SHA-256, SCRAM-SHA-512
                    p.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                            + quote(saslUsername) + "\" password=\"" + secret("sasl.password", saslPasswordEnv, saslPasswordFile, true) + "\";");
            }
            secrets = true;
        }
        if (secrets) {
            String providers = p.get("config.providers");
            p.put("config.providers", providers == null || providers.isBlank()
                    ? SecretsConfigProvider.NAME : providers + "," + SecretsConfigProvider.NAME);
            p.put("config.providers." + SecretsConfigProvider.NAME + ".class", SecretsConfigProvider.class.getName());
        }
        return p;
    }

    /**
     * Where and how, with the raw properties' names only: a {@code kafka.properties.*} value given
     * in the {@code --config} file may be a password, and a record prints every component.
     */
    @Override
    public String toString() {
        return "KafkaConnection[" + prefix + "bootstrap-servers=" + bootstrapServers + ", security.protocol="
                + securityProtocol + ", sasl.mechanism=" + saslMechanism + ", properties=" + extraProperties.keySet() + "]";
    }

    /** {@link #properties()} with {@code bootstrap.servers}, as {@link Properties}. */
    public Properties clientProperties() {
        Properties p = new Properties();
        p.putAll(properties());
        p.put("bootstrap.servers", bootstrapServers);
        return p;
    }

    /** A reference to the secret of {@code <prefix><setting>-env} or {@code -file}, null when neither is set. */
    private String secret(String setting, String env, String file, boolean jaas) {
        String key = env != null ? prefix + setting + "-env" : file != null ? prefix + setting + "-file" : null;
        if (key == null) {
            return null;
        }
        return SecretsConfigProvider.reference(jaas ? "jaas/" + key : key, env != null ? env : file);
    }

    private static String quote(String s) {
        return s == null ? "" : s.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
