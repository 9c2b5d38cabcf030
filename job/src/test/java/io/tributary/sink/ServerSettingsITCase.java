package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.clickhouse.ClickHouseClient;
import io.tributary.clickhouse.ClickHouseException;
import io.tributary.clickhouse.body.Compression;
import io.tributary.config.TributaryConfig;
import io.tributary.testing.RealServices;
import io.tributary.topology.TributaryTopology;

import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.runtime.executiongraph.failover.ExecutionFailureHandler;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Releases other than the one that runs here: every INSERT names its settings, and a server that
 * does not know one answers UNKNOWN_SETTING to all of them. Only ClickHouse 26.7 runs on this
 * machine, so the mechanism is tested against it with a setting it does not know: the server's
 * settings are read once at start; one it lacks is left out when the sink does without it, and
 * fails the start, naming it, when the sink needs it.
 */
class ServerSettingsITCase {

    private static final String UNKNOWN = "tributary_setting_no_release_has";

    @Test
    void aSettingTheServerDoesNotKnowIsLeftOutOrFailsTheStartNamingIt() throws Exception {
        try (ClickHouseClient client = RealServices.clickHouse()) {
            SinkSettings settings = settings(Map.of(UNKNOWN, "1"));
            List<InsertSettings.Pin> pins = InsertSettings.pins(settings);
            ServerFacts facts = ServerFacts.read(client, InsertSettings.names(pins), settings.tables().size());
            assertThat(facts.version()).startsWith("26.");
            assertThat(facts.knows("insert_deduplication_token")).isTrue();
            assertThat(facts.knows(UNKNOWN)).isFalse();

            // sent as it was before: UNKNOWN_SETTING, to every INSERT
            client.execute("CREATE DATABASE IF NOT EXISTS `" + DB + "`");
            client.execute("CREATE TABLE IF NOT EXISTS `" + DB + "`.t (x UInt8) ENGINE = MergeTree ORDER BY x");
            assertThatThrownBy(() -> client.insert("INSERT INTO `" + DB + "`.t FORMAT RowBinary", Map.of(UNKNOWN, "1"),
                    new byte[] {7}, Compression.NONE))
                    .isInstanceOf(ClickHouseException.class).hasMessageContaining("code 115");

            // optional: left out, and the INSERT passes
            List<String> problems = new ArrayList<>();
            Map<String, String> sent = InsertSettings.resolve(pins, facts, false, problems);
            assertThat(problems).isEmpty();
            assertThat(sent).doesNotContainKey(UNKNOWN).containsEntry("send_progress_in_http_headers", "0")
                    .containsEntry("wait_end_of_query", "1").containsEntry("distributed_foreground_insert", "1");
            assertThat(client.insert("INSERT INTO `" + DB + "`.t FORMAT RowBinary", sent, new byte[] {7},
                    Compression.NONE)).isEqualTo(1);

            // needed: the start fails naming it and the server's version, and Flink does not restart into it
            List<InsertSettings.Pin> needed = new ArrayList<>(pins);
            needed.add(new InsertSettings.Pin(UNKNOWN, "1", "a feature of a later release", null));
            problems.clear();
            InsertSettings.resolve(needed, facts, false, problems);
            assertThat(InsertSettings.unsupported(facts, problems)).isEqualTo("ClickHouse " + facts.version()
                    + " does not know " + UNKNOWN + " (a feature of a later release); the job supports ClickHouse 25.8"
                    + " and later (see docs/tables.md, ClickHouse releases)");

            // a setting known by its older name only is sent under that name
            ServerFacts older = new ServerFacts("23.2", java.util.Set.of("insert_distributed_sync"), new Boolean[7]);
            Map<String, String> old = InsertSettings.resolve(List.of(new InsertSettings.Pin("distributed_foreground_insert",
                    "1", null, "insert_distributed_sync")), older, false, problems = new ArrayList<>());
            assertThat(old).containsExactly(Map.entry("insert_distributed_sync", "1"));
            assertThat(problems).isEmpty();
        } finally {
            RealServices.dropDatabases(DB);
        }
    }

    @Test
    void aSinkOnAServerThatLacksANeededSettingStopsOnceWithoutRestarting() {
        SinkSettings settings = settings(Map.of());
        // what a server before insert_deduplication_token (22.2) answers, for exactly once
        ServerFacts facts = new ServerFacts("21.8.15.7", java.util.Set.of(), new Boolean[7]);
        SinkSettings exactlyOnce = new SinkSettings(settings.endpoint(), settings.database(), settings.tables(),
                settings.flavor(), Delivery.EXACTLY_ONCE, settings.insertSettings(), settings.maxRows(), settings.maxBytes(),
                settings.maxAge(), settings.compression(), settings.format(), settings.asyncInsert(), settings.maxInFlight(),
                settings.retryMaxAttempts(), settings.retryInitialBackoff(), settings.retryMaxBackoff(),
                settings.requestTimeout(), settings.tableRefusal(), settings.deadLetterTopic(), settings.sourceKafka(),
                settings.deadLetterKafka());
        assertThatThrownBy(() -> new BatchInserter(exactlyOnce, null,
                new SinkMetrics(new UnregisteredMetricsGroup(), List.of("a", "b", "c", "d", "e", "f", "g")), facts,
                table -> null))
                .hasMessageContaining("ClickHouse 21.8.15.7 does not know")
                .hasMessageContaining("insert_deduplication_token (sink.delivery = exactly-once)")
                .satisfies(e -> assertThat(ExecutionFailureHandler.isUnrecoverableError(e)).isTrue());
    }

    private static final String DB = RealServices.uniqueName("it_settings");

    /** The sink's settings for the local services, with {@code extra} INSERT settings. */
    private static SinkSettings settings(Map<String, String> extra) {
        SinkSettings s = TributaryTopology.sinkSettings(TributaryConfig.fromArgs(new String[] {
            "--clickhouse.url", RealServices.clickHouseUrl(), "--clickhouse.database", DB,
            "--kafka.bootstrap-servers", RealServices.kafkaBootstrap()}));
        Map<String, String> insert = new HashMap<>(s.insertSettings());
        insert.putAll(extra);
        return new SinkSettings(s.endpoint(), s.database(), s.tables(), s.flavor(), s.delivery(), insert, s.maxRows(),
                s.maxBytes(), s.maxAge(), s.compression(), s.format(), s.asyncInsert(), s.maxInFlight(), s.retryMaxAttempts(),
                s.retryInitialBackoff(), s.retryMaxBackoff(), s.requestTimeout(), s.tableRefusal(), s.deadLetterTopic(),
                s.sourceKafka(), s.deadLetterKafka());
    }
}
