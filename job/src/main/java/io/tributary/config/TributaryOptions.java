package io.tributary.config;

import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.clickhouse.body.Compression;
import io.tributary.clickhouse.tls.ClickHouseTls;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.Signal;
import io.tributary.schema.SchemaFlavor;
import io.tributary.sink.Delivery;
import io.tributary.sink.TableRefusalAction;
import io.tributary.tables.OtelTable;
import io.tributary.tables.RecordBounds;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** Every setting Tributary reads. The keys are a public interface: never rename one. */
public final class TributaryOptions {

    private TributaryOptions() {}

    public static final String KAFKA_PROPERTIES_PREFIX = "kafka.properties.";
    public static final String FLINK_PREFIX = "flink.";

    public static final Option<Set<Signal>> SIGNALS =
            new Option<>("signals", EnumSet.allOf(Signal.class), "Signals to move, comma-separated; a signal whose topic is empty is off too", Signal::parseList);
    public static final Option<String> KAFKA_BOOTSTRAP_SERVERS =
            new Option<>("kafka.bootstrap-servers", "localhost:9092", "Kafka brokers, host:port[,host:port]", Options::string);
    public static final Option<String> KAFKA_GROUP_ID =
            new Option<>("kafka.group-id", "tributary", "Consumer group; offsets are committed to it on each checkpoint (for lag monitoring)", Options::string);
    public static final Option<String> KAFKA_TOPICS_TRACES =
            new Option<>("kafka.topics.traces", "otlp_spans", "Topic with OTLP trace records (empty: traces off)", Options::optionalString);
    public static final Option<String> KAFKA_TOPICS_LOGS =
            new Option<>("kafka.topics.logs", "otlp_logs", "Topic with OTLP log records (empty: logs off)", Options::optionalString);
    public static final Option<String> KAFKA_TOPICS_METRICS =
            new Option<>("kafka.topics.metrics", "otlp_metrics", "Topic with OTLP metric records (empty: metrics off)", Options::optionalString);
    public static final Option<Encoding> KAFKA_ENCODING =
            new Option<>("kafka.encoding", Encoding.AUTO, "auto | otlp_proto | otlp_json; auto decides per record ('{' starts JSON)", Encoding::parse);
    public static final Option<StartingOffsets> KAFKA_STARTING_OFFSETS =
            new Option<>("kafka.starting-offsets", StartingOffsets.COMMITTED, "committed (falling back to earliest) | earliest | latest; used when not restoring from a checkpoint or savepoint", StartingOffsets::parse);
    public static final Option<Boolean> KAFKA_BOUNDED =
            new Option<>("kafka.bounded", false, "Stop at the latest offsets seen at start, write everything, and finish (backfills, tests)", Options::bool);
    public static final Option<String> DLQ_TOPIC =
            new Option<>("dlq.topic", "otlp_dlq", "Topic (same Kafka cluster) for records that cannot be decoded: original key, value and headers plus tributary.* headers naming the error and source; empty: log and count only", Options::optionalString);
    public static final Option<Integer> PARALLELISM =
            new Option<>("parallelism", null, "Job parallelism (source, and decode unless set); default: the cluster's parallelism.default", Options::positiveInt);
    public static final Option<Integer> DECODE_PARALLELISM =
            new Option<>("decode.parallelism", null, "Parallelism of the decode and sink operators; default: the job parallelism", Options::positiveInt);
    // What one record may render; past either bound it is a dead letter.
    public static final Option<Integer> DECODE_MAX_ROWS_PER_RECORD =
            new Option<>(RecordBounds.MAX_ROWS_KEY, RecordBounds.DEFAULT_MAX_ROWS, "Rows one Kafka record may render, all its tables together; a record with more goes to the dead-letter topic", Options::positiveInt);
    public static final Option<Long> DECODE_MAX_BYTES_PER_RECORD =
            new Option<>(RecordBounds.MAX_BYTES_KEY, (long) RecordBounds.DEFAULT_MAX_BYTES, "Uncompressed RowBinary bytes one Kafka record may render, all its tables together (below 2 gb); a record with more goes to the dead-letter topic. The most heap a decoding slot holds for one record's rows", TributaryOptions::recordBytes);
    public static final Option<String> CLICKHOUSE_URL =
            new Option<>("clickhouse.url", "http://localhost:8123", "ClickHouse HTTP interface; several, comma-separated (replicas or proxies): INSERTs spread over the healthy ones, one that fails is taken out for a while", TributaryOptions::httpUrls);
    public static final Option<String> CLICKHOUSE_DATABASE =
            new Option<>("clickhouse.database", "otel", "Database of the tables", Options::string);
    public static final Option<String> CLICKHOUSE_USER =
            new Option<>("clickhouse.user", "default", "ClickHouse user", Options::string);
    public static final Option<String> CLICKHOUSE_PASSWORD_ENV =
            new Option<>("clickhouse.password-env", null, "Name of the environment variable (on the TaskManagers) that holds the password", Options::string);
    public static final Option<String> CLICKHOUSE_PASSWORD_FILE =
            new Option<>("clickhouse.password-file", null, "Path of a file (on the TaskManagers) that holds the password", Options::string);
    public static final Option<String> CLICKHOUSE_TLS_CA_FILE =
            new Option<>(ClickHouseTls.CA_FILE, null, "PEM bundle of the CAs that sign ClickHouse's certificate (https://); default: the JVM's trust store. Read again when it changes", Options::string);
    public static final Option<String> CLICKHOUSE_TLS_CLIENT_CERT_FILE =
            new Option<>(ClickHouseTls.CLIENT_CERT_FILE, null, "PEM client certificate (chain) for mutual TLS; read again when it changes", Options::string);
    public static final Option<String> CLICKHOUSE_TLS_CLIENT_KEY_FILE =
            new Option<>(ClickHouseTls.CLIENT_KEY_FILE, null, "PEM private key of the client certificate: PKCS #8 (maybe encrypted) or PKCS #1 RSA", Options::string);
    public static final Option<String> CLICKHOUSE_TLS_CLIENT_KEY_PASSWORD_ENV =
            new Option<>(ClickHouseTls.KEY_PASSWORD_ENV, null, "Name of the environment variable (on the TaskManagers) that holds the client key's password", Options::string);
    public static final Option<String> CLICKHOUSE_TLS_CLIENT_KEY_PASSWORD_FILE =
            new Option<>(ClickHouseTls.KEY_PASSWORD_FILE, null, "Path of a file (on the TaskManagers) that holds the client key's password", Options::string);
    public static final Option<Boolean> CLICKHOUSE_TLS_VERIFY_HOSTNAME =
            new Option<>(ClickHouseTls.VERIFY_HOSTNAME, true, "Check that ClickHouse's certificate names the URL's host; false is warned of at start", Options::bool);
    public static final Option<String> CLICKHOUSE_TABLES_TRACES =
            new Option<>("clickhouse.tables.traces", "otel_traces", "Spans table", Options::string);
    public static final Option<String> CLICKHOUSE_TABLES_LOGS =
            new Option<>("clickhouse.tables.logs", "otel_logs", "Log records table", Options::string);
    public static final Option<String> CLICKHOUSE_TABLES_METRICS_GAUGE =
            new Option<>("clickhouse.tables.metrics.gauge", "otel_metrics_gauge", "Gauge points table", Options::string);
    public static final Option<String> CLICKHOUSE_TABLES_METRICS_SUM =
            new Option<>("clickhouse.tables.metrics.sum", "otel_metrics_sum", "Sum points table", Options::string);
    public static final Option<String> CLICKHOUSE_TABLES_METRICS_HISTOGRAM =
            new Option<>("clickhouse.tables.metrics.histogram", "otel_metrics_histogram", "Histogram points table", Options::string);
    public static final Option<String> CLICKHOUSE_TABLES_METRICS_EXPONENTIAL_HISTOGRAM =
            new Option<>("clickhouse.tables.metrics.exponential_histogram", "otel_metrics_exponential_histogram", "Exponential histogram points table", Options::string);
    public static final Option<String> CLICKHOUSE_TABLES_METRICS_SUMMARY =
            new Option<>("clickhouse.tables.metrics.summary", "otel_metrics_summary", "Summary points table", Options::string);
    public static final Option<SchemaFlavor> CLICKHOUSE_SCHEMA =
            new Option<>("clickhouse.schema", SchemaFlavor.MAP, "map | json: the exporter's table flavour (attributes as Map columns, or as JSON columns plus *AttributesKeys)", SchemaFlavor::parse);
    public static final Option<Boolean> CLICKHOUSE_CREATE_SCHEMA =
            new Option<>("clickhouse.create-schema", false, "Create the database and tables (MergeTree, as the exporter does) at start if missing", Options::bool);
    public static final Option<Delivery> SINK_DELIVERY =
            new Option<>("sink.delivery", Delivery.AT_LEAST_ONCE, "at-least-once | exactly-once: exactly-once inserts each checkpoint's batches once it completes, with deduplication tokens (tables need a deduplication window)", Delivery::parse);
    public static final Option<Long> SINK_EXACTLY_ONCE_MAX_BYTES_PER_CHECKPOINT =
            new Option<>("sink.exactly-once.max-bytes-per-checkpoint", 128L << 20, "Exactly once: Kafka record bytes each source subtask reads past the last completed checkpoint before it pauses until the next one completes; bounds the batches a checkpoint holds", Options::positiveBytes);
    public static final Option<Integer> SINK_BATCH_MAX_ROWS =
            new Option<>("sink.batch.max-rows", 100_000, "A batch is sent when it holds this many rows", Options::positiveInt);
    public static final Option<Long> SINK_BATCH_MAX_BYTES =
            new Option<>("sink.batch.max-bytes", 64L << 20, "... or this many uncompressed RowBinary bytes", Options::positiveBytes);
    public static final Option<Duration> SINK_BATCH_MAX_AGE =
            new Option<>("sink.batch.max-age", Duration.ofSeconds(5), "... or when its oldest row has waited this long (at-least-once; exactly-once writes at checkpoints)", Options::positiveDuration);
    public static final Option<Compression> SINK_COMPRESSION =
            new Option<>("sink.compression", Compression.LZ4, "lz4 | zstd | none: request body compression", Compression::parse);
    public static final Option<Boolean> SINK_ASYNC_INSERT =
            new Option<>("sink.async-insert", false, "Send with async_insert=1 and wait_for_async_insert=1", Options::bool);
    public static final Option<Integer> SINK_MAX_IN_FLIGHT =
            new Option<>("sink.max-in-flight", 2, "INSERTs outstanding per sink subtask; when all are busy the sink blocks (backpressure)", Options::positiveInt);
    public static final Option<Integer> SINK_RETRY_MAX_ATTEMPTS =
            new Option<>("sink.retry.max-attempts", 10, "Attempts per batch on retryable errors before the job fails (and restarts from its last checkpoint)", Options::positiveInt);
    public static final Option<Duration> SINK_RETRY_INITIAL_BACKOFF =
            new Option<>("sink.retry.initial-backoff", Duration.ofMillis(200), "First pause between attempts; doubles each time", Options::positiveDuration);
    public static final Option<Duration> SINK_RETRY_MAX_BACKOFF =
            new Option<>("sink.retry.max-backoff", Duration.ofSeconds(30), "Longest pause between attempts", Options::positiveDuration);
    public static final Option<Duration> SINK_REQUEST_TIMEOUT =
            new Option<>("sink.request-timeout", Duration.ofMinutes(2), "How long one INSERT may take before it is retried", Options::positiveDuration);
    public static final Option<TableRefusalAction> SINK_TABLE_REFUSAL =
            new Option<>("sink.table-refusal", TableRefusalAction.FAIL, "fail | dead-letter: when a table refuses a batch as a whole (its columns changed incompatibly, or it refused every record of 3 batches in a row, 100 or more), fail stops the job once naming the table (no restart loop); dead-letter sends the records to the dead-letter topic and goes on", TableRefusalAction::parse);
    public static final Option<Duration> CHECKPOINT_INTERVAL =
            new Option<>("checkpoint.interval", Duration.ofSeconds(10), "Checkpoint interval: how often offsets are secured (every buffered row is written first)", Options::positiveDuration);

