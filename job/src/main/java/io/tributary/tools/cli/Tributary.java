package io.tributary.tools.cli;

import io.tributary.TributaryJob;
import io.tributary.clickhouse.ClickHouseCatalog;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.ConfigReference;
import io.tributary.config.TributaryConfig;
import io.tributary.config.TributaryOptions;
import io.tributary.schema.Placement;
import io.tributary.schema.TableEngine;
import io.tributary.sink.Delivery;
import io.tributary.tables.TableLayouts;
import io.tributary.tools.loadgen.LoadGenerator;
import io.tributary.topology.SchemaManager;
import io.tributary.topology.TributaryTopology;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.TimeUtils;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;

/**
 * The Java side of {@code bin/tributary}: {@code run} (the job in an embedded Flink with the web
 * dashboard), {@code schema create|print}, {@code loadgen}.
 */
public final class Tributary {

    private Tributary() {}

    public static void main(String[] argv) throws Exception {
        if (argv.length == 0) {
            usage();
            System.exit(2);
        }
        String[] rest = Arrays.copyOfRange(argv, 1, argv.length);
        try {
            switch (argv[0]) {
                case "run":
                    if (wantsHelp(rest)) {
                        System.out.print(ConfigReference.text());
                        return;
                    }
                    run(rest);
                    break;
                case "schema":
                    schema(rest);
                    break;
                case "loadgen":
                    LoadGenerator.main(rest);
                    break;
                default:
                    usage();
                    System.exit(2);
            }
        } catch (IllegalArgumentException e) {
            System.err.println("tributary: " + e.getMessage());
            System.exit(2);
        }
    }

