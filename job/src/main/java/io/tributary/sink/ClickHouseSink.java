package io.tributary.sink;

import io.tributary.clickhouse.ClickHouseClient;
import io.tributary.clickhouse.ClickHouseException;
import io.tributary.clickhouse.EndpointMetrics;
import io.tributary.schema.Sql;
import io.tributary.tables.EncodedRows;

import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.metrics.MetricGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes {@link EncodedRows} to ClickHouse in large batches over HTTP, in RowBinary.
 *
 * <p>At least once ({@link #create} with {@link Delivery#AT_LEAST_ONCE}): the writer sends every
 * open batch and waits for every outstanding INSERT in {@link SinkWriter#flush}, which Flink calls
 * before the checkpoint barrier passes the sink, so a completed checkpoint (and the Kafka offsets
 * in it) only covers rows that ClickHouse accepted.
 *
 * <p>Exactly once ({@link ExactlyOnce}): the writer seals the batches of each checkpoint interval
 * and hands them to Flink as committables; they are stored in the checkpoint and inserted by
 * {@link ClickHouseCommitter} once it completes, each with a deduplication token. Nothing is sent
 * before the checkpoint that covers it completes, so a replay after a failure never meets rows it
 * sent before; and a committable sent again after a restore carries the same token, which the
 * table's deduplication window turns into a no-op. The tables must keep such a window, which is
 * checked at start.
 */
public class ClickHouseSink implements Sink<EncodedRows> {
    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(ClickHouseSink.class);

    final SinkSettings settings;

    private ClickHouseSink(SinkSettings settings) {
        this.settings = settings;
    }

    /** The sink for the settings' delivery guarantee. */
    public static ClickHouseSink create(SinkSettings settings) {
        return settings.delivery() == Delivery.EXACTLY_ONCE ? new ExactlyOnce(settings) : new ClickHouseSink(settings);
    }

    /** The at-least-once sink plus the committer that inserts each checkpoint's batches. */
    public static final class ExactlyOnce extends ClickHouseSink implements SupportsCommitter<SealedBatch> {
        private static final long serialVersionUID = 1L;

        private ExactlyOnce(SinkSettings settings) {
            super(settings);
        }

        @Override
        public Committer<SealedBatch> createCommitter(CommitterInitContext context) throws IOException {
            ClickHouseClient client = new ClickHouseClient(settings.endpoint(), settings.requestTimeout());
            try {
                ServerFacts facts = check(client);
                MetricGroup tributary = context.metricGroup().addGroup("tributary");
                EndpointMetrics.register(tributary, client);
                return new ClickHouseCommitter(
                        settings,
                        client,
                        new SinkMetrics(tributary, settings.metricTableNames()),
                        context.getTaskInfo().getIndexOfThisSubtask(),
                        facts,
                        liveTables());
            } catch (IOException | RuntimeException e) {
                client.close();
                throw e;
            }
        }

        @Override
        public SimpleVersionedSerializer<SealedBatch> getCommittableSerializer() {
            return new SealedBatchSerializer();
        }
    }

    @Override
    public SinkWriter<EncodedRows> createWriter(WriterInitContext context) throws IOException {
        ClickHouseClient client = new ClickHouseClient(settings.endpoint(), settings.requestTimeout());
        try {
            ServerFacts facts = check(client);
            MetricGroup tributary = context.metricGroup().addGroup("tributary");
            EndpointMetrics.register(tributary, client);
            return new ClickHouseSinkWriter(
                    settings,
                    client,
                    context.getProcessingTimeService(),
                    new SinkMetrics(tributary, settings.metricTableNames()),
                    context.getTaskInfo().getIndexOfThisSubtask(),
                    facts,
                    liveTables());
        } catch (IOException | RuntimeException e) {
            client.close(); // a failed start leaves no threads behind
            throw e;
        }
    }

    /** The checks at start: the tables ({@link #checkTables}) and the server's settings. */
    ServerFacts check(ClickHouseClient client) throws IOException {
        try {
            ServerFacts facts;
            try {
                facts = ServerFacts.read(client, InsertSettings.names(InsertSettings.pins(settings)), settings.tables().size());
            } catch (IOException e) {
                if (e instanceof ClickHouseException && !((ClickHouseException) e).retryable()) {
                    throw e;
                }
                LOG.warn("Cannot read ClickHouse's settings now; every INSERT setting is sent: {}", e.getMessage());
                facts = ServerFacts.unknown(settings.tables().size());
            }
            return checkTables(client, facts);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** Reads a table's columns again, as the header of rows encoded in them now. */
    BatchInserter.LiveTables liveTables() {
        SinkSettings s = settings;
        return table -> {
            SinkTable t = s.tables().get(table);
            io.tributary.tables.TableLayouts l = io.tributary.tables.TableLayouts.read(
                    new io.tributary.clickhouse.ClickHouseCatalog(s.endpoint(), s.database()), s.flavor(),
                    Map.of(t.kind(), new io.tributary.schema.TableName(t.name(), t.setting())));
            return l.of(t.kind()).header();
        };
    }

    /**
     * A server that cannot be asked now: at least once, the INSERTs will retry; exactly once, the
     * job must not run without knowing that repeats are dropped, so it fails (and restarts).
     */
    private void cannotCheck(Exception e) throws IOException {
        if (settings.delivery() == Delivery.EXACTLY_ONCE) {
            throw new IOException("sink.delivery = exactly-once: cannot check that the tables drop repeated INSERTs: "
                    + e.getMessage(), e);
        }
        LOG.warn("Cannot check the tables: {}", e.getMessage());
    }

    private static String query(ClickHouseClient client, String sql) {
        try {
            return client.query(sql).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new IOException("interrupted", e));
        }
    }

    /** {@code Distributed('cluster', 'database', 'table'[, ...])} as system.tables shows it. */
    private static final Pattern DISTRIBUTED =
            Pattern.compile("^Distributed\\(\\s*'?([^',]*)'?\\s*,\\s*'?([^',]*)'?\\s*,\\s*'?([^',)]*)'?");

    /**
     * A table's engine and full engine clause, or null when it does not exist: on this server,
     * else (with {@code cluster}) on any server of that cluster.
     */
    private static String[] describe(ClickHouseClient client, String cluster, String db, String table)
            throws IOException, InterruptedException {
        String where = " WHERE database = " + Sql.string(db) + " AND name = " + Sql.string(table);
        String[] row = client.query("SELECT engine, engine_full FROM system.tables" + where + " FORMAT TSVRaw")
                .strip().split("\t", 2);
        if (!row[0].isEmpty() || cluster == null) {
            return row[0].isEmpty() ? null : row;
        }
        try {
            row = client.query("SELECT engine, engine_full FROM clusterAllReplicas(" + Sql.string(cluster)
                    + ", system.tables)" + where + " LIMIT 1 SETTINGS skip_unavailable_shards = 1 FORMAT TSVRaw")
                    .strip().split("\t", 2);
        } catch (ClickHouseException e) {
            // the cluster could not be asked: not a verdict on the table
            throw new IOException("cannot ask cluster " + cluster + " for " + Sql.qualified(db, table) + ": " + e.getMessage(), e);
        }
        return row[0].isEmpty() ? null : row;
    }

    /**
     * Fails at start, naming the setting, when a table the job writes does not exist, or (exactly
     * once) keeps no deduplication window, instead of at the first INSERT; learns which tables drop
     * repeated INSERTs.
     */
    private ServerFacts checkTables(ClickHouseClient client, ServerFacts facts) throws IOException, InterruptedException {
        List<String> missing = new ArrayList<>();
        List<String> noWindow = new ArrayList<>();
        List<String> randomShards = new ArrayList<>();
        Map<String, String> defaultWindows = new HashMap<>();
        try {
            for (SinkTable t : settings.tables()) {
                if (!t.running()) {
                    continue;
                }
                String name = t.name();
                String[] table = describe(client, null, settings.database(), name);
                if (table == null) {
                    missing.add(t.setting() + " = " + name);
                    continue;
                }
                String what = Sql.qualified(settings.database(), name);
                if (table[0].equals("Distributed")) {
                    // the rows land in the local table behind it, on each shard: that one must exist
                    // and (exactly once) drop repeats
                    Matcher d = DISTRIBUTED.matcher(table.length > 1 ? table[1] : "");
                    if (!d.find()) {
                        throw new IOException(what + " is a Distributed table whose engine cannot be read: " + table[1]);
                    }
                    String cluster = d.group(1);
                    String localDb = d.group(2).isEmpty() || d.group(2).equals("currentDatabase()") ? settings.database() : d.group(2);
                    String[] local = describe(client, cluster, localDb, d.group(3));
                    if (local == null) {
                        missing.add(t.setting() + " = " + name + " (Distributed over " + Sql.qualified(localDb, d.group(3))
                                + ", which cluster " + cluster + " does not have)");
                        continue;
                    }
                    if (settings.delivery() == Delivery.EXACTLY_ONCE && table[1].matches("(?s).*\\brand(Canonical|32|64)?\\s*\\(.*")) {
                        randomShards.add(what);
                    }
                    what = Sql.qualified(localDb, d.group(3)) + " behind the Distributed " + what;
                    table = local;
                }
                String engine = table[0];
                if (engine.equals("Null") || engine.startsWith("Shared")) {
                    // stores nothing, or deduplicates always (ClickHouse Cloud)
                    facts = facts.withDeduplicates(t.kind().ordinal(), true);
                    continue;
                }
                if (!engine.endsWith("MergeTree")) {
                    if (settings.delivery() == Delivery.EXACTLY_ONCE) {
                        noWindow.add(what + " (engine " + engine
                                + ", which exactly-once cannot check; use a MergeTree-family table)");
                    }
                    continue;
                }
                if (settings.delivery() == Delivery.EXACTLY_ONCE && !engine.startsWith("Replicated")
                        && settings.endpoint().urls().size() > 1) {
                    LOG.warn("sink.delivery = exactly-once with {} endpoints, but {} is {}: each server remembers only the"
                            + " INSERTs it took, so a batch sent again to another endpoint after a failure is stored"
                            + " twice unless the endpoints are proxies of one server; use Replicated tables",
                            settings.endpoint().urls().size(), what, engine);
                }
                String setting = engine.startsWith("Replicated")
                        ? "replicated_deduplication_window" : "non_replicated_deduplication_window";
                Matcher m = Pattern.compile("\\b" + setting + "\\s*=\\s*'?(\\d+)").matcher(table.length > 1 ? table[1] : "");
                String window = m.find() ? m.group(1) : defaultWindows.computeIfAbsent(setting, s -> query(client,
                        "SELECT value FROM system.merge_tree_settings WHERE name = '" + s + "' FORMAT TSVRaw"));
                boolean dedup = !window.isEmpty() && !window.equals("0");
                facts = facts.withDeduplicates(t.kind().ordinal(), dedup);
                if (!dedup && settings.delivery() == Delivery.EXACTLY_ONCE) {
                    noWindow.add(what + " (" + engine + ")");
                }
            }
        } catch (ClickHouseException e) {
            if (!e.retryable()) {
                throw e;
            }
            cannotCheck(e);
            return facts;
        } catch (IOException | UncheckedIOException e) {
            cannotCheck(e);
            return facts;
        }
        if (!missing.isEmpty()) {
            throw new IOException("ClickHouse database `" + settings.database() + "` has no table for "
                    + String.join(", ", missing) + ": create them with `bin/tributary schema create` (same"
                    + " settings) or --clickhouse.create-schema true, or turn the signal off with --signals");
        }
        if (!randomShards.isEmpty()) {
            throw new IOException("sink.delivery = exactly-once cannot write " + String.join(", ", randomShards)
                    + ": a Distributed table sharded by rand() splits a batch sent again differently, and the"
                    + " deduplication token would then drop rows on one shard and repeat them on another; shard it by"
                    + " the rows' values (what `bin/tributary schema create --cluster C --distributed` does)");
        }
        if (!noWindow.isEmpty()) {
            throw new IOException("sink.delivery = exactly-once needs tables that drop a repeated INSERT, but "
                    + String.join(", ", noWindow) + " keep no deduplication window, so a batch sent again after a"
                    + " failure would be stored twice; run ALTER TABLE <table> MODIFY SETTING"
                    + " non_replicated_deduplication_window = 1000 on each, or create the tables with"
                    + " `bin/tributary schema create --sink.delivery exactly-once`");
        }
        return facts;
    }
}
