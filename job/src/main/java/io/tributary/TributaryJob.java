package io.tributary;

import io.tributary.config.TributaryConfig;
import io.tributary.config.TributaryOptions;
import io.tributary.tables.TableEngine;
import io.tributary.topology.SchemaManager;
import io.tributary.topology.TributaryTopology;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Entry point of the shaded job jar on a Flink cluster ({@code flink run tributary-job.jar --key
 * value ...}). See README for the keys.
 */
public final class TributaryJob {
    private static final Logger LOG = LoggerFactory.getLogger(TributaryJob.class);

    private TributaryJob() {}

    public static void main(String[] args) throws Exception {
        TributaryConfig config = TributaryConfig.fromArgs(args);
        run(StreamExecutionEnvironment.getExecutionEnvironment(), config);
    }

    /** Creates the schema when asked, wires the topology and runs it until it ends. */
    public static void run(StreamExecutionEnvironment env, TributaryConfig config) throws Exception {
        config.warnings().forEach(LOG::warn);
        if (config.get(TributaryOptions.CLICKHOUSE_CREATE_SCHEMA)) {
            SchemaManager.create(TributaryTopology.endpoint(config), config, TableEngine.MERGE_TREE, null);
        }
        TributaryTopology.build(env, config);
        env.execute("Tributary: OTLP from Kafka to ClickHouse");
    }
}
