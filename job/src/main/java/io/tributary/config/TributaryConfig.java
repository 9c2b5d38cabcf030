package io.tributary.config;

import io.tributary.otlp.Signal;
import io.tributary.schema.TableName;
import io.tributary.sink.Delivery;
import io.tributary.tables.OtelTable;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

import java.io.IOException;
import java.io.Reader;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * The job's settings, read once at start-up from {@code --key value} arguments and/or a YAML file
 * ({@code --config file.yaml}; nested maps are flattened with dots; arguments win), and validated
 * all at once: an unknown key, a bad value or a password given in plain text fails with a message
 * naming the key. Operators never see this class, only the typed settings built from it.
 */
public final class TributaryConfig implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Map<String, Object> values;
    private final Map<String, String> kafkaProperties;
    private final Map<String, String> deadLetterKafkaProperties;
    private final Map<String, String> flinkOptions;
    private final Map<String, String> given;

    private TributaryConfig(Map<String, Object> values, Map<String, String> kafkaProperties,
            Map<String, String> deadLetterKafkaProperties, Map<String, String> flinkOptions, Map<String, String> given) {
        this.values = values;
        this.kafkaProperties = kafkaProperties;
        this.deadLetterKafkaProperties = deadLetterKafkaProperties;
        this.flinkOptions = flinkOptions;
        this.given = given;
    }

    /** The settings given (not defaulted), as text. */
    Map<String, String> given() {
        return given;
    }

    /** Parses and validates the job's arguments. */
    public static TributaryConfig fromArgs(String[] args) {
        return fromArgs(args, Set.of()).config;
    }

    /**
     * A config plus the values of command-specific keys the caller allowed, and every setting as
     * given (file and arguments merged, before parsing: what a SQL script's {@code ${key}} reads).
     */
    public record Parsed(TributaryConfig config, Map<String, String> extra, Map<String, String> given) {}

    /**
     * Parses the arguments; keys in {@code extraKeys} (a command's own flags) are returned
     * unvalidated in {@link Parsed#extra()}.
     */
    public static Parsed fromArgs(String[] args, Set<String> extraKeys) {
        Map<String, String> raw = keyValues(args);
        String configFile = raw.remove("config");
        for (String key : raw.keySet()) {
            SecretScreen.argument(key);
        }
        Map<String, String> merged = new LinkedHashMap<>();
        if (configFile != null) {
            merged.putAll(readYaml(Path.of(configFile)));
        }
        merged.putAll(raw);
        Map<String, String> extra = new HashMap<>();
        for (String k : extraKeys) {
            if (merged.containsKey(k)) {
                extra.put(k, merged.remove(k));
            }
        }
        return new Parsed(fromMap(merged), extra, Collections.unmodifiableMap(new LinkedHashMap<>(merged)));
    }

    /**
     * {@code --key value}, {@code --key=value} and bare {@code --flag} (meaning true) arguments, in
     * order; a later key replaces an earlier one.
     */
    public static Map<String, String> keyValues(String[] args) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--")) {
                // not quoted: it may be a piece of a secret a shell split at a space
                String after = null;
                for (int j = i - 1; j >= 0 && after == null; j--) {
                    after = args[j].startsWith("--") ? args[j].split("=", 2)[0] : null;
                }
                throw new ConfigException("unexpected argument at position " + (i + 1)
                        + (after == null ? "" : " (after " + after + ")")
                        + ": settings are --key value, a value with spaces in quotes");
            }
            String key = a.substring(2);
            String value;
            int eq = key.indexOf('=');
            if (eq >= 0) {
                value = key.substring(eq + 1);
                key = key.substring(0, eq);
            } else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                value = args[++i];
            } else {
                value = "true";
            }
            out.put(key, value);
        }
        return out;
    }

    /** Validates a flat key/value map. */
    public static TributaryConfig fromMap(Map<String, String> raw) {
        Map<String, Option<?>> known = new HashMap<>();
        for (Option<?> o : TributaryOptions.ALL) {
            known.put(o.key(), o);
        }
        Map<String, Object> values = new HashMap<>();
        Map<String, String> kafka = new TreeMap<>();
        Map<String, String> dlqKafka = new TreeMap<>();
        Map<String, String> flink = new TreeMap<>();
        for (Map.Entry<String, String> e : raw.entrySet()) {
            String key = e.getKey();
            SecretScreen.value(key, e.getValue(), known.containsKey(key) && key.endsWith("-env"));
            if (key.startsWith(TributaryOptions.DLQ_KAFKA_PROPERTIES_PREFIX)) {
                String prop = key.substring(TributaryOptions.DLQ_KAFKA_PROPERTIES_PREFIX.length());
                if (prop.isEmpty()) {
                    throw new ConfigException(key + ": a Kafka client property name must follow the prefix");
                }
                dlqKafka.put(prop, e.getValue());
                continue;
            }
            if (key.startsWith(TributaryOptions.KAFKA_PROPERTIES_PREFIX)) {
                String prop = key.substring(TributaryOptions.KAFKA_PROPERTIES_PREFIX.length());
                if (prop.isEmpty()) {
                    throw new ConfigException(key + ": a Kafka client property name must follow the prefix");
                }
                kafka.put(prop, e.getValue());
                continue;
            }
            if (key.startsWith(TributaryOptions.FLINK_PREFIX)) {
                flink.put(key.substring(TributaryOptions.FLINK_PREFIX.length()), e.getValue());
                continue;
            }
            Option<?> o = known.get(key);
            if (o == null) {
                throw new ConfigException(key + ": unknown setting (the keys: bin/tributary run --help, or docs/configuration.md)");
            }
            values.put(key, o.parse(e.getValue()));
        }
        for (Option<?> o : TributaryOptions.ALL) {
            if (!values.containsKey(o.key()) && o.defaultValue() != null) {
                values.put(o.key(), o.defaultValue());
            }
        }
        TributaryConfig c = new TributaryConfig(values, Collections.unmodifiableMap(kafka),
                Collections.unmodifiableMap(dlqKafka), Collections.unmodifiableMap(flink),
                Collections.unmodifiableMap(new TreeMap<>(raw)));
        c.crossCheck();
        return c;
    }

    /**
     * What is allowed but unwise, for the log at start: a password sent over plain {@code http://}
     * to a host other than this one.
     */
    public List<String> warnings() {
        List<String> out = new ArrayList<>();
        String passwordKey = get(TributaryOptions.CLICKHOUSE_PASSWORD_ENV) != null ? TributaryOptions.CLICKHOUSE_PASSWORD_ENV.key()
                : get(TributaryOptions.CLICKHOUSE_PASSWORD_FILE) != null ? TributaryOptions.CLICKHOUSE_PASSWORD_FILE.key() : null;
        boolean https = false;
        for (String u : io.tributary.clickhouse.ClickHouseEndpoint.splitUrls(get(TributaryOptions.CLICKHOUSE_URL))) {
            java.net.URI url = java.net.URI.create(u);
            https |= "https".equalsIgnoreCase(url.getScheme());
            if (passwordKey != null && "http".equalsIgnoreCase(url.getScheme()) && !isLoopback(url.getHost())) {
                out.add("clickhouse.url: the password (" + passwordKey + ") goes to " + url.getHost()
                        + " over plain http://, readable on the way; use https://");
            }
        }
        out.addAll(TributaryOptions.KAFKA.warnings(this));
        if (get(TributaryOptions.DLQ_KAFKA_BOOTSTRAP_SERVERS) != null) {
            out.addAll(TributaryOptions.DLQ_KAFKA.warnings(this));
        }
        if (!get(TributaryOptions.CLICKHOUSE_TLS_VERIFY_HOSTNAME)) {
            out.add(TributaryOptions.CLICKHOUSE_TLS_VERIFY_HOSTNAME.key() + " = false: ClickHouse's certificate is not"
                    + " checked to name its host, so anyone holding a certificate from a trusted CA can pose as ClickHouse"
                    + " and read the data and the password; give clickhouse.url the name the certificate holds instead");
        }
        if (!https) {
            for (Option<?> o : List.of(TributaryOptions.CLICKHOUSE_TLS_CA_FILE, TributaryOptions.CLICKHOUSE_TLS_CLIENT_CERT_FILE)) {
                if (get(o) != null) {
                    out.add(o.key() + ": set, but clickhouse.url has no https:// URL, so it is not used");
                }
            }
        }
        return out;
    }

    /** How to reach the Kafka cluster the job reads. */
    public io.tributary.kafka.KafkaConnection kafka() {
        return TributaryOptions.KAFKA.connection(this, get(TributaryOptions.KAFKA_BOOTSTRAP_SERVERS), kafkaProperties);
    }

    /** How to reach the cluster of the dead-letter topic: {@link #kafka()} unless dlq.kafka.bootstrap-servers is set. */
    public io.tributary.kafka.KafkaConnection deadLetterKafka() {
        String bootstrap = get(TributaryOptions.DLQ_KAFKA_BOOTSTRAP_SERVERS);
        return bootstrap == null ? kafka()
                : TributaryOptions.DLQ_KAFKA.connection(this, bootstrap, deadLetterKafkaProperties);
    }

    /** The TLS settings for ClickHouse. */
    public io.tributary.clickhouse.tls.ClickHouseTls clickHouseTls() {
        return new io.tributary.clickhouse.tls.ClickHouseTls(
                get(TributaryOptions.CLICKHOUSE_TLS_CA_FILE),
                get(TributaryOptions.CLICKHOUSE_TLS_CLIENT_CERT_FILE),
                get(TributaryOptions.CLICKHOUSE_TLS_CLIENT_KEY_FILE),
                get(TributaryOptions.CLICKHOUSE_TLS_CLIENT_KEY_PASSWORD_ENV),
                get(TributaryOptions.CLICKHOUSE_TLS_CLIENT_KEY_PASSWORD_FILE),
                get(TributaryOptions.CLICKHOUSE_TLS_VERIFY_HOSTNAME));
    }

    private static boolean isLoopback(String host) {
        if (host == null) {
            return true;
        }
        String h = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        return h.equalsIgnoreCase("localhost") || h.startsWith("127.") || h.equals("::1") || h.equals("0:0:0:0:0:0:0:1");
    }

    private void crossCheck() {
        Options.either(this, TributaryOptions.CLICKHOUSE_PASSWORD_ENV, TributaryOptions.CLICKHOUSE_PASSWORD_FILE);
        Options.either(this, TributaryOptions.CLICKHOUSE_TLS_CLIENT_KEY_PASSWORD_ENV, TributaryOptions.CLICKHOUSE_TLS_CLIENT_KEY_PASSWORD_FILE);
        if ((get(TributaryOptions.CLICKHOUSE_TLS_CLIENT_CERT_FILE) == null) != (get(TributaryOptions.CLICKHOUSE_TLS_CLIENT_KEY_FILE) == null)) {
            Option<String> missing = get(TributaryOptions.CLICKHOUSE_TLS_CLIENT_CERT_FILE) == null
                    ? TributaryOptions.CLICKHOUSE_TLS_CLIENT_CERT_FILE : TributaryOptions.CLICKHOUSE_TLS_CLIENT_KEY_FILE;
            throw new ConfigException(missing.key() + ": a client certificate needs both "
                    + TributaryOptions.CLICKHOUSE_TLS_CLIENT_CERT_FILE.key() + " and "
                    + TributaryOptions.CLICKHOUSE_TLS_CLIENT_KEY_FILE.key());
        }
        TributaryOptions.KAFKA.check(this, kafkaProperties);
        if (get(TributaryOptions.DLQ_KAFKA_BOOTSTRAP_SERVERS) == null) {
            String stray = TributaryOptions.DLQ_KAFKA.anyGiven(given) ? TributaryOptions.DLQ_KAFKA.all().stream()
                    .map(Option::key).filter(given::containsKey).findFirst().orElseThrow()
                    : deadLetterKafkaProperties.isEmpty() ? null
                    : TributaryOptions.DLQ_KAFKA_PROPERTIES_PREFIX + deadLetterKafkaProperties.keySet().iterator().next();
            if (stray != null) {
                throw new ConfigException(stray + ": the dlq.kafka.* settings are for a dead-letter cluster of its own;"
                        + " set dlq.kafka.bootstrap-servers too (without it, dead letters go to the cluster the job reads,"
                        + " with the kafka.* settings)");
            }
        } else {
            TributaryOptions.DLQ_KAFKA.check(this, deadLetterKafkaProperties);
        }
        if (get(TributaryOptions.SINK_RETRY_INITIAL_BACKOFF).compareTo(get(TributaryOptions.SINK_RETRY_MAX_BACKOFF)) > 0) {
            throw new ConfigException("sink.retry.initial-backoff: must not exceed sink.retry.max-backoff");
        }
        if (get(TributaryOptions.CLICKHOUSE_SCHEMA) == io.tributary.schema.SchemaFlavor.COROOT
                && !given.containsKey(TributaryOptions.SIGNALS.key())) { // a topic of a signal left out of signals is not read
            for (Signal s : Signal.values()) {
                String topic = TributaryOptions.topic(s).key();
                if (!CorootSignals.has(s) && given.containsKey(topic) && !given.get(topic).isBlank()) {
                    throw new ConfigException(topic + ": clickhouse.schema = coroot has tables for traces and logs only,"
                            + " not for " + s.id() + "; its records would not be read. Run " + s.id()
                            + " in another job with clickhouse.schema = map and its own kafka.group-id");
                }
            }
        }
        if (get(TributaryOptions.CLICKHOUSE_SCHEMA) == io.tributary.schema.SchemaFlavor.COROOT
                && given.containsKey(TributaryOptions.SIGNALS.key())) {
            for (Signal s : get(TributaryOptions.SIGNALS)) {
                if (!CorootSignals.has(s)) {
                    throw new ConfigException("signals: clickhouse.schema = coroot has tables for traces and logs only,"
                            + " not for " + s.id() + " (Coroot reads metrics from Prometheus and profiles from its own"
                            + " tables); run " + s.id() + " in another job with clickhouse.schema = map and its own kafka.group-id");
                }
            }
        }
        if (signals().isEmpty()) {
            throw new ConfigException(
                    "signals: no signal is on (each one listed needs a non-empty kafka.topics.<signal>)");
        }
        io.tributary.kafka.TopicSelection topics = topicSelection();
        encodings();
        String dlq = get(TributaryOptions.DLQ_TOPIC);
        if (!dlq.isEmpty() && topics.reads(dlq)) {
            throw new ConfigException("dlq.topic: '" + dlq + "' is a topic the job reads (kafka.topics."
                    + topics.signal(dlq).id() + "); dead letters need a topic of their own");
        }
        if (get(TributaryOptions.SINK_DELIVERY) == Delivery.EXACTLY_ONCE
                && get(TributaryOptions.SINK_ASYNC_INSERT)) {
            throw new ConfigException("sink.async-insert: cannot be combined with sink.delivery = exactly-once, whose"
                    + " INSERTs each carry their own deduplication token; ClickHouse merges asynchronous inserts");
        }
        if (get(TributaryOptions.SINK_BATCH_MAX_BYTES) > Integer.MAX_VALUE - 8) {
            throw new ConfigException("sink.batch.max-bytes: must be below 2 GiB");
        }
    }

    /** The value of {@code option}, or its default; null when it has neither. */
    @SuppressWarnings("unchecked")
    public <T> T get(Option<T> option) {
        return (T) values.get(option.key());
    }

    /**
     * The signals that run: listed in {@code signals} and with a non-empty topic, in enum order.
     * With {@code clickhouse.schema = coroot}, which has tables for traces and logs only, the
     * default {@code signals} leaves the others out (naming them is refused at start).
     */
    public Set<Signal> signals() {
        Set<Signal> on = EnumSet.noneOf(Signal.class);
        boolean coroot = get(TributaryOptions.CLICKHOUSE_SCHEMA) == io.tributary.schema.SchemaFlavor.COROOT;
        for (Signal s : get(TributaryOptions.SIGNALS)) {
            if (coroot && !CorootSignals.has(s)) {
                continue;
            }
            if (!io.tributary.kafka.TopicSelection.entries(get(TributaryOptions.topic(s))).isEmpty()) {
                on.add(s);
            }
        }
        return on;
    }

    /**
     * The topics of the running signals: names and {@code ^regex} entries of each {@code
     * kafka.topics.<signal>}.
     *
     * @throws ConfigException naming the key: a bad regex, a topic two signals name
     */
    public io.tributary.kafka.TopicSelection topicSelection() {
        Map<Signal, String> values = new EnumMap<>(Signal.class);
        Map<Signal, String> keys = new EnumMap<>(Signal.class);
        for (Signal s : signals()) {
            values.put(s, get(TributaryOptions.topic(s)));
            keys.put(s, TributaryOptions.topic(s).key());
        }
        try {
            return io.tributary.kafka.TopicSelection.parse(values, keys);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage(), e);
        }
    }

    /**
     * The encoding of each running signal's topics: {@code kafka.encodings.<signal>}, else {@code
     * kafka.encoding}.
     *
     * @throws ConfigException naming the key: an encoding the signal does not take, a bad entry
     */
    public Map<Signal, io.tributary.encoding.SignalEncodings> encodings() {
        Map<Signal, io.tributary.encoding.SignalEncodings> out = new EnumMap<>(Signal.class);
        String fallback = get(TributaryOptions.KAFKA_ENCODING).trim();
        for (Signal s : signals()) {
            Option<String> o = TributaryOptions.encodings(s);
            String value = get(o);
            String key = o.key();
            if (value.isBlank()) {
                value = fallback;
                key = TributaryOptions.KAFKA_ENCODING.key();
            }
            io.tributary.encoding.SignalEncodings e;
            try {
                e = io.tributary.encoding.SignalEncodings.parse(s, value, fallback, key);
            } catch (IllegalArgumentException ex) {
                throw new ConfigException(ex.getMessage(), ex);
            }
            // an entry for a topic the signal does not read is a typo (a regex without its '^'): its
            // records would be read in the signal's other encoding, most of them dead letters
            io.tributary.kafka.TopicSelection topics = topicSelection();
            for (String topic : e.namedTopics()) {
                if (topics.signal(topic) != s) {
                    throw new ConfigException(key + ": '" + topic + "' is no topic " + TributaryOptions.topic(s).key() + " reads");
                }
            }
            out.put(s, e);
        }
        return out;
    }

    /** The headers {@code kafka.header-extraction.headers} names. */
    public io.tributary.encoding.HeaderExtraction headerExtraction() {
        java.util.List<String> names = new java.util.ArrayList<>();
        for (String n : get(TributaryOptions.KAFKA_HEADER_EXTRACTION_HEADERS).split(",")) {
            if (!n.isBlank() && !names.contains(n.trim())) {
                names.add(n.trim());
            }
        }
        return new io.tributary.encoding.HeaderExtraction(names);
    }

    /** A table's name and the setting that gives it. */
    public TableName table(OtelTable table) {
        Option<String> o = TributaryOptions.table(table);
        return new TableName(get(o), o.key());
    }

    /** The names of the tables of the signals that run. */
    public Map<OtelTable, TableName> runningTables() {
        Map<OtelTable, TableName> out = new EnumMap<>(OtelTable.class);
        for (OtelTable t : OtelTable.values()) {
            if (signals().contains(t.signal())) {
                out.put(t, table(t));
            }
        }
        return out;
    }

    /**
     * Whether a Kafka client property holds a secret by kafka-clients' own definition (type
     * PASSWORD), for what must never be written out (a SQL script's table options).
     */
    public static boolean isKafkaSecret(String property) {
        return SecretScreen.KAFKA_PASSWORD_PROPERTIES.contains(property);
    }

    /** Whether a setting's value is a secret (a Kafka PASSWORD property, a Flink key Flink hides, a password key). */
    public static boolean isSecretSetting(String key) {
        return SecretScreen.isSecret(key);
    }

    /** The {@code kafka.properties.*} settings, without the prefix, as a map (serializable). */
    public Map<String, String> kafkaPropertiesMap() {
        return kafkaProperties;
    }

    /** The {@code kafka.properties.*} settings, without the prefix. */
    public Properties kafkaProperties() {
        Properties p = new Properties();
        p.putAll(kafkaProperties);
        return p;
    }

    /** The {@code flink.*} settings, without the prefix, applied to the execution environment. */
    public Map<String, String> flinkOptions() {
        return flinkOptions;
    }

    private static Map<String, String> readYaml(Path file) {
        Object root;
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            root = new Yaml(new SafeConstructor(new LoaderOptions())).load(r);
        } catch (IOException e) {
            throw new ConfigException("config: cannot read '" + file + "': " + e.getMessage(), e);
        } catch (MarkedYAMLException e) {
            // only where: SnakeYAML's message quotes the lines around the fault, secrets included
            Mark at = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            throw new ConfigException("config: '" + file + "' is not valid YAML"
                    + (at == null ? "" : " (line " + (at.getLine() + 1) + ", column " + (at.getColumn() + 1) + ")"));
        } catch (RuntimeException e) {
            throw new ConfigException("config: '" + file + "' is not valid YAML (" + e.getClass().getSimpleName() + ")");
        }
        Map<String, String> out = new LinkedHashMap<>();
        if (root == null) {
            return out;
        }
        if (!(root instanceof Map)) {
            throw new ConfigException("config: '" + file + "' must hold a map of settings");
        }
        flatten("", (Map<?, ?>) root, out);
        return out;
    }

    private static void flatten(String prefix, Map<?, ?> map, Map<String, String> out) {
        for (Map.Entry<?, ?> e : map.entrySet()) {
            String key = prefix + e.getKey();
            Object v = e.getValue();
            if (v instanceof Map) {
                flatten(key + ".", (Map<?, ?>) v, out);
            } else if (v != null) {
                out.put(key, String.valueOf(v));
            }
        }
    }

    /** The signals Coroot's tables hold. */
    private static final class CorootSignals {
        static boolean has(Signal s) {
            return s == Signal.TRACES || s == Signal.LOGS;
        }
    }
}
