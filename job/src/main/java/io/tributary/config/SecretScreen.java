package io.tributary.config;

import io.tributary.clickhouse.tls.ClickHouseTls;
import io.tributary.secret.Secrets;
import io.tributary.secret.UrlCredentials;

import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;

import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where secrets may not be written. Program arguments are shown to everyone who can see the Flink
 * dashboard and logged at start; URLs are printed in logs, metrics and messages. So:
 *
 * <ul>
 *   <li>a setting whose value is a secret by its own library's definition is never a program
 *       argument (it may be in the {@code --config} file): a {@code kafka.properties.*} or {@code
 *       dlq.kafka.properties.*} key whose type in the Kafka clients' {@code ConfigDef} (producer,
 *       consumer, admin) is {@code PASSWORD}, read from the kafka-clients on the classpath, and a
 *       {@code flink.*} key Flink hides in its own logs and REST answers;
 *   <li>{@code clickhouse.password} and {@code clickhouse.tls.client-key-password} are no settings
 *       at all: those secrets come from an environment variable or a file ({@code -env}, {@code
 *       -file});
 *   <li>no value, wherever it is given, holds a credential in a URL ({@link UrlCredentials}),
 *       except the values of the secret settings above, which their libraries never print;
 *   <li>a {@code -env} setting holds a variable's name: a value that cannot be one is taken for the
 *       secret itself, given in the wrong place.
 * </ul>
 *
 * <p>No message quotes the value it refuses.
 */
final class SecretScreen {

    private SecretScreen() {}

    /** The Kafka client settings of type PASSWORD, as kafka-clients defines them. */
    static final Set<String> KAFKA_PASSWORD_PROPERTIES = kafkaPasswordProperties();

    private static Set<String> kafkaPasswordProperties() {
        Set<String> out = new TreeSet<>();
        for (ConfigDef def : List.of(ProducerConfig.configDef(), ConsumerConfig.configDef(), AdminClientConfig.configDef())) {
            for (ConfigDef.ConfigKey k : def.configKeys().values()) {
                if (k.type() == ConfigDef.Type.PASSWORD) {
                    out.add(k.name);
                }
            }
        }
        return Collections.unmodifiableSet(out);
    }

    /** Whether {@code key}'s value is a secret by the definition of the library it goes to. */
    static boolean isSecret(String key) {
        for (String prefix : List.of(TributaryOptions.DLQ_KAFKA_PROPERTIES_PREFIX, TributaryOptions.KAFKA_PROPERTIES_PREFIX)) {
            if (key.startsWith(prefix)) {
                return KAFKA_PASSWORD_PROPERTIES.contains(key.substring(prefix.length()));
            }
        }
        if (key.startsWith(TributaryOptions.FLINK_PREFIX)) {
            // Flink's own rule (password, secret, token, ...) for what it replaces with ****** in its
            // logs and REST answers
            return GlobalConfiguration.isSensitive(key.substring(TributaryOptions.FLINK_PREFIX.length()));
        }
        return key.equals(PLAIN_PASSWORD) || key.equals(ClickHouseTls.KEY_PASSWORD);
    }

    private static final String PLAIN_PASSWORD = "clickhouse.password";

    /**
     * Refuses {@code key} as a program argument when its value is a secret.
     *
     * @throws ConfigException naming the key
     */
    static void argument(String key) {
        if (isSecret(key) && !key.equals(PLAIN_PASSWORD) && !key.equals(ClickHouseTls.KEY_PASSWORD)) {
            String why = key.startsWith(TributaryOptions.FLINK_PREFIX) ? "Flink treats it as a secret"
                    : "its type in the Kafka clients' ConfigDef is PASSWORD";
            throw new ConfigException(key + ": a secret (" + why + ") is never a program argument (the Flink dashboard"
                    + " shows those to everyone); put it in a file passed with --config, readable only by the job's user");
        }
    }

    /**
     * Refuses a value that holds a secret where none belongs, wherever it was given.
     *
     * @param envName whether {@code key} names an environment variable ({@code -env})
     * @throws ConfigException naming the key, never quoting the value
     */
    static void value(String key, String value, boolean envName) {
        if (key.equals(PLAIN_PASSWORD) || key.equals(ClickHouseTls.KEY_PASSWORD)) {
            throw new ConfigException(key + ": a password is never a plain setting (arguments are shown in the Flink"
                    + " dashboard); use " + key + "-env or " + key + "-file");
        }
        if (isSecret(key)) {
            return; // a secret by type: its library never prints it, and it is refused as an argument
        }
        String credential = UrlCredentials.find(value, true);
        if (credential != null) {
            throw new ConfigException(key + ": holds a URL with " + credential + "; credentials are never part of a"
                    + " URL, which logs, metrics and the Flink dashboard show" + instead(key));
        }
        if (envName && !Secrets.isVariableName(value.trim())) {
            throw new ConfigException(key + ": not the name of an environment variable (printable ASCII without '='"
                    + " or spaces); give the variable's name, never the secret itself");
        }
    }

    /** Where the credential goes instead. */
    private static String instead(String key) {
        if (key.equals(TributaryOptions.CLICKHOUSE_URL.key())) {
            return "; give the user as clickhouse.user and the password as clickhouse.password-env or"
                    + " clickhouse.password-file";
        }
        if (key.endsWith("sasl.oauthbearer.token-endpoint-url")) {
            String prefix = key.substring(0, key.length() - "token-endpoint-url".length());
            return "; give the client as " + prefix + "client-id and its secret as " + prefix + "client-secret-env or "
                    + prefix + "client-secret-file";
        }
        return "";
    }
}
