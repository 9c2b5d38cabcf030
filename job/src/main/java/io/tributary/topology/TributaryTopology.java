package io.tributary.topology;

import static io.tributary.config.TributaryOptions.*;

import io.tributary.clickhouse.ClickHouseCatalog;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.deadletter.DeadLetter;
import io.tributary.deadletter.DeadLetterSink;
import io.tributary.decode.DecodeFunction;
import io.tributary.kafka.EndOffsets;
import io.tributary.kafka.ResumableKafkaSource;
import io.tributary.kafka.SourceRecord;
import io.tributary.kafka.SourceRecordDeserializer;
import io.tributary.kafka.StopPolicy;
import io.tributary.kafka.TopicSelection;
import io.tributary.otlp.Signal;
import io.tributary.schema.SchemaFlavor;
import io.tributary.schema.TableName;
import io.tributary.sink.ClickHouseSink;
import io.tributary.sink.Delivery;
import io.tributary.sink.SinkSettings;
import io.tributary.sink.SinkTable;
import io.tributary.tables.EncodedRows;
import io.tributary.tables.OtelTable;
import io.tributary.tables.RecordBounds;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * The one place the job's operators are wired: one Kafka source reading the topics of every signal
 * that runs, one decode operator (OTLP to RowBinary rows of each signal's tables) and one ClickHouse
 * sink that batches per table, chained into one task when the decode parallelism is the job's. The
 * uids are the job's state identity across savepoints: they never change once released.
 */
public final class TributaryTopology {

    private static final Logger LOG = LoggerFactory.getLogger(TributaryTopology.class);

    /**
     * The Kafka source; its state is the partitions' offsets. Released in 0.1 when it read only
     * the traces topic; it reads every signal's topic since, under the same uid, so savepoints of
     * traces-only jobs restore (the other topics' partitions are discovered and read from the start).
     */
    public static final String SOURCE_UID = "tributary-source-traces";
    /** Decode and encode, all signals (the name is from 0.1, see {@link #SOURCE_UID}); stateless. */
    public static final String DECODE_UID = "tributary-decode-traces";
    /**
     * ClickHouse sink writer; flushes on checkpoints, keeps no state. With {@code sink.delivery =
     * exactly-once} Flink adds its committer, whose state (the batches of completed checkpoints
     * not yet inserted) it keys by a uid derived from this one.
     */
    public static final String SINK_UID = "tributary-sink-clickhouse";
    /** Kafka sink of the dead-letter topic; flushes on checkpoints (at least once). */
    public static final String DLQ_SINK_UID = "tributary-sink-dlq";

    private TributaryTopology() {}

    /** Wires the job with the real Kafka source and sinks the config describes. */
    public static void build(StreamExecutionEnvironment env, TributaryConfig config) {
        build(env, config, kafkaSource(config), clickHouseSink(config),
                config.get(DLQ_TOPIC).isEmpty() ? null : deadLetterSink(config));
    }

    /** Wires the job with the given source and sinks; {@code deadLetters} may be null (log and count only). */
    public static void build(
            StreamExecutionEnvironment env,
            TributaryConfig config,
            Source<SourceRecord, ?, ?> source,
            Sink<EncodedRows> sink,
            Sink<DeadLetter> deadLetters) {
        configure(env, config);
        int jobParallelism = env.getParallelism();
        Integer decodeParallelism = config.get(DECODE_PARALLELISM);
        int decodeP = decodeParallelism != null ? decodeParallelism : jobParallelism;

        TopicSelection topics = config.topicSelection();
        config.encodings().forEach((signal, e) -> LOG.info("{} records: encodings by topic {}", signal.id(), e.entries()));
        String name = "Kafka: OTLP " + topics.signals().stream().map(Signal::id).collect(Collectors.joining(", "));
        DataStream<SourceRecord> records =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), name, TypeInformation.of(SourceRecord.class))
                        .uid(SOURCE_UID)
                        .name(name);
        if (decodeP != jobParallelism) {
            // Decoding scales apart from the partition count: spread records round-robin.
            records = records.rebalance();
        }
        SingleOutputStreamOperator<EncodedRows> rows =
                records.process(
                                new DecodeFunction(topics, config.encodings(), config.headerExtraction(), config.get(CLICKHOUSE_SCHEMA),
                                        new ClickHouseCatalog(endpoint(config), config.get(CLICKHOUSE_DATABASE)),
                                        config.runningTables(),
                                        new RecordBounds(config.get(DECODE_MAX_ROWS_PER_RECORD),
                                                (int) (long) config.get(DECODE_MAX_BYTES_PER_RECORD))),
                                TypeInformation.of(EncodedRows.class))
                        .uid(DECODE_UID)
                        .name("Decode OTLP")
                        .setParallelism(decodeP);
        // the name says the INSERT format ("ClickHouse: Native"); the uid, which savepoints know, never changes
        rows.sinkTo(sink).uid(SINK_UID).name("ClickHouse: " + config.get(SINK_FORMAT).clickHouseName().replace("WithNamesAndTypes", ""))
                .setParallelism(decodeP);
        if (deadLetters != null) {
            rows.getSideOutput(DecodeFunction.DEAD_LETTERS)
                    .sinkTo(deadLetters)
                    .uid(DLQ_SINK_UID)
                    .name("Kafka: dead letters")
                    .setParallelism(decodeP);
        }
    }

    /**
     * The dead-letter sink: the cluster of {@code dlq.kafka.*} (by default the one the job reads),
     * at least once (every letter is acknowledged before each checkpoint completes, so a record's
     * offset is never committed before its dead letter is stored); a letter the topic refuses as
     * too large is sent again without its value.
     */
    public static DeadLetterSink deadLetterSink(TributaryConfig config) {
        return new DeadLetterSink(config.get(DLQ_TOPIC), config.deadLetterKafka());
    }

    private static void configure(StreamExecutionEnvironment env, TributaryConfig config) {
        if (!config.flinkOptions().isEmpty()) {
            env.configure(Configuration.fromMap(config.flinkOptions()));
        }
        Integer p = config.get(PARALLELISM);
        if (p != null) {
            env.setParallelism(p);
        }
        // At-least-once checkpoints need no barrier alignment; the sink flushes before every
        // barrier passes, which is what makes the committed offsets safe. Exactly once, a decode
        // subtask fed by several source subtasks (rebalance) must not pass rows of records that
        // follow the barrier on one input into the checkpoint's batches before the barrier of the
        // others: their offsets are not in the checkpoint, so a restore would read them again.
        // Aligned barriers keep those rows out.
        env.enableCheckpointing(config.get(CHECKPOINT_INTERVAL).toMillis(),
                config.get(SINK_DELIVERY) == Delivery.EXACTLY_ONCE ? CheckpointingMode.EXACTLY_ONCE : CheckpointingMode.AT_LEAST_ONCE);
        if (config.get(SINK_DELIVERY) == Delivery.EXACTLY_ONCE
                && !env.getConfiguration().getOptional(CheckpointingOptions.CHECKPOINTS_DIRECTORY).isPresent()) {
            // The batches of each interval go into the checkpoint; the JobManager's own storage
            // takes 5 MB per task, so checkpoints would fail beyond a trickle of data.
            LOG.warn("sink.delivery = exactly-once keeps each checkpoint interval's batches in the checkpoint, but no"
                    + " execution.checkpointing.dir is set here: checkpoints larger than 5 MB per task will fail."
                    + " Set it (flink-conf/config.yaml, or --flink.execution.checkpointing.dir) to durable storage.");
        }
        // Records are freshly allocated by every operator and never mutated after emit.
        env.getConfig().enableObjectReuse();
    }

    /**
     * Consumer settings unless {@code kafka.properties.*} gives them: fewer, larger fetches (a fetch
     * waits up to 100 ms for 1 MiB, takes up to 8 MiB per partition, through a 1 MiB socket buffer)
     * instead of Kafka's one-byte minimum, 1 MiB per partition and 64 KiB buffer. Measured by {@code
     * bench job} (docs/benchmarks.md): about 10 % less job CPU per span at full rate.
     */
    static final Map<String, String> CONSUMER_DEFAULTS = Map.of(
            "fetch.min.bytes", Integer.toString(1 << 20),
            "fetch.max.wait.ms", "100",
            "max.partition.fetch.bytes", Integer.toString(8 << 20),
            "receive.buffer.bytes", Integer.toString(1 << 20));

    /** {@code kafka.properties.*}, over {@link #CONSUMER_DEFAULTS}. */
    static Properties consumerProperties(TributaryConfig config) {
        Properties p = new Properties();
        p.putAll(CONSUMER_DEFAULTS);
        p.putAll(config.kafka().properties());
        return p;
    }

    /**
     * The Kafka source of every running signal's topic. Bounded ({@code kafka.bounded}), it reads
     * where the topics end now, and the run stops there whatever state it starts from.
     */
    public static ResumableKafkaSource kafkaSource(TributaryConfig config) {
        TopicSelection topics = config.topicSelection();
        KafkaSourceBuilder<SourceRecord> b =
                KafkaSource.<SourceRecord>builder()
                        .setBootstrapServers(config.kafka().bootstrapServers())
                        .setGroupId(config.get(KAFKA_GROUP_ID))
                        // A pattern, not a list: a topic that does not exist yet is not an error; it
                        // is read once partition discovery sees it, as are new topics a regex selects.
                        .setTopicPattern(topics.subscription())
                        .setDeserializer(new SourceRecordDeserializer())
                        .setProperties(consumerProperties(config))
                        .setProperty("commit.offsets.on.checkpoint", "true")
                        .setProperty("client.id.prefix", config.get(KAFKA_GROUP_ID));
        if (!config.kafkaProperties().containsKey("partition.discovery.interval.ms")) {
            b.setProperty("partition.discovery.interval.ms", "60000");
        }
        switch (config.get(KAFKA_STARTING_OFFSETS)) {
            case EARLIEST:
                b.setStartingOffsets(OffsetsInitializer.earliest());
                break;
            case LATEST:
                b.setStartingOffsets(OffsetsInitializer.latest());
                break;
            default:
                b.setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST));
        }
        StopPolicy stops = StopPolicy.unbounded();
        if (config.get(KAFKA_BOUNDED)) {
            Map<TopicPartition, Long> end = EndOffsets.latest(config.kafka().bootstrapServers(),
                    config.kafka().properties(), topics);
            LOG.info("kafka.bounded: this run stops where the topics end now: {}", end);
            stops = StopPolicy.at(end);
            b.setBounded(OffsetsInitializer.offsets(end, OffsetResetStrategy.EARLIEST));
        }
        long budget = config.get(SINK_DELIVERY) == Delivery.EXACTLY_ONCE
                ? config.get(SINK_EXACTLY_ONCE_MAX_BYTES_PER_CHECKPOINT) : 0;
        return new ResumableKafkaSource(b.build(), topics, stops, budget);
    }

    /**
     * The ClickHouse sink writing the tables of the signals that run (and, exactly once, those of
     * batches restored from a checkpoint, whatever signals run now).
     */
    public static ClickHouseSink clickHouseSink(TributaryConfig config) {
        return ClickHouseSink.create(sinkSettings(config));
    }

    /** The sink's settings, from the config. */
    public static SinkSettings sinkSettings(TributaryConfig config) {
        SchemaFlavor flavor = config.get(CLICKHOUSE_SCHEMA);
        List<SinkTable> tables = new ArrayList<>();
        for (OtelTable t : OtelTable.values()) {
            TableName name = config.table(t);
            tables.add(new SinkTable(t, name, config.signals().contains(t.signal())));
        }
        return new SinkSettings(
                        endpoint(config),
                        config.get(CLICKHOUSE_DATABASE),
                        tables,
                        flavor,
                        config.get(SINK_DELIVERY),
                        flavor == SchemaFlavor.JSON ? Map.of("enable_json_type", "1") : Map.of(),
                        config.get(SINK_BATCH_MAX_ROWS),
                        config.get(SINK_BATCH_MAX_BYTES),
                        config.get(SINK_BATCH_MAX_AGE),
                        config.get(SINK_COMPRESSION),
                        config.get(SINK_FORMAT),
                        config.get(SINK_ASYNC_INSERT),
                        config.get(SINK_MAX_IN_FLIGHT),
                        config.get(SINK_RETRY_MAX_ATTEMPTS),
                        config.get(SINK_RETRY_INITIAL_BACKOFF),
                        config.get(SINK_RETRY_MAX_BACKOFF),
                        config.get(SINK_REQUEST_TIMEOUT),
                        config.get(SINK_TABLE_REFUSAL),
                        config.get(DLQ_TOPIC),
                        config.kafka(),
                        config.deadLetterKafka());
    }

    /** Where ClickHouse is, from the config. */
    public static ClickHouseEndpoint endpoint(TributaryConfig config) {
        return new ClickHouseEndpoint(
                config.get(CLICKHOUSE_URL),
                config.get(CLICKHOUSE_USER),
                config.get(CLICKHOUSE_PASSWORD_ENV),
                config.get(CLICKHOUSE_PASSWORD_FILE),
                config.clickHouseTls());
    }
}