    /**
     * Runs the job in an embedded Flink. Its checkpoints are kept when the process ends, however
     * it ends ({@code kill -9} included), under {@code execution.checkpointing.dir} (default
     * {@code .run/checkpoints/<kafka.group-id>}), and the next {@code run} resumes from the newest
     * one: the Kafka offsets of the last completed checkpoint and, with {@code sink.delivery =
     * exactly-once}, the batches it had yet to insert. {@code --restore none} starts afresh (from
     * the consumer group's committed offsets), {@code --restore <path>} from that checkpoint or
     * savepoint.
     */
    private static void run(String[] args) throws Exception {
        TributaryConfig.Parsed parsed = TributaryConfig.fromArgs(args, Set.of("restore"));
        TributaryConfig config = parsed.config();
        String restore = parsed.extra().getOrDefault("restore", "latest");
        Configuration conf = new Configuration();
        conf.set(RestOptions.PORT, 8081);
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        conf.addAll(Configuration.fromMap(config.flinkOptions()));
        if (!conf.contains(CheckpointingOptions.CHECKPOINTS_DIRECTORY)) {
            Path dir = Path.of(System.getProperty("tributary.home", "."), ".run", "checkpoints",
                    config.get(TributaryOptions.KAFKA_GROUP_ID));
            conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, dir.toAbsolutePath().normalize().toUri().toString());
        }
        if (!conf.contains(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION)) {
            conf.set(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION, ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        }
        Path local = Checkpoints.local(conf.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY));
        boolean exactlyOnce = config.get(TributaryOptions.SINK_DELIVERY) == Delivery.EXACTLY_ONCE;
        switch (restore) {
            case "none":
                if (exactlyOnce) {
                    System.err.println("tributary: warning: --restore none with sink.delivery = exactly-once: batches of"
                            + " the last checkpoint not yet inserted are lost, and rows since then written again");
                }
                break;
            case "latest":
                if (local == null) {
                    throw new IllegalArgumentException("--restore latest: cannot look for checkpoints in "
                            + conf.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY) + " (not a local directory);"
                            + " pass --restore <checkpoint path> or --restore none");
                }
                Path latest = Checkpoints.latest(local, exactlyOnce);
                if (latest != null) {
                    conf.set(StateRecoveryOptions.SAVEPOINT_PATH, latest.toUri().toString());
                }
                break;
            default:
                conf.set(StateRecoveryOptions.SAVEPOINT_PATH, restore);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironmentWithWebUI(conf);
        System.err.println("tributary: dashboard on http://localhost:" + conf.get(RestOptions.PORT));
        if (conf.contains(StateRecoveryOptions.SAVEPOINT_PATH)) {
            System.err.println("tributary: resuming from " + conf.get(StateRecoveryOptions.SAVEPOINT_PATH)
                    + " (--restore none to start from the group's committed offsets instead)");
        }
        TributaryJob.run(env, config);
        // Ended by itself (a bounded run): everything is written and Flink has removed this run's
        // checkpoints; an older one left behind must not be resumed from next time.
        if (local != null) {
            Checkpoints.deleteJobs(local, null);
        }
    }

    private static void schema(String[] args) throws Exception {
        if (args.length == 0 || !(args[0].equals("create") || args[0].equals("print") || args[0].equals("check"))) {
            throw new IllegalArgumentException("schema: use 'schema create', 'schema print' or 'schema check'");
        }
        TributaryConfig.Parsed parsed =
                TributaryConfig.fromArgs(Arrays.copyOfRange(args, 1, args.length), Set.of("engine", "ttl", "cluster", "distributed"));
        Map<String, String> extra = parsed.extra();
        String cluster = extra.get("cluster");
        TableEngine engine;
        try {
            engine = extra.containsKey("engine") ? TableEngine.parse(extra.get("engine"))
                    : cluster != null ? TableEngine.REPLICATED_MERGE_TREE : TableEngine.MERGE_TREE;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--engine: " + e.getMessage(), e);
        }
        boolean distributed = extra.containsKey("distributed") && !extra.get("distributed").equals("false");
        if (distributed && cluster == null) {
            throw new IllegalArgumentException("--distributed: needs --cluster NAME (the cluster whose shards it spreads over)");
        }
        Placement placement = new Placement(engine, cluster);
        Duration ttl;
        try {
            ttl = extra.containsKey("ttl") ? TimeUtils.parseDuration(extra.get("ttl")) : null;
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("--ttl: invalid duration '" + extra.get("ttl") + "'");
        }
        if (ttl != null && !ttl.isZero() && ttl.getSeconds() < 1) {
            throw new IllegalArgumentException("--ttl: " + extra.get("ttl") + " is under a second, which would expire every"
                    + " row at once; give whole seconds or more (0 for none)");
        }
        TributaryConfig c = parsed.config();
        String db = c.get(TributaryOptions.CLICKHOUSE_DATABASE);
        if (args[0].equals("print")) {
            System.out.print(SchemaManager.script(c, placement, ttl, distributed));
            return;
        }
        ClickHouseEndpoint endpoint = io.tributary.topology.TributaryTopology.endpoint(c);
        if (args[0].equals("check")) {
            TableLayouts.Check check = TableLayouts.check(new ClickHouseCatalog(endpoint, db),
                    c.get(TributaryOptions.CLICKHOUSE_SCHEMA), c.runningTables());
            System.out.print(check.text());
            if (!check.ok()) {
                System.err.println("tributary: the job would refuse to start on these tables");
                System.exit(1);
            }
            return;
        }
        SchemaManager.create(endpoint, c, placement, ttl, distributed);
        System.err.println("tributary: schema ready in " + endpoint.url() + " database " + db + ", " + c.get(TributaryOptions.CLICKHOUSE_SCHEMA).name().toLowerCase(java.util.Locale.ROOT) + " schema, signals " + c.signals()
                + " (" + engine.sql() + (cluster != null ? " ON CLUSTER " + cluster : "") + (distributed ? ", Distributed" : "") + (ttl != null ? ", TTL " + TimeUtils.formatWithHighestUnit(ttl) : "") + ")");
    }

    /**
     * {@code --help} anywhere (a value never starts with {@code --}), or {@code -h} first: the
     * settings reference instead of a run.
     */
    private static boolean wantsHelp(String[] args) {
        return (args.length > 0 && args[0].equals("-h")) || Arrays.asList(args).contains("--help");
    }

    private static void usage() {
        System.err.println("usage: tributary run [--restore latest|none|<path>] [--key value ...] (run --help: the keys) | schema create|print|check [...] | loadgen [...]");
    }
}
