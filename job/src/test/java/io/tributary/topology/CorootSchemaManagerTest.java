package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.config.ConfigException;
import io.tributary.config.TributaryConfig;
import io.tributary.schema.Placement;
import io.tributary.schema.TableEngine;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

/** {@code schema create} in Coroot's flavour: its TTL, its engines on a cluster, what it refuses. */
class CorootSchemaManagerTest {

    private static TributaryConfig coroot(String... more) {
        String[] args = new String[2 + more.length];
        args[0] = "--clickhouse.schema";
        args[1] = "coroot";
        System.arraycopy(more, 0, args, 2, more.length);
        return TributaryConfig.fromArgs(args);
    }

    @Test
    void withoutTtlEveryTableKeepsCorootsSevenDays() {
        String script = SchemaManager.script(coroot(), TableEngine.MERGE_TREE, null);
        assertThat(script).contains("TTL toDateTime(Timestamp) + toIntervalDay(7)", "TTL Timestamp + toIntervalDay(7)",
                "TTL toDateTime(Start) + toIntervalDay(7)", "TTL toDateTime(LastSeen) + toIntervalDay(7)");
        assertThat(script.split("TTL ", -1)).as("the 6 tables of traces and logs").hasSize(7);
        assertThat(SchemaManager.script(coroot(), TableEngine.MERGE_TREE, Duration.ZERO)).doesNotContain("TTL ");
    }

    @Test
    void onAClusterTheReplicatedEnginesOnClusterAndCorootsDistributedTables() {
        List<String> s = SchemaManager.statements(coroot("--sink.delivery", "exactly-once"),
                new Placement(TableEngine.MERGE_TREE, "c1"), null, true);
        String all = String.join("\n", s);
        assertThat(all).contains("ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}')",
                "ENGINE = ReplicatedSummingMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}')",
                "ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}')",
                "ALTER TABLE `otel`.`otel_traces` ON CLUSTER c1 ADD COLUMN IF NOT EXISTS NetSockPeerAddr",
                "CREATE TABLE IF NOT EXISTS `otel`.`otel_traces_distributed` ON CLUSTER c1 AS `otel`.`otel_traces`\n"
                        + "ENGINE = Distributed('c1', 'otel', 'otel_traces', cityHash64(TraceId))",
                "ENGINE = Distributed('c1', 'otel', 'otel_logs', cityHash64(ServiceName, Timestamp))");
        assertThat(all).as("Replicated tables keep their own deduplication window").doesNotContain("non_replicated_deduplication_window")
                .doesNotContain("ENGINE = MergeTree");
        assertThat(s.stream().filter(x -> x.startsWith("CREATE TABLE") || x.startsWith("CREATE MATERIALIZED")))
                .allMatch(x -> x.contains(" ON CLUSTER c1"));
        // the job writes through the Distributed tables when clickhouse.tables.* name them; the local ones are Coroot's
        assertThat(String.join("\n", SchemaManager.statements(coroot("--clickhouse.tables.traces", "otel_traces_distributed"),
                new Placement(TableEngine.MERGE_TREE, "c1"), null, true))).contains("CREATE TABLE IF NOT EXISTS `otel`.`otel_traces` ON CLUSTER c1 (");
    }

    @Test
    void exactlyOnceOnOneServerKeepsADeduplicationWindow() {
        String script = SchemaManager.script(coroot("--sink.delivery", "exactly-once"), TableEngine.MERGE_TREE, null);
        assertThat(script.split("non_replicated_deduplication_window = 1000", -1)).as("otel_traces and otel_logs").hasSize(3);
    }

    @Test
    void otherEnginesAndSignalsAreRefusedNamingTheKey() {
        assertThatThrownBy(() -> SchemaManager.script(coroot(), TableEngine.NULL, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("--engine: clickhouse.schema = coroot");
        assertThatThrownBy(() -> SchemaManager.script(coroot(), TableEngine.parse("ReplicatedMergeTree"), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("--engine:");
        assertThatThrownBy(() -> coroot("--signals", "traces,profiles")).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("signals: clickhouse.schema = coroot has tables for traces and logs only, not for profiles");
        assertThatThrownBy(() -> coroot("--kafka.topics.metrics", "m")).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("kafka.topics.metrics: clickhouse.schema = coroot has tables for traces and logs only");
        assertThat(coroot("--kafka.topics.metrics", "").signals()).hasSize(2);
        assertThat(coroot("--signals", "traces,logs", "--kafka.topics.metrics", "m").signals())
                .as("a topic of a signal that signals leaves out is not read: no refusal").hasSize(2);
        assertThatThrownBy(() -> SchemaManager.script(coroot(), new Placement(TableEngine.parse("ReplicatedMergeTree('/p/{table}',"
                + " '{replica}')"), "c1"), null, false)).isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("--engine:");
        assertThat(SchemaManager.script(coroot(), new Placement(TableEngine.parse("ReplicatedMergeTree"), "c1"), null, false))
                .contains("ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}')");
    }
}
