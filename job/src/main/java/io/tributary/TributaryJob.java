package io.tributary;

import io.tributary.clickhouse.ClickHouseClient;
import io.tributary.config.ConfigException;
import io.tributary.config.Option;
import io.tributary.config.TributaryConfig;
import io.tributary.config.TributaryOptions;
import io.tributary.kafka.KafkaCheck;
import io.tributary.kafka.KafkaConnection;
import io.tributary.schema.TableEngine;
import io.tributary.sink.InsertSettings;
import io.tributary.topology.SchemaManager;
import io.tributary.topology.TributaryTopology;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Entry point of the shaded job jar on a Flink cluster ({@code flink run tributary-job.jar --key
 * value ...}). The keys: docs/configuration.md, or {@code run --help}.
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
        checkKafka(config);
        checkClickHouse(config);
        if (config.get(TributaryOptions.CLICKHOUSE_CREATE_SCHEMA)) {
            SchemaManager.create(TributaryTopology.endpoint(config), config, TableEngine.MERGE_TREE, null);
        }
        TributaryTopology.build(env, config);
        env.execute("Tributary: OTLP from Kafka to ClickHouse");
    }

    /**
     * Fails before the job is submitted when ClickHouse refuses us for reasons settings cause (a
     * TLS certificate, the host name, the client certificate, user and password), naming the
     * setting. Skipped where the password or certificate files are not (they may exist only on
     * the TaskManagers, whose sinks check the same at start); an endpoint that is away is only
     * logged: the sink retries it.
     */
    static void checkClickHouse(TributaryConfig config) throws Exception {
        String elsewhere = missingHere(config);
        if (elsewhere != null) {
            LOG.info("ClickHouse not checked from here ({}); the TaskManagers' sinks check it at start", elsewhere);
            return;
        }
        try (ClickHouseClient client = new ClickHouseClient(TributaryTopology.endpoint(config), Duration.ofSeconds(30))) {
            Map<String, IOException> away = client.check();
            away.forEach((endpoint, e) ->
                    LOG.warn("ClickHouse endpoint {} cannot be reached now; the sink retries it: {}", endpoint, e.getMessage()));
            if (away.size() < TributaryTopology.endpoint(config).urls().size()) {
                // a release that lacks a setting the INSERTs need fails now, naming it
                InsertSettings.checkServer(TributaryTopology.sinkSettings(config), client);
            }
        } catch (IOException e) {
            // a refusal settings cause (ClickHouseException), or a file here that cannot be used
            throw new ConfigException(e.getMessage(), e);
        }
    }

    /**
     * Fails before the job is submitted when a Kafka cluster it uses (the one it reads, and the
     * dead-letter one if that is another) refuses its credentials or certificates, naming the
     * setting; one that does not answer now is only logged.
     */
    static void checkKafka(TributaryConfig config) {
        List<KafkaConnection> clusters = new java.util.ArrayList<>(List.of(config.kafka()));
        if (!config.get(TributaryOptions.DLQ_TOPIC).isEmpty() && config.get(TributaryOptions.DLQ_KAFKA_BOOTSTRAP_SERVERS) != null) {
            clusters.add(config.deadLetterKafka());
        }
        for (KafkaConnection kafka : clusters) {
            String elsewhere = KafkaCheck.missingHere(kafka);
            if (elsewhere != null) {
                LOG.info("Kafka not checked from here ({}); its clients check it where they run", elsewhere);
                continue;
            }
            KafkaCheck.Outcome outcome;
            try {
                outcome = KafkaCheck.check(kafka);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(e.getMessage(), e);
            }
            if (outcome.unreachable() != null) {
                LOG.warn("Kafka cannot be reached now: {}", outcome.unreachable());
            }
        }
    }

    /** The first password or certificate source set but absent in this process, or null. */
    private static String missingHere(TributaryConfig config) {
        for (Option<String> env : List.of(TributaryOptions.CLICKHOUSE_PASSWORD_ENV, TributaryOptions.CLICKHOUSE_TLS_CLIENT_KEY_PASSWORD_ENV)) {
            String name = config.get(env);
            if (name != null && System.getenv(name) == null) {
                return env.key() + ": '" + name + "' is not set here";
            }
        }
        for (Option<String> file : List.of(TributaryOptions.CLICKHOUSE_PASSWORD_FILE, TributaryOptions.CLICKHOUSE_TLS_CA_FILE,
                TributaryOptions.CLICKHOUSE_TLS_CLIENT_CERT_FILE, TributaryOptions.CLICKHOUSE_TLS_CLIENT_KEY_FILE,
                TributaryOptions.CLICKHOUSE_TLS_CLIENT_KEY_PASSWORD_FILE)) {
            String path = config.get(file);
            if (path != null && !Files.exists(Path.of(path))) {
                return file.key() + ": '" + path + "' does not exist here";
            }
        }
        return null;
    }
}
