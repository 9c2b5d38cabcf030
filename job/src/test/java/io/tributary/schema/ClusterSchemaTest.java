package io.tributary.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.config.TributaryConfig;
import io.tributary.schema.Placement;
import io.tributary.schema.TableEngine;
import io.tributary.topology.SchemaManager;

import org.junit.jupiter.api.Test;

import java.util.List;

/**
 * {@code schema create --cluster / --engine / --distributed}, rendered as the exporter renders
 * {@code cluster_name} and {@code table_engine} (its sqltemplates: {@code CREATE TABLE IF NOT
 * EXISTS db.table ON CLUSTER c (...) ENGINE = Name(params)}, the lookup table's engine derived
 * from it, the materialized view {@code ON CLUSTER} too). clickhouse-local runs no distributed
 * DDL, so ON CLUSTER is checked here as text; the Distributed layout runs in DistributedTablesITCase.
 */
class ClusterSchemaTest {

    private static final TributaryConfig ALL = TributaryConfig.fromArgs(new String[0]);

    private static List<String> statements(TributaryConfig config, String engine, String cluster, boolean distributed) {
        TableEngine e = engine == null ? (cluster == null ? TableEngine.MERGE_TREE : TableEngine.REPLICATED_MERGE_TREE)
                : TableEngine.parse(engine);
        return SchemaManager.statements(config, new Placement(e, cluster), null, distributed);
    }

    @Test
    void onAClusterEveryStatementRunsOnClusterWithReplicatedEngines() {
        List<String> s = statements(ALL, null, "otel_cluster", false);
        assertThat(s.get(0)).isEqualTo("CREATE DATABASE IF NOT EXISTS `otel` ON CLUSTER otel_cluster");
        assertThat(s).hasSize(1 + 3 + 1 + 5); // database, spans + lookup + view, logs, five metric tables
        for (String sql : s.subList(1, s.size())) {
            assertThat(sql).matches("(?s)CREATE (TABLE|MATERIALIZED VIEW) IF NOT EXISTS `otel`\\.`[a-z_]+` ON CLUSTER otel_cluster[ \\n].*");
        }
        assertThat(s.get(1)).startsWith("CREATE TABLE IF NOT EXISTS `otel`.`otel_traces` ON CLUSTER otel_cluster (\n")
                .contains("\n) ENGINE = ReplicatedMergeTree()\nPARTITION BY toDate(Timestamp)\n");
        assertThat(s.get(2)).startsWith("CREATE TABLE IF NOT EXISTS `otel`.`otel_traces_trace_id_ts` ON CLUSTER otel_cluster (\n")
                .contains(") ENGINE = ReplicatedAggregatingMergeTree()\n");
        assertThat(s.get(3)).startsWith("CREATE MATERIALIZED VIEW IF NOT EXISTS `otel`.`otel_traces_trace_id_ts_mv` ON CLUSTER otel_cluster\n"
                + "TO `otel`.`otel_traces_trace_id_ts`\n");
        assertThat(s.subList(4, s.size())).allSatisfy(sql -> assertThat(sql).contains(") ENGINE = ReplicatedMergeTree()\n"));
        // a macro is quoted, as ClickHouse wants it
        assertThat(statements(ALL, null, "{cluster}", false).get(0))
                .isEqualTo("CREATE DATABASE IF NOT EXISTS `otel` ON CLUSTER '{cluster}'");
    }

    @Test
    void anEngineOfTheUsersChoiceKeepsItsParametersAsTheExportersTableEngine() {
        String replicated = "ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}')";
        List<String> s = statements(ALL, replicated, "c", false);
        assertThat(s.get(1)).contains(") ENGINE = " + replicated + "\n");
        assertThat(s.get(2)).contains(") ENGINE = ReplicatedAggregatingMergeTree('/clickhouse/tables/{shard}/{database}/{table}',"
                + " '{replica}')\n");
        // other engines stay as given, for the lookup table too (the exporter's traceIDTsTableEngineString)
        List<String> shared = statements(ALL, "SharedMergeTree", null, false);
        assertThat(shared.get(1)).contains(") ENGINE = SharedMergeTree()\n").doesNotContain("ON CLUSTER");
        assertThat(shared.get(2)).contains(") ENGINE = SharedMergeTree()\n");
        assertThat(statements(ALL, "mergetree", null, false)).isEqualTo(statements(ALL, null, null, false));
        assertThat(statements(ALL, null, null, false).get(2)).contains(") ENGINE = AggregatingMergeTree()\n");
        assertThatThrownBy(() -> TableEngine.parse("Memory"))
                .hasMessageContaining("schema create makes MergeTree-family tables");
        assertThatThrownBy(() -> TableEngine.parse("MergeTree(("))
                .hasMessageContaining("is not an engine");
    }

    @Test
    void exactlyOnceLeavesReplicatedTablesTheirOwnDeduplicationWindow() {
        TributaryConfig eo = TributaryConfig.fromArgs(new String[] {"--sink.delivery", "exactly-once"});
        assertThat(statements(eo, null, null, false).get(1)).contains("non_replicated_deduplication_window = 1000");
        assertThat(statements(eo, null, "c", false)).noneSatisfy(sql -> assertThat(sql).contains("deduplication_window"));
    }

    @Test
    void distributedTablesTakeTheNamesTheJobWritesOverLocalOnes() {
        TributaryConfig traces = TributaryConfig.fromArgs(new String[] {"--signals", "traces,logs"});
        List<String> s = statements(traces, null, "c", true);
        assertThat(s).hasSize(1 + 3 + 2 + 2);
        assertThat(s.get(1)).startsWith("CREATE TABLE IF NOT EXISTS `otel`.`otel_traces_local` ON CLUSTER c (\n");
        assertThat(s.get(3)).contains("`otel`.`otel_traces_local_trace_id_ts_mv`")
                .contains("FROM `otel`.`otel_traces_local`\n");
        assertThat(s.get(4)).isEqualTo("CREATE TABLE IF NOT EXISTS `otel`.`otel_traces` ON CLUSTER c AS `otel`.`otel_traces_local`\n"
                + "ENGINE = Distributed('c', 'otel', 'otel_traces_local', cityHash64(TraceId))\n");
        assertThat(s.get(5)).isEqualTo("CREATE TABLE IF NOT EXISTS `otel`.`otel_traces_trace_id_ts` ON CLUSTER c AS"
                + " `otel`.`otel_traces_local_trace_id_ts`\n"
                + "ENGINE = Distributed('c', 'otel', 'otel_traces_local_trace_id_ts', cityHash64(TraceId))\n");
        assertThat(s.get(7)).isEqualTo("CREATE TABLE IF NOT EXISTS `otel`.`otel_logs` ON CLUSTER c AS `otel`.`otel_logs_local`\n"
                + "ENGINE = Distributed('c', 'otel', 'otel_logs_local', cityHash64(ServiceName, Timestamp))\n");
        // never rand(): a batch sent again must split over the shards as it did the first time
        assertThat(statements(ALL, null, "c", true)).noneSatisfy(sql -> assertThat(sql).contains("rand()"))
                .anySatisfy(sql -> assertThat(sql).contains("AS `otel`.`otel_metrics_sum_local`\n"
                        + "ENGINE = Distributed('c', 'otel', 'otel_metrics_sum_local', cityHash64(ServiceName, MetricName, TimeUnix))"));
        assertThatThrownBy(() -> statements(traces, null, null, true)).hasMessageContaining("--distributed needs --cluster");
    }
}
