package io.tributary.topology;

import io.tributary.clickhouse.ClickHouseClient;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.config.TributaryOptions;
import io.tributary.schema.Placement;
import io.tributary.schema.SchemaFlavor;
import io.tributary.schema.Sql;
import io.tributary.schema.TableEngine;
import io.tributary.sink.Delivery;
import io.tributary.otlp.Signal;
import io.tributary.tables.OtelTable;
import io.tributary.tables.coroot.CorootSchema;
import io.tributary.tables.traces.TracesSchema;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Creates the database and the tables of the signals that run, if missing. */
public final class SchemaManager {

    private SchemaManager() {}

    /**
     * Blocks a MergeTree table remembers to drop repeated INSERTs, with {@code sink.delivery =
     * exactly-once}: far more than the INSERTs into one table between a checkpoint and a restore
     * that sends its batches again (a handful per sink subtask), leaving room for other writers.
     */
    public static final int DEDUPLICATION_WINDOW = 1000;

    /**
     * Every statement, in order, that {@link #create} runs: the database, then the tables of each
     * signal the config runs, in the config's schema flavour; with {@code sink.delivery =
     * exactly-once}, MergeTree tables keep a deduplication window of {@link #DEDUPLICATION_WINDOW}.
     */
    public static List<String> statements(TributaryConfig config, TableEngine engine, Duration ttl) {
        return statements(config, Placement.of(engine), ttl, false);
    }

    /** Suffix of the local tables behind the Distributed ones ({@code distributed}). */
    public static final String LOCAL_SUFFIX = "_local";

    /**
     * As {@link #statements(TributaryConfig, TableEngine, Duration)}, placed: on a cluster every
     * statement runs {@code ON CLUSTER}, and with {@code distributed} each table the job writes
     * ({@code otel_traces}, ...) is a Distributed table over a local one of the same name plus
     * {@link #LOCAL_SUFFIX} on every shard. The sharding keys are the rows' own values, never
     * {@code rand()}: a batch sent again after a failure must split over the shards as it did the
     * first time, or its deduplication token would drop rows on one shard and repeat them on
     * another. Spans and the trace-id lookup go by trace id (a trace stays on one shard), log
     * records by service and time, points by service, metric and time.
     */
    public static List<String> statements(TributaryConfig config, Placement placement, Duration ttl, boolean distributed) {
        if (distributed && placement.cluster() == null) {
            throw new IllegalArgumentException("--distributed needs --cluster: a Distributed table spreads over a cluster's shards");
        }
        String db = config.get(TributaryOptions.CLICKHOUSE_DATABASE);
        SchemaFlavor flavor = config.get(TributaryOptions.CLICKHOUSE_SCHEMA);
        if (flavor == SchemaFlavor.COROOT) {
            placement = corootPlacement(placement);
            ttl = ttl == null ? CorootSchema.DEFAULT_TTL : ttl;
        }
        boolean replicated = placement.engine().name().startsWith("Replicated") || placement.engine().name().startsWith("Shared");
        // a Replicated table keeps replicated_deduplication_window (on by default); a plain one needs its own
        String extra = config.get(TributaryOptions.SINK_DELIVERY) == Delivery.EXACTLY_ONCE && placement.engine().stores()
                && !replicated
                ? "non_replicated_deduplication_window = " + DEDUPLICATION_WINDOW
                : "";
        List<String> out = new ArrayList<>();
        out.add("CREATE DATABASE IF NOT EXISTS " + Sql.ident(db) + placement.onCluster());
        if (flavor == SchemaFlavor.COROOT) {
            out.addAll(corootStatements(config, db, placement, ttl, extra, distributed));
            return out;
        }
        for (OtelTable t : OtelTable.values()) {
            if (!config.signals().contains(t.signal())) {
                continue;
            }
            String name = config.table(t).name();
            String local = distributed ? name + LOCAL_SUFFIX : name;
            if (t == OtelTable.TRACES) {
                out.addAll(TracesSchema.createStatements(db, local, flavor, placement, ttl, extra));
                if (distributed) {
                    out.add(distributedTable(db, name, local, placement, "cityHash64(TraceId)"));
                    if (placement.engine().stores()) {
                        out.add(distributedTable(db, name + "_trace_id_ts", local + "_trace_id_ts", placement,
                                "cityHash64(TraceId)"));
                    }
                }
            } else {
                out.add(t.schema(flavor).createTableSql(db, local, placement, ttl, extra));
                if (distributed) {
                    out.add(distributedTable(db, name, local, placement, shardingKey(t)));
                }
            }
        }
        return out;
    }

