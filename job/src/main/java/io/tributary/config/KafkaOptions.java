package io.tributary.config;

import io.tributary.kafka.KafkaConnection;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The security settings of one Kafka cluster, under a prefix: {@code kafka.} for the cluster the
 * job reads (and, unless {@code dlq.kafka.bootstrap-servers} names another, writes dead letters
 * to), {@code dlq.kafka.} for a dead-letter cluster of its own. Keys are a public interface.
 */
public final class KafkaOptions {

    static final Set<String> PROTOCOLS = Set.of("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL");
    static final Set<String> MECHANISMS = Set.of("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER");

    final String prefix;
    public final Option<String> securityProtocol;
    public final Option<String> saslMechanism;
    public final Option<String> saslUsername;
    public final Option<String> saslPasswordEnv;
    public final Option<String> saslPasswordFile;
    public final Option<String> oauthTokenEndpointUrl;
    public final Option<String> oauthClientId;
    public final Option<String> oauthClientSecretEnv;
    public final Option<String> oauthClientSecretFile;
    public final Option<String> oauthScope;
    public final Option<String> tlsCaFile;
    public final Option<String> tlsClientCertFile;
    public final Option<String> tlsClientKeyFile;
    public final Option<String> tlsClientKeyPasswordEnv;
    public final Option<String> tlsClientKeyPasswordFile;
    public final Option<Boolean> tlsVerifyHostname;

    KafkaOptions(String prefix, String cluster) {
        this.prefix = prefix;
        securityProtocol = new Option<>(prefix + "security.protocol", null,
                "PLAINTEXT | SSL | SASL_PLAINTEXT | SASL_SSL, to " + cluster, KafkaOptions::protocol);
        saslMechanism = new Option<>(prefix + "sasl.mechanism", null,
                "PLAIN | SCRAM-SHA-256 | SCRAM-SHA-512 | OAUTHBEARER (with a SASL_* protocol)", KafkaOptions::mechanism);
        saslUsername = new Option<>(prefix + "sasl.username", null, "SASL user (PLAIN, SCRAM)", Options::string);
        saslPasswordEnv = new Option<>(prefix + "sasl.password-env", null,
                "Name of the environment variable (where the Kafka client runs) holding the SASL password", Options::string);
        saslPasswordFile = new Option<>(prefix + "sasl.password-file", null,
                "Path of a file holding the SASL password", Options::string);
        oauthTokenEndpointUrl = new Option<>(prefix + "sasl.oauthbearer.token-endpoint-url", null,
                "OAUTHBEARER: the OAuth token endpoint (client credentials grant)", Options::string);
        oauthClientId = new Option<>(prefix + "sasl.oauthbearer.client-id", null, "OAUTHBEARER: the client id", Options::string);
        oauthClientSecretEnv = new Option<>(prefix + "sasl.oauthbearer.client-secret-env", null,
                "OAUTHBEARER: environment variable holding the client secret", Options::string);
        oauthClientSecretFile = new Option<>(prefix + "sasl.oauthbearer.client-secret-file", null,
                "OAUTHBEARER: file holding the client secret", Options::string);
        oauthScope = new Option<>(prefix + "sasl.oauthbearer.scope", null, "OAUTHBEARER: scope to ask for", Options::string);
        tlsCaFile = new Option<>(prefix + "tls.ca-file", null,
                "PEM bundle of the CAs that sign the brokers' certificates; default: the JVM's trust store", Options::string);
        tlsClientCertFile = new Option<>(prefix + "tls.client-cert-file", null,
                "PEM client certificate (chain), for brokers that require one", Options::string);
        tlsClientKeyFile = new Option<>(prefix + "tls.client-key-file", null,
                "PEM (PKCS #8, maybe encrypted) private key of the client certificate", Options::string);
        tlsClientKeyPasswordEnv = new Option<>(prefix + "tls.client-key-password-env", null,
                "Environment variable holding the client key's password", Options::string);
        tlsClientKeyPasswordFile = new Option<>(prefix + "tls.client-key-password-file", null,
                "File holding the client key's password", Options::string);
        tlsVerifyHostname = new Option<>(prefix + "tls.verify-hostname", true,
                "Check that each broker's certificate names its host", Options::bool);
    }

    List<Option<?>> all() {
        return List.of(securityProtocol, saslMechanism, saslUsername, saslPasswordEnv, saslPasswordFile,
                oauthTokenEndpointUrl, oauthClientId, oauthClientSecretEnv, oauthClientSecretFile, oauthScope,
                tlsCaFile, tlsClientCertFile, tlsClientKeyFile, tlsClientKeyPasswordEnv, tlsClientKeyPasswordFile,
                tlsVerifyHostname);
    }

    /** Whether any of these settings is given (not only defaulted). */
    boolean anyGiven(Map<String, ?> given) {
        return all().stream().anyMatch(o -> given.containsKey(o.key()));
    }

