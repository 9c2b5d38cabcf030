package io.tributary.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Connects to a Kafka cluster once at start, so that a refused password or certificate fails the
 * job before it is submitted, naming the setting to fix, instead of in a restart loop of its
 * sources. A cluster that does not answer in time is only reported: it may come back.
 */
public final class KafkaCheck {

    private KafkaCheck() {}

    /** What the check found: null when the cluster answered, else why not. */
    public record Outcome(String unreachable) {}

    /**
     * @throws IllegalArgumentException naming the setting when the cluster refuses the credentials
     *     or certificates, or a secret cannot be read
     */
    public static Outcome check(KafkaConnection kafka) {
        Properties p = kafka.clientProperties();
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000");
        p.put(AdminClientConfig.RETRIES_CONFIG, "2");
        p.remove(AdminClientConfig.CLIENT_ID_CONFIG);
        String prefix = kafka.prefix();
        Admin admin;
        try {
            admin = Admin.create(p);
        } catch (RuntimeException e) {
            // building the client logs in (SASL) and reads the certificates: a refusal or an
            // unusable secret is for good, a name that does not resolve or an OAuth endpoint that
            // does not answer may pass
            if (refused(e)) {
                throw new IllegalArgumentException(explain(kafka, e), e);
            }
            return new Outcome(unreachable(kafka, e));
        }
        try (admin) {
            admin.describeCluster(new DescribeClusterOptions().timeoutMs(15_000)).nodes().get(20, TimeUnit.SECONDS);
            return new Outcome(null);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof SaslAuthenticationException || cause instanceof SslAuthenticationException) {
                throw new IllegalArgumentException(explain(kafka, cause), cause);
            }
            return new Outcome(unreachable(kafka, cause));
        } catch (TimeoutException e) {
            return new Outcome(unreachable(kafka, e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(prefix + "bootstrap-servers: interrupted while connecting");
        }
    }

    /** Whether building a client failed for a reason that trying again does not change. */
    static boolean refused(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
            if (t instanceof java.net.UnknownHostException || t instanceof java.net.ConnectException
                    || t instanceof java.net.SocketTimeoutException || m.contains("no resolvable bootstrap urls")) {
                return false;
            }
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
            if (t instanceof SaslAuthenticationException || t instanceof SslAuthenticationException
                    || t instanceof org.apache.kafka.common.config.ConfigException
                    || m.contains("401") || m.contains("400") || m.contains("403") || m.contains("invalid_client")
                    || m.contains("unauthorized") || m.contains("keystore") || m.contains("private key")
                    || m.contains("truststore")) {
                return true;
            }
        }
        return false;
    }

    private static String unreachable(KafkaConnection kafka, Throwable cause) {
        String prefix = kafka.prefix();
        return prefix + "bootstrap-servers = " + kafka.bootstrapServers() + " did not answer (" + cause
                + "); a listener spoken to in the wrong protocol looks like this too: check " + prefix + "security.protocol";
    }