    /**
     * Coroot's tables and views for the signals that run, as its migration makes them ({@link
     * CorootSchema}); with {@code distributed}, Coroot's {@code _distributed} tables over them: the
     * job then writes {@code otel_traces_distributed} and {@code otel_logs_distributed} when
     * {@code clickhouse.tables.*} name them.
     */
    private static List<String> corootStatements(TributaryConfig config, String db, Placement placement, Duration ttl,
            String extra, boolean distributed) {
        List<String> out = new ArrayList<>();
        String traces = config.signals().contains(Signal.TRACES) ? local(config.table(OtelTable.TRACES).name()) : null;
        String logs = config.signals().contains(Signal.LOGS) ? local(config.table(OtelTable.LOGS).name()) : null;
        if (logs != null) {
            out.addAll(CorootSchema.logs(db, logs, placement, ttl, extra));
        }
        if (traces != null) {
            out.addAll(CorootSchema.traces(db, traces, placement, ttl, extra));
        }
        if (distributed) {
            out.addAll(CorootSchema.distributed(db, traces, logs, placement));
        }
        return out;
    }

    /**
     * The placement of Coroot's tables: Coroot's migration picks the engines itself ({@code
     * MergeTree()} and its kin on one server, their Replicated forms on a cluster), so {@code
     * --engine} may only say the same.
     */
    private static Placement corootPlacement(Placement placement) {
        TableEngine replicated = TableEngine.parse("ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}')");
        String sql = placement.engine().sql();
        boolean fits = placement.engine().equals(TableEngine.MERGE_TREE)
                || placement.cluster() != null && (sql.equals("ReplicatedMergeTree()") || placement.engine().equals(replicated));
        if (!fits) {
            throw new IllegalArgumentException("--engine: clickhouse.schema = coroot makes Coroot's tables with Coroot's engines"
                    + " (MergeTree() and its kin; with --cluster their Replicated forms on Coroot's paths"
                    + " '/clickhouse/tables/{shard}/{database}/{table}'), not " + sql);
        }
        return new Placement(placement.cluster() == null ? TableEngine.MERGE_TREE : replicated, placement.cluster());
    }

    /** Coroot's local table behind {@code name}: {@code otel_traces} behind {@code otel_traces_distributed}. */
    private static String local(String name) {
        return name.endsWith(CorootSchema.DISTRIBUTED_SUFFIX)
                ? name.substring(0, name.length() - CorootSchema.DISTRIBUTED_SUFFIX.length()) : name;
    }

    /** The sharding key of a Distributed table: the rows' own values (see {@link #statements}). */
    private static String shardingKey(OtelTable t) {
        switch (t.signal()) {
            case LOGS:
                return "cityHash64(ServiceName, Timestamp)";
            case PROFILES:
                return "cityHash64(ServiceName, ProfileId)"; // a profile's samples stay on one shard
            default:
                return "cityHash64(ServiceName, MetricName, TimeUnix)";
        }
    }

    private static String distributedTable(String db, String name, String local, Placement placement, String shardingKey) {
        return "CREATE TABLE IF NOT EXISTS " + Sql.qualified(db, name) + placement.onCluster()
                + " AS " + Sql.qualified(db, local) + "\n"
                + "ENGINE = Distributed(" + Sql.string(placement.cluster()) + ", " + Sql.string(db) + ", "
                + Sql.string(local) + ", " + shardingKey + ")\n";
    }

    /** The statements as one SQL script, each ending with ';' (what {@code schema print} shows). */
    public static String script(TributaryConfig config, TableEngine engine, Duration ttl) {
        return script(config, Placement.of(engine), ttl, false);
    }

    /** The placed statements as one SQL script. */
    public static String script(TributaryConfig config, Placement placement, Duration ttl, boolean distributed) {
        StringBuilder sb = new StringBuilder();
        for (String sql : statements(config, placement, ttl, distributed)) {
            sb.append(sql.strip()).append(";\n\n");
        }
        return sb.toString();
    }

    /** Runs {@link #statements} against the server. */
    public static void create(ClickHouseEndpoint endpoint, TributaryConfig config, TableEngine engine, Duration ttl)
            throws IOException, InterruptedException {
        create(endpoint, config, Placement.of(engine), ttl, false);
    }

    /** Runs the placed {@link #statements} against the server. */
    public static void create(ClickHouseEndpoint endpoint, TributaryConfig config, Placement placement, Duration ttl,
            boolean distributed) throws IOException, InterruptedException {
        try (ClickHouseClient client = new ClickHouseClient(endpoint, Duration.ofMinutes(1))) {
            Map<String, String> settings = Map.of();
            if (config.get(TributaryOptions.CLICKHOUSE_SCHEMA) == SchemaFlavor.JSON) {
                // the JSON column type: GA in 25.3; before that behind a setting this job does not send
                String[] json = client.query("SELECT version(), (SELECT count() FROM system.data_type_families WHERE name ="
                        + " 'JSON'), (SELECT count() FROM system.settings WHERE name = 'enable_json_type') FORMAT TSVRaw")
                        .strip().split("\t");
                if (json.length < 3 || json[1].equals("0")) {
                    throw new IOException("clickhouse.schema = json needs the JSON column type, which ClickHouse "
                            + json[0] + " does not have (25.3 and later do); use clickhouse.schema = map");
                }
                settings = json[2].equals("0") ? Map.of() : Map.of("enable_json_type", "1");
            }
            for (String sql : statements(config, placement, ttl, distributed)) {
                client.execute(sql, settings);
            }
        }
    }
}