    /** The option that names a signal's topic. */
    public static Option<String> topic(Signal signal) {
        switch (signal) {
            case TRACES:
                return KAFKA_TOPICS_TRACES;
            case LOGS:
                return KAFKA_TOPICS_LOGS;
            default:
                return KAFKA_TOPICS_METRICS;
        }
    }

    /** The option that names a table. */
    public static Option<String> table(OtelTable table) {
        switch (table) {
            case TRACES:
                return CLICKHOUSE_TABLES_TRACES;
            case LOGS:
                return CLICKHOUSE_TABLES_LOGS;
            case METRICS_GAUGE:
                return CLICKHOUSE_TABLES_METRICS_GAUGE;
            case METRICS_SUM:
                return CLICKHOUSE_TABLES_METRICS_SUM;
            case METRICS_HISTOGRAM:
                return CLICKHOUSE_TABLES_METRICS_HISTOGRAM;
            case METRICS_EXPONENTIAL_HISTOGRAM:
                return CLICKHOUSE_TABLES_METRICS_EXPONENTIAL_HISTOGRAM;
            default:
                return CLICKHOUSE_TABLES_METRICS_SUMMARY;
        }
    }

    /** TLS and SASL to the Kafka cluster the job reads. */
    public static final KafkaOptions KAFKA = new KafkaOptions("kafka.", "the Kafka cluster the job reads");
    public static final String DLQ_KAFKA_PROPERTIES_PREFIX = "dlq.kafka.properties.";
    public static final Option<String> DLQ_KAFKA_BOOTSTRAP_SERVERS =
            new Option<>("dlq.kafka.bootstrap-servers", null, "Another Kafka cluster for the dead-letter topic; it is then reached with the dlq.kafka.* settings only (default: the cluster the job reads, with its settings)", Options::string);
    /** TLS and SASL to a dead-letter cluster of its own. */
    public static final KafkaOptions DLQ_KAFKA = new KafkaOptions("dlq.kafka.", "the dead-letter cluster");

