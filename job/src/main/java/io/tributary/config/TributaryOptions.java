package io.tributary.config;

import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.clickhouse.body.Compression;
import io.tributary.clickhouse.tls.ClickHouseTls;
import io.tributary.otlp.Signal;
import io.tributary.schema.SchemaFlavor;
import io.tributary.sink.Delivery;
import io.tributary.sink.InsertFormat;
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

    private static final Option.Type<String> TOPICS = new Option.Type<>("comma-separated topics or `^regex`", Options::optionalString);
    private static final Option.Type<String> ENCODINGS =
            new Option.Type<>("an encoding, or comma-separated `topic:encoding` entries", Options::optionalString);

    public static final Option<Set<Signal>> SIGNALS =
            new Option<>("signals", EnumSet.of(Signal.TRACES, Signal.LOGS, Signal.METRICS), "Signals to move; a signal whose `kafka.topics.<signal>` is empty is off too. `profiles` (OTLP profiles, a signal still in development whose proto changes between releases) is off unless named: `traces,logs,metrics,profiles`", new Option.Type<>("comma-separated", List.of("traces", "logs", "metrics", "profiles"), Signal::parseList));
    public static final Option<String> KAFKA_BOOTSTRAP_SERVERS =
            new Option<>("kafka.bootstrap-servers", "localhost:9092", "Kafka brokers, `host:port[,host:port]`", Options.STRING);
    public static final Option<String> KAFKA_GROUP_ID =
            new Option<>("kafka.group-id", "tributary", "Consumer group; offsets are committed to it on each checkpoint (for lag monitoring)", Options.STRING);
    public static final Option<String> KAFKA_TOPICS_TRACES =
            new Option<>("kafka.topics.traces", "otlp_spans", "Topics with OTLP trace records, comma-separated; an entry starting with `^` is a regular expression that selects every topic it matches (found while the job runs too), as the collector's kafkareceiver reads it; empty: traces off. One source reads the topics of every signal that runs; a topic two signals name, or `dlq.topic`, is refused", TributaryOptions.TOPICS);
    public static final Option<String> KAFKA_TOPICS_LOGS =
            new Option<>("kafka.topics.logs", "otlp_logs", "The same as `kafka.topics.traces`, for log records; empty: logs off", TributaryOptions.TOPICS);
    public static final Option<String> KAFKA_TOPICS_METRICS =
            new Option<>("kafka.topics.metrics", "otlp_metrics", "The same as `kafka.topics.traces`, for metric records; empty: metrics off", TributaryOptions.TOPICS);
    public static final Option<String> KAFKA_TOPICS_PROFILES =
            new Option<>("kafka.topics.profiles", "otlp_profiles", "The same as `kafka.topics.traces`, for profile records (read only when `signals` names `profiles`); empty: profiles off", TributaryOptions.TOPICS);
    public static final Option<String> KAFKA_ENCODING =
            new Option<>("kafka.encoding", "auto", "How record values are encoded, for every signal whose `kafka.encodings.<signal>` is empty: `otlp_proto` (an `Export*ServiceRequest` or `*Data` protobuf message), `otlp_json` (OTLP/JSON), or `auto`, decided per record: protobuf when the bytes frame as an export request, unless they are also one complete JSON object (a protobuf record carrying any telemetry holds a `0x12` byte, which JSON text cannot, so such a record is never taken for JSON, whatever its first bytes), else JSON when `{` follows JSON whitespace, else protobuf. Any other encoding name is taken too when every signal that runs has it (see `kafka.encodings.traces`)", Options.STRING);
    public static final Option<String> KAFKA_ENCODINGS_TRACES =
            new Option<>("kafka.encodings.traces", "", "Encoding of trace records, overriding `kafka.encoding`, with the names of the collector kafkareceiver's `encoding`: `auto`, `otlp_proto`, `otlp_json`, `zipkin_json`, `zipkin_proto`, `zipkin_thrift`, `jaeger_proto` (a Jaeger `model.Span` in protobuf), `jaeger_json` (the same in Jaeger's JSON), or one an encoding jar adds (see [encodings](encodings.md)). Per topic: a comma list of `topic:encoding` entries (`^regex:encoding` too), with at most one plain name for the topics no entry names. A name the signal does not take is refused at start", ENCODINGS);
    public static final Option<String> KAFKA_ENCODINGS_LOGS =
            new Option<>("kafka.encodings.logs", "", "The same as `kafka.encodings.traces`, for log records: `auto`, `otlp_proto`, `otlp_json`, `raw` (the value as a bytes body), `text` (a string body, UTF-8; `text_<charset>` for another charset, such as `text_utf-16` or `text_windows-1252`), `json` (the JSON document as the body)", ENCODINGS);
    public static final Option<String> KAFKA_ENCODINGS_METRICS =
            new Option<>("kafka.encodings.metrics", "", "The same as `kafka.encodings.traces`, for metric records: `auto`, `otlp_proto`, `otlp_json`", ENCODINGS);
    public static final Option<String> KAFKA_ENCODINGS_PROFILES =
            new Option<>("kafka.encodings.profiles", "", "The same as `kafka.encodings.traces`, for profile records: `auto`, `otlp_proto`, `otlp_json` (`ExportProfilesServiceRequest` or `ProfilesData` of opentelemetry-proto v1.10/v1.11; a protobuf record the job can tell is of another version is a dead letter, see [tables](tables.md#profiles))", ENCODINGS);
    public static final Option<String> KAFKA_HEADER_EXTRACTION_HEADERS =
            new Option<>("kafka.header-extraction.headers", "", "Kafka headers to keep, comma-separated (the collector kafkareceiver's `header_extraction`): each one a record carries becomes the string attribute `kafka.header.<name>` of every resource of the record, for every signal and encoding, replacing an attribute of that name; a header the record lacks adds nothing. Empty: off", new Option.Type<>("comma-separated header names", Options::optionalString));
    public static final Option<StartingOffsets> KAFKA_STARTING_OFFSETS =
            new Option<>("kafka.starting-offsets", StartingOffsets.COMMITTED, "Where to start when not restoring from a checkpoint or savepoint: the consumer group's `committed` offsets (falling back to earliest), `earliest` or `latest`", Option.Type.oneOf(StartingOffsets::parse, "committed", "earliest", "latest"));
    public static final Option<Boolean> KAFKA_BOUNDED =
            new Option<>("kafka.bounded", false, "Stop at the topics' end offsets read when the job is built (at submission), write everything, and finish (backfills, tests), whatever state the job starts from; partitions a bounded run finished are read on by the runs after it", Options.BOOLEAN);
    public static final Option<String> DLQ_TOPIC =
            new Option<>("dlq.topic", "otlp_dlq", "Topic for dead letters: records that cannot be decoded or render more than `decode.max-rows-per-record` or `decode.max-bytes-per-record`, and records whose rows ClickHouse refuses for what they hold, each with its original key, value and headers plus `tributary.*` headers naming the error and the source; on the cluster the job reads unless `dlq.kafka.bootstrap-servers` names another; created at start when missing (one partition, `max.message.bytes` 64 MiB). Empty: such records are only logged and counted (and those ClickHouse refuses dropped). See docs/dead-letters.md", new Option.Type<>("topic, may be empty", Options::optionalString));
    public static final Option<Integer> PARALLELISM =
            new Option<>("parallelism", null, "Job parallelism (the source, and decode and sink unless `decode.parallelism` is set); default: the cluster's `parallelism.default`", Options.POSITIVE_INT);
    public static final Option<Integer> DECODE_PARALLELISM =
            new Option<>("decode.parallelism", null, "Parallelism of the decode and sink operators; default: the job parallelism. When it differs from the source's, records are rebalanced round-robin (and the operators no longer chain into one task)", Options.POSITIVE_INT);
    // What one record may render; past either bound it is a dead letter.
    public static final Option<Integer> DECODE_MAX_ROWS_PER_RECORD =
            new Option<>(RecordBounds.MAX_ROWS_KEY, RecordBounds.DEFAULT_MAX_ROWS, "Rows one Kafka record may render, all its tables together; a record with more goes to the dead-letter topic, its message naming this key (see docs/dead-letters.md)", Options.POSITIVE_INT);
    public static final Option<Long> DECODE_MAX_BYTES_PER_RECORD =
            new Option<>(RecordBounds.MAX_BYTES_KEY, (long) RecordBounds.DEFAULT_MAX_BYTES, "Uncompressed RowBinary bytes one Kafka record may render, all its tables together; a record with more goes to the dead-letter topic. The most heap a decoding slot holds for one record's rows; the default equals `sink.batch.max-bytes`'s, so a record's rows always fit one INSERT", new Option.Type<>("size, below `2 gb`", TributaryOptions::recordBytes));
    public static final Option<String> CLICKHOUSE_URL =
            new Option<>("clickhouse.url", "http://localhost:8123", "ClickHouse's HTTP interface, `http://` or `https://`; several, comma-separated (replicas, or proxies in front of them): INSERTs go round-robin over the healthy ones and one that fails is taken out for a while (see docs/production.md#several-clickhouse-endpoints). A URL listed twice, or a user or password in a URL, is refused (use `clickhouse.user` and a password key), and a password sent over plain `http://` to a host other than this one is warned of at start", new Option.Type<>("comma-separated URLs", TributaryOptions::httpUrls));
    public static final Option<String> CLICKHOUSE_DATABASE =
            new Option<>("clickhouse.database", "otel", "Database of the tables", Options.STRING);
    public static final Option<String> CLICKHOUSE_USER =
            new Option<>("clickhouse.user", "default", "ClickHouse user", Options.STRING);
    public static final Option<String> CLICKHOUSE_PASSWORD_ENV =
            new Option<>("clickhouse.password-env", null, "Name of the environment variable (on the TaskManagers) that holds the ClickHouse password. There is no `clickhouse.password`: a secret is never an argument (see docs/production.md#secrets)", Options.ENV);
    public static final Option<String> CLICKHOUSE_PASSWORD_FILE =
            new Option<>("clickhouse.password-file", null, "Path of a file (on the TaskManagers) that holds the password; set either this or `clickhouse.password-env`", Options.FILE);
    public static final Option<String> CLICKHOUSE_TLS_CA_FILE =
            new Option<>(ClickHouseTls.CA_FILE, null, "PEM bundle of the CAs that sign ClickHouse's certificate (for `https://` URLs); default: the JVM's trust store. Read again when it changes; set without an `https://` URL it is unused, which is warned of at start", Options.FILE);
    public static final Option<String> CLICKHOUSE_TLS_CLIENT_CERT_FILE =
            new Option<>(ClickHouseTls.CLIENT_CERT_FILE, null, "PEM client certificate (chain) for mutual TLS, given with `clickhouse.tls.client-key-file` (one without the other is refused); read again when it changes (see docs/production.md#tls-to-clickhouse)", Options.FILE);
    public static final Option<String> CLICKHOUSE_TLS_CLIENT_KEY_FILE =
            new Option<>(ClickHouseTls.CLIENT_KEY_FILE, null, "PEM private key of the client certificate: PKCS #8, plain or encrypted, or PKCS #1 RSA (older OpenSSL formats are refused with the command that converts them); read again when it changes", Options.FILE);
    public static final Option<String> CLICKHOUSE_TLS_CLIENT_KEY_PASSWORD_ENV =
            new Option<>(ClickHouseTls.KEY_PASSWORD_ENV, null, "Name of the environment variable (on the TaskManagers) that holds the client key's password (never an argument)", Options.ENV);
    public static final Option<String> CLICKHOUSE_TLS_CLIENT_KEY_PASSWORD_FILE =
            new Option<>(ClickHouseTls.KEY_PASSWORD_FILE, null, "Path of a file (on the TaskManagers) that holds the client key's password; set either this or the `-env` key", Options.FILE);
    public static final Option<Boolean> CLICKHOUSE_TLS_VERIFY_HOSTNAME =
            new Option<>(ClickHouseTls.VERIFY_HOSTNAME, true, "Check that ClickHouse's certificate names the URL's host; `false` is warned of at start", Options.BOOLEAN);
    public static final Option<String> CLICKHOUSE_TABLES_TRACES =
            new Option<>("clickhouse.tables.traces", "otel_traces", "Spans table", Options.STRING);
    public static final Option<String> CLICKHOUSE_TABLES_LOGS =
            new Option<>("clickhouse.tables.logs", "otel_logs", "Log records table", Options.STRING);
    public static final Option<String> CLICKHOUSE_TABLES_METRICS_GAUGE =
            new Option<>("clickhouse.tables.metrics.gauge", "otel_metrics_gauge", "Gauge points table", Options.STRING);
    public static final Option<String> CLICKHOUSE_TABLES_METRICS_SUM =
            new Option<>("clickhouse.tables.metrics.sum", "otel_metrics_sum", "Sum points table", Options.STRING);
    public static final Option<String> CLICKHOUSE_TABLES_METRICS_HISTOGRAM =
            new Option<>("clickhouse.tables.metrics.histogram", "otel_metrics_histogram", "Histogram points table", Options.STRING);
    public static final Option<String> CLICKHOUSE_TABLES_METRICS_EXPONENTIAL_HISTOGRAM =
            new Option<>("clickhouse.tables.metrics.exponential_histogram", "otel_metrics_exponential_histogram", "Exponential histogram points table", Options.STRING);
    public static final Option<String> CLICKHOUSE_TABLES_METRICS_SUMMARY =
            new Option<>("clickhouse.tables.metrics.summary", "otel_metrics_summary", "Summary points table", Options.STRING);
    public static final Option<String> CLICKHOUSE_TABLES_PROFILES =
            new Option<>("clickhouse.tables.profiles", "otel_profiles", "Profile samples table (ClickHouse 26.2 or newer: its text indexes)", Options.STRING);
    public static final Option<SchemaFlavor> CLICKHOUSE_SCHEMA =
            new Option<>("clickhouse.schema", SchemaFlavor.MAP, "The tables' flavour: the exporter's, attributes as `Map` columns (`map`) or as `JSON` columns plus `*AttributesKeys` (`json`, see docs/tables.md#json-flavour); or Coroot's `otel_traces` and `otel_logs` with its views, rows in Coroot's conventions (`coroot`, traces and logs only: see docs/tables.md#coroot-flavour)", Option.Type.oneOf(SchemaFlavor::parse, "map", "json", "coroot"));
    public static final Option<Boolean> CLICKHOUSE_CREATE_SCHEMA =
            new Option<>("clickhouse.create-schema", false, "Create the database and the tables of the signals that run at start if missing (MergeTree, as the exporter does; with `sink.delivery exactly-once`, with a deduplication window), as `bin/tributary schema create` does", Options.BOOLEAN);
    public static final Option<Delivery> SINK_DELIVERY =
            new Option<>("sink.delivery", Delivery.AT_LEAST_ONCE, "`at-least-once`: every row is written before the checkpoint that covers it completes (a replay after a failure may write rows again); `exactly-once`: each checkpoint's batches are inserted once it completes, each INSERT with a deduplication token (the tables need a deduplication window). See docs/exactly-once.md", Option.Type.oneOf(Delivery::parse, "at-least-once", "exactly-once"));
    public static final Option<Long> SINK_EXACTLY_ONCE_MAX_BYTES_PER_CHECKPOINT =
            new Option<>("sink.exactly-once.max-bytes-per-checkpoint", 128L << 20, "Exactly once: Kafka record bytes each source subtask reads past the last completed checkpoint before it pauses until the next one completes; bounds the batches a checkpoint holds (see docs/exactly-once.md)", Options.SIZE);
    public static final Option<Integer> SINK_BATCH_MAX_ROWS =
            new Option<>("sink.batch.max-rows", 100_000, "A batch is sent when it holds this many rows, or `sink.batch.max-bytes`, or when `sink.batch.max-age` has passed, whichever comes first", Options.POSITIVE_INT);
    public static final Option<Long> SINK_BATCH_MAX_BYTES =
            new Option<>("sink.batch.max-bytes", 64L << 20, "…or when it holds this many uncompressed bytes (its RowBinary rows, or its Native columns). Also the budget the open batches of all tables of a sink subtask share (when they reach it together, the largest is sent): a subtask holds about `(1 + sink.max-in-flight) × sink.batch.max-bytes` of them, half as much again in Native (see docs/configuration.md#memory)", new Option.Type<>("size, below `2 gb`", Options::positiveBytes));
    public static final Option<Duration> SINK_BATCH_MAX_AGE =
            new Option<>("sink.batch.max-age", Duration.ofSeconds(5), "…or when its oldest row has waited this long; and always before a checkpoint completes (at least once; exactly once, batches are written when their checkpoint completes, whatever their age)", Options.DURATION);
    public static final Option<Compression> SINK_COMPRESSION =
            new Option<>("sink.compression", Compression.LZ4, "Request body compression: `lz4` (LZ4 frame), `zstd` or `none`", Option.Type.oneOf(Compression::parse, "lz4", "zstd", "none"));
    public static final Option<InsertFormat> SINK_FORMAT =
            new Option<>("sink.format", InsertFormat.NATIVE, "The INSERTs' format: `native` (a block of columns, `LowCardinality` as dictionaries: ClickHouse reads it with a fraction of the CPU, see docs/benchmarks.md) or `rowbinary` (`RowBinaryWithNamesAndTypes`, rows). A table with `JSON` columns (`clickhouse.schema json`) is written in RowBinary either way. Batches in a checkpoint keep the format they were made in", Option.Type.oneOf(InsertFormat::parse, "native", "rowbinary"));
    public static final Option<Boolean> SINK_ASYNC_INSERT =
            new Option<>("sink.async-insert", false, "Send with `async_insert=1` and `wait_for_async_insert=1` (INSERTs then carry no deduplication token); refused with `sink.delivery exactly-once`", Options.BOOLEAN);
    public static final Option<Integer> SINK_MAX_IN_FLIGHT =
            new Option<>("sink.max-in-flight", 2, "INSERTs outstanding per sink subtask; when all are busy the sink blocks (backpressure reaches Kafka)", Options.POSITIVE_INT);
    public static final Option<Integer> SINK_RETRY_MAX_ATTEMPTS =
            new Option<>("sink.retry.max-attempts", 10, "Attempts per batch on retryable errors before the job fails (and restarts from its last checkpoint)", Options.POSITIVE_INT);
    public static final Option<Duration> SINK_RETRY_INITIAL_BACKOFF =
            new Option<>("sink.retry.initial-backoff", Duration.ofMillis(200), "First pause between attempts; doubles each time (with jitter); must not exceed `sink.retry.max-backoff`", Options.DURATION);
    public static final Option<Duration> SINK_RETRY_MAX_BACKOFF =
            new Option<>("sink.retry.max-backoff", Duration.ofSeconds(30), "Longest pause between attempts", Options.DURATION);
    public static final Option<Duration> SINK_REQUEST_TIMEOUT =
            new Option<>("sink.request-timeout", Duration.ofMinutes(2), "How long one INSERT may take before it is retried (after the backoff, with the same deduplication token)", Options.DURATION);
    public static final Option<TableRefusalAction> SINK_TABLE_REFUSAL =
            new Option<>("sink.table-refusal", TableRefusalAction.FAIL, "What happens when a table refuses a batch as a whole — its columns changed incompatibly (also a checkpoint's batch encoded before the change), it refused every record of 3 batches in a row (100 or more records) or more than 1,000 of one batch one by one, a view refused rows of a table without a deduplication window, an error code the job does not know: `fail` stops the job once, naming the table and ClickHouse's message, without a restart; `dead-letter` sends the records not stored to the dead-letter topic and goes on (see docs/configuration.md#retries-and-refusals)", Option.Type.oneOf(TableRefusalAction::parse, "fail", "dead-letter"));
    public static final Option<Duration> CHECKPOINT_INTERVAL =
            new Option<>("checkpoint.interval", Duration.ofSeconds(10), "Checkpoint interval: how often offsets are secured (every buffered row is written first)", Options.DURATION);

    /** The option that names a signal's topic. */
    public static Option<String> topic(Signal signal) {
        switch (signal) {
            case TRACES:
                return KAFKA_TOPICS_TRACES;
            case LOGS:
                return KAFKA_TOPICS_LOGS;
            case METRICS:
                return KAFKA_TOPICS_METRICS;
            default:
                return KAFKA_TOPICS_PROFILES;
        }
    }

    /** The option that names a signal's encodings. */
    public static Option<String> encodings(Signal signal) {
        switch (signal) {
            case TRACES:
                return KAFKA_ENCODINGS_TRACES;
            case LOGS:
                return KAFKA_ENCODINGS_LOGS;
            case METRICS:
                return KAFKA_ENCODINGS_METRICS;
            default:
                return KAFKA_ENCODINGS_PROFILES;
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
            case METRICS_SUMMARY:
                return CLICKHOUSE_TABLES_METRICS_SUMMARY;
            default:
                return CLICKHOUSE_TABLES_PROFILES;
        }
    }

    /** TLS and SASL to the Kafka cluster the job reads. */
    public static final KafkaOptions KAFKA = new KafkaOptions("kafka.", "the Kafka cluster the job reads");
    public static final String DLQ_KAFKA_PROPERTIES_PREFIX = "dlq.kafka.properties.";
    public static final Option<String> DLQ_KAFKA_BOOTSTRAP_SERVERS =
            new Option<>("dlq.kafka.bootstrap-servers", null, "Another Kafka cluster for the dead-letter topic, reached with the `dlq.kafka.*` settings only (`dlq.kafka.security.protocol`, `dlq.kafka.sasl.*`, `dlq.kafka.tls.*`, `dlq.kafka.properties.*`: the same keys as `kafka.*`); default: the cluster the job reads, with its settings. A `dlq.kafka.*` setting without it is refused", Options.STRING);
    /** TLS and SASL to a dead-letter cluster of its own. */
    public static final KafkaOptions DLQ_KAFKA = new KafkaOptions("dlq.kafka.", "the dead-letter cluster");

    /** All options, in the order docs/configuration.md and {@code --help} list them. */
    public static final List<Option<?>> ALL = all();

    private static List<Option<?>> all() {
        List<Option<?>> out = new java.util.ArrayList<>(List.of(
                    SIGNALS,
                    KAFKA_BOOTSTRAP_SERVERS,
                    KAFKA_GROUP_ID,
                    KAFKA_TOPICS_TRACES,
                    KAFKA_TOPICS_LOGS,
                    KAFKA_TOPICS_METRICS,
                    KAFKA_TOPICS_PROFILES,
                    KAFKA_ENCODING,
                    KAFKA_ENCODINGS_TRACES,
                    KAFKA_ENCODINGS_LOGS,
                    KAFKA_ENCODINGS_METRICS,
                    KAFKA_ENCODINGS_PROFILES,
                    KAFKA_HEADER_EXTRACTION_HEADERS,
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
                    CLICKHOUSE_TABLES_PROFILES,
                    CLICKHOUSE_SCHEMA,
                    CLICKHOUSE_CREATE_SCHEMA,
                    SINK_DELIVERY,
                    SINK_EXACTLY_ONCE_MAX_BYTES_PER_CHECKPOINT,
                    SINK_BATCH_MAX_ROWS,
                    SINK_BATCH_MAX_BYTES,
                    SINK_BATCH_MAX_AGE,
                    SINK_COMPRESSION,
                    SINK_FORMAT,
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
