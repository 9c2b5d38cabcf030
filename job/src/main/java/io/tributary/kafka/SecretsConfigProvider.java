package io.tributary.kafka;

import io.tributary.secret.Secrets;

import org.apache.kafka.common.config.ConfigData;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.provider.ConfigProvider;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A Kafka {@link ConfigProvider} that resolves the job's secrets where each client runs (the
 * TaskManagers' consumers and producers, the JobManager's source enumerator, and the submitting
 * process for its start-up check and a bounded run's end offsets), so that no password, client secret or private key is ever part of the job's
 * properties, arguments or logs: only the name of its environment variable or file travels.
 * Kafka clients call it while reading their configuration ({@code config.providers}).
 *
 * <p>A reference is {@code ${tributary:<setting>:<name>}}: the setting that gave it (ending in
 * {@code -env} or {@code -file}) and the variable's name or the file's path. The value is read by
 * {@link Secrets#read}, as the ClickHouse password is (one final line end dropped, any other
 * control character refused, messages naming the setting and never the value); the client
 * certificate and key files are read whole, as PEM. A setting prefixed {@code jaas/}
 * quotes the value for a JAAS option string; {@code allow-url} passes an OAuth token endpoint
 * through and adds it to {@code org.apache.kafka.sasl.oauthbearer.allowed.urls}, which Kafka 4
 * requires of every endpoint it asks for tokens (a JVM-wide property: on a session cluster it
 * allows that endpoint to the other jobs' clients too).
 */
public final class SecretsConfigProvider implements ConfigProvider {

    /** The name under which {@link KafkaConnection} registers it. */
    public static final String NAME = "tributary";
    static final String ALLOWED_URLS = "org.apache.kafka.sasl.oauthbearer.allowed.urls";
    static final String ALLOW_URL = "allow-url";
    /** Settings whose file is a PEM document (line ends and all), not a one-line secret. */
    private static final List<String> DOCUMENTS = List.of("tls.client-cert-file", "tls.client-key-file");

    /** A reference to the secret {@code name} given by {@code setting}. */
    static String reference(String setting, String name) {
        return "${" + NAME + ":" + setting + ":" + name + "}";
    }

    @Override
    public void configure(Map<String, ?> configs) {}

    @Override
    public ConfigData get(String path) {
        return new ConfigData(Map.of());
    }

    @Override
    public ConfigData get(String path, Set<String> keys) {
        Map<String, String> out = new HashMap<>();
        for (String key : keys) {
            out.put(key, resolve(path, key));
        }
        return new ConfigData(out);
    }

    private static String resolve(String path, String key) {
        if (path.equals(ALLOW_URL)) {
            allowUrl(key);
            return key;
        }
        boolean jaas = path.startsWith("jaas/");
        String setting = jaas ? path.substring("jaas/".length()) : path;
        String value;
        try {
            value = setting.endsWith("-env") ? Secrets.read(key, setting, null, setting)
                    : DOCUMENTS.stream().anyMatch(setting::endsWith) ? Secrets.readDocument(key, setting)
                    : Secrets.read(null, setting, key, setting);
        } catch (IOException e) {
            // the message names the setting and never the value; the cause adds nothing to it
            throw new ConfigException(e.getMessage());
        }
        if (value == null) {
            throw new ConfigException(setting + ": no value");
        }
        return jaas ? value.replace("\\", "\\\\").replace("\"", "\\\"") : value;
    }

    private static synchronized void allowUrl(String url) {
        String allowed = System.getProperty(ALLOWED_URLS);
        if (allowed == null || allowed.isBlank()) {
            System.setProperty(ALLOWED_URLS, url);
        } else if (!Set.of(allowed.split(",")).contains(url)) {
            System.setProperty(ALLOWED_URLS, allowed + "," + url);
        }
    }

    @Override
    public void close() {}
}