    /** The refusal in words, naming the setting that causes it. */
    static String explain(KafkaConnection kafka, Throwable e) {
        String prefix = kafka.prefix();
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(' ').append(t.getMessage());
        }
        String m = all.toString();
        String lower = m.toLowerCase(Locale.ROOT);
        java.util.regex.Matcher secret = java.util.regex.Pattern.compile(
                java.util.regex.Pattern.quote(prefix) + "[\\w.-]+-(env|file): [^\\n]*").matcher(m);
        if (secret.find()) {
            // a secret that cannot be read where the client runs: the provider named the setting
            return secret.group().strip();
        }
        if ("OAUTHBEARER".equals(kafka.saslMechanism()) && !(e instanceof SaslAuthenticationException)
                && (lower.contains("login") || lower.contains("token"))) {
            return prefix + "sasl.oauthbearer.client-secret-" + (kafka.oauthClientSecretEnv() != null ? "env" : "file")
                    + ": no token for the OAuth client '" + kafka.oauthClientId() + "' from " + prefix
                    + "sasl.oauthbearer.token-endpoint-url = " + kafka.oauthTokenEndpointUrl() + " (" + m.strip() + ")";
        }
        if (e instanceof SaslAuthenticationException || lower.contains("authentication failed")) {
            if ("OAUTHBEARER".equals(kafka.saslMechanism())) {
                return prefix + "sasl.oauthbearer.client-secret-" + (kafka.oauthClientSecretEnv() != null ? "env" : "file")
                        + ": Kafka refused the OAuth client '" + kafka.oauthClientId() + "' (" + e.getMessage() + ")";
            }
            String key = kafka.saslPasswordEnv() != null ? "sasl.password-env" : "sasl.password-file";
            return prefix + key + ": Kafka refused SASL user '" + kafka.saslUsername() + "' (" + kafka.saslMechanism()
                    + "): check " + prefix + "sasl.username and its password (" + e.getMessage() + ")";
        }
        if (lower.contains("pkix") || lower.contains("unable to find valid certification path")) {
            return prefix + "tls.ca-file: the brokers' certificate is not trusted by "
                    + (kafka.caFile() == null ? "the JVM's trust store (set " + prefix + "tls.ca-file)" : "the CAs of " + kafka.caFile())
                    + " (" + e.getMessage() + ")";
        }
        if (lower.contains("no subject alternative") || lower.contains("no name matching")) {
            return prefix + "tls.verify-hostname: a broker's certificate does not name the host it was reached by ("
                    + e.getMessage() + "); use the name it holds in " + prefix + "bootstrap-servers";
        }
        if (lower.contains("certificate_required") || lower.contains("bad_certificate") || lower.contains("unknown_ca")
                || lower.contains("certificate_unknown")) {
            return prefix + "tls.client-cert-file: the brokers " + (kafka.clientCertFile() == null
                    ? "ask for a client certificate: set " + prefix + "tls.client-cert-file and " + prefix + "tls.client-key-file"
                    : "do not accept the client certificate of " + kafka.clientCertFile()) + " (" + e.getMessage() + ")";
        }
        if (lower.contains("keystore") || lower.contains("private key")) {
            String keyFile = prefix + "tls.client-key-file = " + kafka.clientKeyFile();
            if (lower.contains("pbes2") && lower.contains("not available")) {
                return prefix + "tls.client-key-file: " + kafka.clientKeyFile() + " is encrypted with PBES2 (openssl's"
                        + " default), which the Kafka clients cannot decrypt on this JVM; encrypt it with PBES1 (openssl pkcs8"
                        + " -topk8 -v1 PBE-SHA1-3DES) or give it unencrypted (" + m.strip() + ")";
            }
            boolean encrypted = kafka.clientKeyPasswordEnv() != null || kafka.clientKeyPasswordFile() != null;
            if (encrypted && (lower.contains("badpadding") || lower.contains("bad key") || lower.contains("keyspec")
                    || lower.contains("padded"))) {
                // a wrong password decrypts to garbage: bad padding, or (rarely) a key that does not parse
                return prefix + "tls.client-key-password-" + (kafka.clientKeyPasswordEnv() != null ? "env" : "file")
                        + ": the password does not decrypt the client key (" + keyFile + ")" + " (" + m.strip() + ")";
            }
            return prefix + "tls.client-key-file: the Kafka clients cannot use the client key (" + keyFile + "): " + m.strip();
        }
        return prefix + "security.protocol: " + e;
    }

    /** The first secret source of {@code kafka} that is not there in this process, or null. */
    public static String missingHere(KafkaConnection kafka) {
        String prefix = kafka.prefix();
        for (String[] env : List.of(new String[] {"sasl.password-env", kafka.saslPasswordEnv()},
                new String[] {"sasl.oauthbearer.client-secret-env", kafka.oauthClientSecretEnv()},
                new String[] {"tls.client-key-password-env", kafka.clientKeyPasswordEnv()})) {
            if (env[1] != null && System.getenv(env[1]) == null) {
                return prefix + env[0] + ": '" + env[1] + "' is not set here";
            }
        }
        for (String[] file : List.of(new String[] {"sasl.password-file", kafka.saslPasswordFile()},
                new String[] {"sasl.oauthbearer.client-secret-file", kafka.oauthClientSecretFile()},
                new String[] {"tls.ca-file", kafka.caFile()}, new String[] {"tls.client-cert-file", kafka.clientCertFile()},
                new String[] {"tls.client-key-file", kafka.clientKeyFile()},
                new String[] {"tls.client-key-password-file", kafka.clientKeyPasswordFile()})) {
            if (file[1] != null && !Files.exists(Path.of(file[1]))) {
                return prefix + file[0] + ": '" + file[1] + "' does not exist here";
            }
        }
        return null;
    }
}