    KafkaConnection connection(TributaryConfig c, String bootstrap, Map<String, String> properties) {
        return new KafkaConnection(prefix, bootstrap, c.get(securityProtocol), c.get(saslMechanism), c.get(saslUsername),
                c.get(saslPasswordEnv), c.get(saslPasswordFile), c.get(oauthTokenEndpointUrl), c.get(oauthClientId),
                c.get(oauthClientSecretEnv), c.get(oauthClientSecretFile), c.get(oauthScope), c.get(tlsCaFile),
                c.get(tlsClientCertFile), c.get(tlsClientKeyFile), c.get(tlsClientKeyPasswordEnv),
                c.get(tlsClientKeyPasswordFile), c.get(tlsVerifyHostname), properties);
    }

    /** Settings that contradict each other or miss a partner, naming the key. */
    void check(TributaryConfig c, Map<String, String> properties) {
        String protocol = c.get(securityProtocol);
        String mechanism = c.get(saslMechanism);
        Map<String, Option<?>> overlaps = Map.of(
                "security.protocol", securityProtocol,
                "sasl.mechanism", saslMechanism,
                "sasl.jaas.config", saslMechanism,
                "ssl.truststore.location", tlsCaFile,
                "ssl.truststore.certificates", tlsCaFile,
                "ssl.keystore.location", tlsClientCertFile,
                "ssl.keystore.key", tlsClientCertFile);
        for (Map.Entry<String, Option<?>> o : overlaps.entrySet()) {
            if (properties.containsKey(o.getKey()) && c.given().containsKey(o.getValue().key())) {
                throw new ConfigException(propertiesPrefix() + o.getKey() + ": set either " + o.getValue().key()
                        + " or the raw Kafka client property, not both");
            }
        }
        boolean sasl = protocol != null && protocol.startsWith("SASL_");
        boolean tls = protocol != null && protocol.endsWith("SSL");
        if (mechanism != null && !sasl) {
            throw new ConfigException(saslMechanism.key() + ": needs " + securityProtocol.key() + " SASL_SSL (or SASL_PLAINTEXT)");
        }
        if (sasl && mechanism == null) {
            throw new ConfigException(saslMechanism.key() + ": " + securityProtocol.key() + " = " + protocol
                    + " needs a mechanism: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 or OAUTHBEARER");
        }
        Options.either(c, saslPasswordEnv, saslPasswordFile);
        Options.either(c, oauthClientSecretEnv, oauthClientSecretFile);
        Options.either(c, tlsClientKeyPasswordEnv, tlsClientKeyPasswordFile);
        if (mechanism != null && mechanism.equals("OAUTHBEARER")) {
            for (Option<String> o : List.of(oauthTokenEndpointUrl, oauthClientId)) {
                if (c.get(o) == null) {
                    throw new ConfigException(o.key() + ": needed with " + saslMechanism.key() + " OAUTHBEARER");
                }
            }
            if (c.get(oauthClientSecretEnv) == null && c.get(oauthClientSecretFile) == null) {
                throw new ConfigException(oauthClientSecretEnv.key() + ": OAUTHBEARER needs the client secret from "
                        + oauthClientSecretEnv.key() + " or " + oauthClientSecretFile.key());
            }
        } else if (mechanism != null) {
            if (c.get(saslUsername) == null) {
                throw new ConfigException(saslUsername.key() + ": needed with " + saslMechanism.key() + " " + mechanism);
            }
            if (c.get(saslPasswordEnv) == null && c.get(saslPasswordFile) == null) {
                throw new ConfigException(saslPasswordEnv.key() + ": " + mechanism + " needs the password from "
                        + saslPasswordEnv.key() + " or " + saslPasswordFile.key());
            }
        }
        if ((c.get(tlsClientCertFile) == null) != (c.get(tlsClientKeyFile) == null)) {
            Option<String> missing = c.get(tlsClientCertFile) == null ? tlsClientCertFile : tlsClientKeyFile;
            throw new ConfigException(missing.key() + ": a client certificate needs both " + tlsClientCertFile.key()
                    + " and " + tlsClientKeyFile.key());
        }
        for (Option<?> o : List.of(tlsCaFile, tlsClientCertFile)) {
            if (c.get(o) != null && !tls) {
                throw new ConfigException(o.key() + ": needs " + securityProtocol.key() + " SSL or SASL_SSL");
            }
        }
    }

    List<String> warnings(TributaryConfig c) {
        List<String> out = new ArrayList<>();
        if ("SASL_PLAINTEXT".equals(c.get(securityProtocol)) && "PLAIN".equals(c.get(saslMechanism))) {
            out.add(securityProtocol.key() + " = SASL_PLAINTEXT with PLAIN: the Kafka password travels readable; use SASL_SSL");
        }
        if (!c.get(tlsVerifyHostname)) {
            out.add(tlsVerifyHostname.key() + " = false: the brokers' certificates are not checked to name their hosts");
        }
        return out;
    }

    private String propertiesPrefix() {
        return prefix + "properties.";
    }

    private static String protocol(String s) {
        String v = s.trim().toUpperCase(Locale.ROOT);
        if (!PROTOCOLS.contains(v)) {
            throw new IllegalArgumentException("must be PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL");
        }
        return v;
    }

    private static String mechanism(String s) {
        String v = s.trim().toUpperCase(Locale.ROOT);
        if (!MECHANISMS.contains(v)) {
            throw new IllegalArgumentException("must be PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 or OAUTHBEARER");
        }
        return v;
    }
}
