package io.tributary.topology;

import io.tributary.clickhouse.ClickHouseClient;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.config.TributaryOptions;
import io.tributary.sink.Delivery;
import io.tributary.tables.OtelTable;
import io.tributary.tables.SchemaFlavor;
import io.tributary.tables.Sql;
import io.tributary.tables.TableEngine;
import io.tributary.tables.TracesSchema;

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
        String db = config.get(TributaryOptions.CLICKHOUSE_DATABASE);
        SchemaFlavor flavor = config.get(TributaryOptions.CLICKHOUSE_SCHEMA);
        String extra = config.get(TributaryOptions.SINK_DELIVERY) == Delivery.EXACTLY_ONCE
                ? "non_replicated_deduplication_window = " + DEDUPLICATION_WINDOW
                : "";
        List<String> out = new ArrayList<>();
        out.add("CREATE DATABASE IF NOT EXISTS " + Sql.ident(db));
        for (OtelTable t : OtelTable.values()) {
            if (!config.signals().contains(t.signal())) {
                continue;
            }
            if (t == OtelTable.TRACES) {
                out.addAll(TracesSchema.createStatements(db, config.table(t).name(), flavor, engine, ttl, extra));
            } else {
                out.add(t.schema(flavor).createTableSql(db, config.table(t).name(), engine, ttl, extra));
            }
        }
        return out;
    }

    /** The statements as one SQL script, each ending with ';' (what {@code schema print} shows). */
    public static String script(TributaryConfig config, TableEngine engine, Duration ttl) {
        StringBuilder sb = new StringBuilder();
        for (String sql : statements(config, engine, ttl)) {
            sb.append(sql.strip()).append(";\n\n");
        }
        return sb.toString();
    }

    /** Runs {@link #statements} against the server. */
    public static void create(ClickHouseEndpoint endpoint, TributaryConfig config, TableEngine engine, Duration ttl)
            throws IOException, InterruptedException {
        ClickHouseClient client = new ClickHouseClient(endpoint, Duration.ofMinutes(1));
        Map<String, String> settings =
                config.get(TributaryOptions.CLICKHOUSE_SCHEMA) == SchemaFlavor.JSON
                        ? Map.of("enable_json_type", "1")
                        : Map.of();
        for (String sql : statements(config, engine, ttl)) {
            client.execute(sql, settings);
        }
    }
}
