package io.tributary.topology;

import static io.tributary.config.TributaryOptions.*;

import io.tributary.config.TributaryConfig;
import io.tributary.decode.DecodeFunction;
import io.tributary.kafka.SourceRecord;
import io.tributary.kafka.SourceRecordDeserializer;
import io.tributary.schema.TracesSchema;
import io.tributary.sink.ClickHouseEndpoint;
import io.tributary.sink.ClickHouseSink;
import io.tributary.sink.EncodedRows;
import io.tributary.sink.SinkSettings;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

import java.util.List;

/**
 * The one place the job's operators are wired: Kafka source, decode (OTLP to RowBinary rows),
 * ClickHouse sink. The uids are the job's state identity across savepoints: they never change once
 * released.
 */
public final class TributaryTopology {

    /** Kafka source of OTLP trace records; its state is the partitions' offsets. */
    public static final String SOURCE_TRACES_UID = "tributary-source-traces";
    /** Decode and encode; stateless. */
    public static final String DECODE_TRACES_UID = "tributary-decode-traces";
    /** ClickHouse sink writer; flushes on checkpoints, keeps no state. */
    public static final String SINK_UID = "tributary-sink-clickhouse";

    /** The sink's table index of the spans table. */
    static final int TRACES_TABLE = 0;

    private TributaryTopology() {}

    /** Wires the job with the real Kafka source and ClickHouse sink the config describes. */
    public static void build(StreamExecutionEnvironment env, TributaryConfig config) {
        build(env, config, kafkaSource(config), clickHouseSink(config));
    }

    /** Wires the job with the given source and sink. */
    public static void build(
            StreamExecutionEnvironment env,
            TributaryConfig config,
            Source<SourceRecord, ?, ?> source,
            Sink<EncodedRows> sink) {
        configure(env, config);
        int jobParallelism = env.getParallelism();
        Integer decodeParallelism = config.get(DECODE_PARALLELISM);
        int decodeP = decodeParallelism != null ? decodeParallelism : jobParallelism;

        DataStream<SourceRecord> records =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "Kafka: OTLP traces",
                                TypeInformation.of(SourceRecord.class))
                        .uid(SOURCE_TRACES_UID)
                        .name("Kafka: OTLP traces");
        if (decodeP != jobParallelism) {
            // Decoding scales apart from the partition count: spread records round-robin.
            records = records.rebalance();
        }
        SingleOutputStreamOperator<EncodedRows> rows =
                records.process(new DecodeFunction(config.get(KAFKA_ENCODING), TRACES_TABLE),
                                TypeInformation.of(EncodedRows.class))
                        .uid(DECODE_TRACES_UID)
                        .name("Decode OTLP traces")
                        .setParallelism(decodeP);
        rows.sinkTo(sink).uid(SINK_UID).name("ClickHouse: RowBinary").setParallelism(decodeP);
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
        // barrier passes, which is what makes the committed offsets safe.
        env.enableCheckpointing(config.get(CHECKPOINT_INTERVAL).toMillis(), CheckpointingMode.AT_LEAST_ONCE);
        // Records are freshly allocated by every operator and never mutated after emit.
        env.getConfig().enableObjectReuse();
    }

    /** The Kafka source for the traces topic. */
    public static KafkaSource<SourceRecord> kafkaSource(TributaryConfig config) {
        KafkaSourceBuilder<SourceRecord> b =
                KafkaSource.<SourceRecord>builder()
                        .setBootstrapServers(config.get(KAFKA_BOOTSTRAP_SERVERS))
                        .setGroupId(config.get(KAFKA_GROUP_ID))
                        .setTopics(List.of(config.get(KAFKA_TOPICS_TRACES)))
                        .setDeserializer(new SourceRecordDeserializer())
                        .setProperties(config.kafkaProperties())
                        .setProperty("commit.offsets.on.checkpoint", "true")
                        .setProperty("client.id.prefix", config.get(KAFKA_GROUP_ID));
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
        if (config.get(KAFKA_BOUNDED)) {
            b.setBounded(OffsetsInitializer.latest());
        }
        return b.build();
    }

    /** The ClickHouse sink writing the spans table. */
    public static ClickHouseSink clickHouseSink(TributaryConfig config) {
        String db = config.get(CLICKHOUSE_DATABASE);
        String traces = config.get(CLICKHOUSE_TABLES_TRACES);
        return new ClickHouseSink(
                new SinkSettings(
                        endpoint(config),
                        List.of(TracesSchema.TABLE.insertSql(db, traces)),
                        List.of(db + "." + traces),
                        config.get(SINK_BATCH_MAX_ROWS),
                        config.get(SINK_BATCH_MAX_BYTES),
                        config.get(SINK_BATCH_MAX_AGE),
                        config.get(SINK_COMPRESSION),
                        config.get(SINK_ASYNC_INSERT),
                        config.get(SINK_MAX_IN_FLIGHT),
                        config.get(SINK_RETRY_MAX_ATTEMPTS),
                        config.get(SINK_RETRY_INITIAL_BACKOFF),
                        config.get(SINK_RETRY_MAX_BACKOFF),
                        config.get(SINK_REQUEST_TIMEOUT)));
    }

    /** Where ClickHouse is, from the config. */
    public static ClickHouseEndpoint endpoint(TributaryConfig config) {
        return new ClickHouseEndpoint(
                config.get(CLICKHOUSE_URL),
                config.get(CLICKHOUSE_USER),
                config.get(CLICKHOUSE_PASSWORD_ENV),
                config.get(CLICKHOUSE_PASSWORD_FILE));
    }
}
