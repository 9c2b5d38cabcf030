package io.tributary.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.TributaryJob;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.schema.Placement;
import io.tributary.schema.TableEngine;
import io.tributary.testing.RealServices;
import io.tributary.testing.oracle.RandomOtlp;
import io.tributary.topology.SchemaManager;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;

/**
 * The job writing Distributed tables over local ones, the layout {@code schema create --cluster
 * --distributed} renders, on the test server's one-shard cluster {@code tributary_local}
 * (io.tributary.services.ClickHouse). clickhouse-local runs no ON CLUSTER DDL, so the statements run here
 * without it. Exactly once, the start-up checks look at the local tables behind the Distributed
 * ones.
 */
class DistributedTablesITCase {

    @RegisterExtension
    static final MiniClusterExtension FLINK = RealServices.miniCluster(2);

    private static final String CLUSTER = "tributary_local";
    private static String traces;
    private static String logs;

    @BeforeAll
    static void records() throws Exception {
        traces = RealServices.uniqueName("it_dist_spans");
        logs = RealServices.uniqueName("it_dist_logs");
        RealServices.createTopic(traces, 2);
        RealServices.createTopic(logs, 2);
        RandomOtlp random = new RandomOtlp(31);
        List<byte[]> spans = new ArrayList<>();
        List<byte[]> lines = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            spans.add(random.encode(random.traces()));
            lines.add(random.encode(random.logs()));
        }
        RealServices.produce(traces, spans);
        RealServices.produce(logs, lines);
    }

    private static String[] args(String db, String... more) {
        return RealServices.concat(new String[] {
            "--signals", "traces,logs",
            "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
            "--kafka.topics.traces", traces,
            "--kafka.topics.logs", logs,
            "--kafka.group-id", db,
            "--kafka.starting-offsets", "earliest",
            "--kafka.bounded", "true",
            "--clickhouse.url", RealServices.clickHouseUrl(),
            "--clickhouse.database", db,
            "--dlq.topic", "",
            "--checkpoint.interval", "1s",
            "--flink.restart-strategy.type", "none"
        }, more);
    }

    /** The Distributed layout, its ON CLUSTER left out (the one server runs each statement itself). */
    private static void createDistributed(TributaryConfig config) throws Exception {
        for (String sql : SchemaManager.statements(config, new Placement(TableEngine.MERGE_TREE, CLUSTER), null, true)) {
            RealServices.clickHouse().execute(sql.replace(" ON CLUSTER " + CLUSTER, ""));
        }
    }

    private static List<String> rows(String db, String table) throws Exception {
        return RealServices.rows(db, table);
    }

    @Test
    void exactlyOnceIntoDistributedTablesWritesWhatPlainTablesGet() throws Exception {
        String plain = RealServices.uniqueName("it_dist_plain");
        String dist = RealServices.uniqueName("it_dist");
        try {
            TributaryConfig plainConfig = TributaryConfig.fromArgs(args(plain));
            SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), plainConfig, TableEngine.MERGE_TREE, null);
            TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), plainConfig);

            TributaryConfig distConfig = TributaryConfig.fromArgs(args(dist, "--sink.delivery", "exactly-once"));
            createDistributed(distConfig);
            assertThat(RealServices.clickHouse().query("SELECT name, engine FROM system.tables WHERE database = '" + dist
                    + "' ORDER BY name FORMAT TSV")).isEqualTo("otel_logs\tDistributed\notel_logs_local\tMergeTree\n"
                    + "otel_traces\tDistributed\notel_traces_local\tMergeTree\notel_traces_local_trace_id_ts\tAggregatingMergeTree\n"
                    + "otel_traces_local_trace_id_ts_mv\tMaterializedView\notel_traces_trace_id_ts\tDistributed\n");
            TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), distConfig);

            List<String> spans = rows(plain, "otel_traces");
            assertThat(spans).hasSizeGreaterThan(20);
            assertThat(rows(dist, "otel_traces")).isEqualTo(spans);
            assertThat(rows(dist, "otel_traces_local")).as("stored in the local table").isEqualTo(spans);
            assertThat(rows(dist, "otel_logs")).isEqualTo(rows(plain, "otel_logs")).isNotEmpty();
            // the lookup view fires on the local table, and reads back through its Distributed table
            assertThat(RealServices.clickHouse().query("SELECT count(DISTINCT TraceId) FROM `" + dist
                    + "`.otel_traces_trace_id_ts FORMAT TSV")).isEqualTo(RealServices.clickHouse().query(
                    "SELECT uniqExact(TraceId) FROM `" + plain + "`.otel_traces WHERE TraceId != '' FORMAT TSV"));
        } finally {
            RealServices.dropDatabases(plain, dist);
        }
    }

    @Test
    void theStartUpChecksLookBehindTheDistributedTables() throws Exception {
        String db = RealServices.uniqueName("it_dist_bad");
        try {
            TributaryConfig config = TributaryConfig.fromArgs(args(db, "--sink.delivery", "exactly-once"));
            createDistributed(config);
            // sharded at random, a batch sent again would split otherwise: refused exactly once
            RealServices.clickHouse().execute("RENAME TABLE `" + db + "`.otel_logs TO `" + db + "`.otel_logs_kept");
            RealServices.clickHouse().execute("CREATE TABLE `" + db + "`.otel_logs AS `" + db + "`.otel_logs_local"
                    + " ENGINE = Distributed('" + CLUSTER + "', '" + db + "', 'otel_logs_local', rand())");
            assertThat(RealServices.startFailure(config))
                    .contains("sink.delivery = exactly-once cannot write `" + db + "`.`otel_logs`: a Distributed table"
                            + " sharded by rand()");
            RealServices.clickHouse().execute("DROP TABLE `" + db + "`.otel_logs");
            RealServices.clickHouse().execute("RENAME TABLE `" + db + "`.otel_logs_kept TO `" + db + "`.otel_logs");
            // a local table that keeps no deduplication window
            RealServices.clickHouse().execute("ALTER TABLE `" + db + "`.otel_logs_local MODIFY SETTING non_replicated_deduplication_window = 0");
            assertThatThrownBy(() -> TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), config))
                    .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                            .contains("`" + db + "`.`otel_logs_local` behind the Distributed `" + db + "`.`otel_logs` (MergeTree)"
                                    + " keep no deduplication window")
                            .doesNotContain("otel_traces_local` behind"));
            // and a Distributed table over nothing
            RealServices.clickHouse().execute("DROP TABLE `" + db + "`.otel_logs_local");
            assertThatThrownBy(() -> TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), config))
                    .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                            .contains("has no table for clickhouse.tables.logs = otel_logs (Distributed over `" + db
                                    + "`.`otel_logs_local`, which cluster tributary_local does not have)"));
        } finally {
            RealServices.dropDatabases(db);
        }
    }
}
