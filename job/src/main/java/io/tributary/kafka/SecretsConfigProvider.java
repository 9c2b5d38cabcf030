package io.tributary.kafka;

import io.tributary.clickhouse.ClickHouseEndpoint;

import org.apache.kafka.common.config.ConfigData;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.provider.ConfigProvider;

import java.io.IOException;
import java.util.HashMap;
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
 * {@code -env} or {@code -file}) and the variable's name or the file's path. The value is read as
 * the ClickHouse password is (a file's final line end dropped). A setting prefixed {@code jaas/}
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
            value = setting.endsWith("-env") ? ClickHouseEndpoint.readPassword(key, setting, null, setting)
                    : ClickHouseEndpoint.readPassword(null, setting, key, setting);
        } catch (IOException e) {
            throw new ConfigException(e.getMessage());
        }
        if (value == null) {
            throw new ConfigException(setting + ": no value");
        }
        if (jaas && (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0)) {
            // a JAAS option string ends at the line's end
            throw new ConfigException(setting + ": the value holds a line break, which a Kafka JAAS option cannot take");
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
