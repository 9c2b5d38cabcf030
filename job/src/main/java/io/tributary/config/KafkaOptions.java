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
        String where = " (where the Kafka clients run)";
        securityProtocol = new Option<>(prefix + "security.protocol", null,
                "Security protocol to " + cluster + "; default: Kafka's (`PLAINTEXT`). `SASL_PLAINTEXT` with `PLAIN` is warned"
                        + " of at start (the password travels readable). See docs/production.md#kafka-over-tls-and-sasl",
                Option.Type.oneOf(KafkaOptions::protocol, "PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"));
        saslMechanism = new Option<>(prefix + "sasl.mechanism", null,
                "SASL mechanism, only with a `SASL_*` protocol, which needs one: `PLAIN` and `SCRAM-*` take `" + prefix
                        + "sasl.username` and a password, `OAUTHBEARER` the client credentials grant",
                Option.Type.oneOf(KafkaOptions::mechanism, "PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"));
        saslUsername = new Option<>(prefix + "sasl.username", null, "SASL user, needed with PLAIN and SCRAM", Options.STRING);
        saslPasswordEnv = new Option<>(prefix + "sasl.password-env", null,
                "Name of the environment variable" + where + " holding the SASL password; PLAIN and SCRAM need it or `"
                        + prefix + "sasl.password-file`", Options.ENV);
        saslPasswordFile = new Option<>(prefix + "sasl.password-file", null,
                "Path of a file" + where + " holding the SASL password", Options.FILE);
        oauthTokenEndpointUrl = new Option<>(prefix + "sasl.oauthbearer.token-endpoint-url", null,
                "OAUTHBEARER (needs it): the OAuth token endpoint of the client credentials grant; added to"
                        + " `org.apache.kafka.sasl.oauthbearer.allowed.urls`, which Kafka 4 requires", new Option.Type<>("URL", Options::string));
        oauthClientId = new Option<>(prefix + "sasl.oauthbearer.client-id", null, "OAUTHBEARER (needs it): the client id", Options.STRING);
        oauthClientSecretEnv = new Option<>(prefix + "sasl.oauthbearer.client-secret-env", null,
                "OAUTHBEARER: environment variable" + where + " holding the client secret; it or `" + prefix
                        + "sasl.oauthbearer.client-secret-file` is needed", Options.ENV);
        oauthClientSecretFile = new Option<>(prefix + "sasl.oauthbearer.client-secret-file", null,
                "OAUTHBEARER: file holding the client secret", Options.FILE);
        oauthScope = new Option<>(prefix + "sasl.oauthbearer.scope", null, "OAUTHBEARER: scope to ask for (optional)", Options.STRING);
        tlsCaFile = new Option<>(prefix + "tls.ca-file", null,
                "PEM bundle of the CAs that sign the brokers' certificates, with `SSL` or `SASL_SSL`; default: the JVM's trust store",
                Options.FILE);
        tlsClientCertFile = new Option<>(prefix + "tls.client-cert-file", null,
                "PEM client certificate (chain) for brokers that require one, with `SSL` or `SASL_SSL`, given with `" + prefix
                        + "tls.client-key-file`; read when the clients start (a renewed one is used after the job's next restart)",
                Options.FILE);
        tlsClientKeyFile = new Option<>(prefix + "tls.client-key-file", null,
                "PEM private key of the client certificate: PKCS #8, plain or encrypted with PBES1 (`openssl pkcs8 -topk8 -v1"
                        + " PBE-SHA1-3DES`); the Kafka clients cannot read PBES2 (OpenSSL's default) on Java 17, which is refused at"
                        + " start", Options.FILE);
        tlsClientKeyPasswordEnv = new Option<>(prefix + "tls.client-key-password-env", null,
                "Environment variable" + where + " holding the client key's password", Options.ENV);
        tlsClientKeyPasswordFile = new Option<>(prefix + "tls.client-key-password-file", null,
                "File holding the client key's password", Options.FILE);
        tlsVerifyHostname = new Option<>(prefix + "tls.verify-hostname", true,
                "Check that each broker's certificate names its host; `false` is warned of at start", Options.BOOLEAN);
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