    /** All options, in the order the README lists them. */
    public static final List<Option<?>> ALL = all();

    private static List<Option<?>> all() {
        List<Option<?>> out = new java.util.ArrayList<>(List.of(
                    SIGNALS,
                    KAFKA_BOOTSTRAP_SERVERS,
                    KAFKA_GROUP_ID,
                    KAFKA_TOPICS_TRACES,
                    KAFKA_TOPICS_LOGS,
                    KAFKA_TOPICS_METRICS,
                    KAFKA_ENCODING,
                    KAFKA_STARTING_OFFSETS,
                    KAFKA_BOUNDED,
                    DLQ_TOPIC,
                    PARALLELISM,
                    DECODE_PARALLELISM,
                    DECODE_MAX_ROWS_PER_RECORD,
                    DECODE_MAX_BYTES_PER_RECORD,
                    CLICKHOUSE_URL,
                    CLICKHOUSE_DATABASE,
                    CLICKHOUSE_USER,
                    CLICKHOUSE_PASSWORD_ENV,
                    CLICKHOUSE_PASSWORD_FILE,
                    CLICKHOUSE_TLS_CA_FILE,
                    CLICKHOUSE_TLS_CLIENT_CERT_FILE,
                    CLICKHOUSE_TLS_CLIENT_KEY_FILE,
                    CLICKHOUSE_TLS_CLIENT_KEY_PASSWORD_ENV,
                    CLICKHOUSE_TLS_CLIENT_KEY_PASSWORD_FILE,
                    CLICKHOUSE_TLS_VERIFY_HOSTNAME,
                    CLICKHOUSE_TABLES_TRACES,
                    CLICKHOUSE_TABLES_LOGS,
                    CLICKHOUSE_TABLES_METRICS_GAUGE,
                    CLICKHOUSE_TABLES_METRICS_SUM,
                    CLICKHOUSE_TABLES_METRICS_HISTOGRAM,
                    CLICKHOUSE_TABLES_METRICS_EXPONENTIAL_HISTOGRAM,
                    CLICKHOUSE_TABLES_METRICS_SUMMARY,
                    CLICKHOUSE_SCHEMA,
                    CLICKHOUSE_CREATE_SCHEMA,
                    SINK_DELIVERY,
                    SINK_EXACTLY_ONCE_MAX_BYTES_PER_CHECKPOINT,
                    SINK_BATCH_MAX_ROWS,
                    SINK_BATCH_MAX_BYTES,
                    SINK_BATCH_MAX_AGE,
                    SINK_COMPRESSION,
                    SINK_ASYNC_INSERT,
                    SINK_MAX_IN_FLIGHT,
                    SINK_RETRY_MAX_ATTEMPTS,
                    SINK_RETRY_INITIAL_BACKOFF,
                    SINK_RETRY_MAX_BACKOFF,
                    SINK_REQUEST_TIMEOUT,
                    SINK_TABLE_REFUSAL,
                    CHECKPOINT_INTERVAL));
        out.addAll(out.indexOf(KAFKA_BOUNDED) + 1, KAFKA.all());
        List<Option<?>> dlq = new java.util.ArrayList<>();
        dlq.add(DLQ_KAFKA_BOOTSTRAP_SERVERS);
        dlq.addAll(DLQ_KAFKA.all());
        out.addAll(out.indexOf(DLQ_TOPIC) + 1, dlq);
        return List.copyOf(out);
    }

    private static Long recordBytes(String s) {
        long v = Options.positiveBytes(s);
        if (v > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("must be below 2 gb (one buffer holds a record's rows)");
        }
        return v;
    }

    private static String httpUrls(String s) {
        List<String> urls = ClickHouseEndpoint.splitUrls(s);
        if (urls.isEmpty()) {
            throw new IllegalArgumentException("needs at least one http:// or https:// URL");
        }
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (String u : urls) {
            if (!(u.startsWith("http://") || u.startsWith("https://"))) {
                throw new IllegalArgumentException("each URL must start with http:// or https://");
            }
            java.net.URI.create(u);
            if (!seen.add(u.replaceAll("/+$", ""))) {
                throw new IllegalArgumentException("'" + u + "' is listed twice");
            }
        }
        return s;
    }
}
