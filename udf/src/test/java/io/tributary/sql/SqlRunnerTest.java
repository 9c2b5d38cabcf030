package io.tributary.sql;

import io.tributary.config.ConfigException;

import org.junit.jupiter.api.Test;

import com.clickhouse.jdbc.internal.JdbcConfiguration;
import io.tributary.config.TributaryConfig;
import io.tributary.kafka.TopicSelection;
import io.tributary.otlp.Signal;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.catalog.ObjectIdentifier;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How a script gets its settings: job keys, keys derived from them, the script's own, and refusals. */
class SqlRunnerTest {

    private static final String SCRIPT = "SELECT '${kafka.bootstrap-servers}', '${kafka.topics.traces}', '${kafka.group-id}',"
            + " '${kafka.scan.startup.mode}', '${kafka.scan.bounded.mode}', '${clickhouse.jdbc-url}',"
            + " '${clickhouse.tables.metrics.sum}', '${span-metrics.window-seconds:-60}'";

    @Test
    void jobKeysDerivedKeysAndTheScriptsOwn() {
        SqlRunner.Prepared p = SqlRunner.prepare(SCRIPT, new String[] {
            "--kafka.bootstrap-servers", "k1:9092,k2:9092", "--kafka.topics.traces", "spans", "--kafka.bounded", "true",
            "--kafka.starting-offsets", "earliest", "--clickhouse.url", "https://ch.example:8443/",
            "--clickhouse.database", "tele", "--clickhouse.user", "writer", "--clickhouse.password-env", "CH_PW",
            "--span-metrics.window-seconds", "30"});
        assertThat(p.statements()).containsExactly("SELECT 'k1:9092,k2:9092', 'spans', 'tributary',"
                + " 'earliest-offset', 'latest-offset', 'jdbc:clickhouse:https://ch.example:8443/tele?user=writer&password-env=CH_PW',"
                + " 'otel_metrics_sum', '30'");
    }

    @Test
    void defaults() {
        SqlRunner.Prepared p = SqlRunner.prepare(SCRIPT, new String[0]);
        assertThat(p.statements()).containsExactly("SELECT 'localhost:9092', 'otlp_spans', 'tributary',"
                + " 'group-offsets', 'unbounded', 'jdbc:clickhouse:http://localhost:8123/otel?user=default',"
                + " 'otel_metrics_sum', '60'");
        assertThat(SqlRunner.prepare("SELECT '${clickhouse.jdbc-url}'",
                new String[] {"--kafka.starting-offsets", "latest", "--clickhouse.password-file", "/run/secrets/ch pw"}).statements())
                .containsExactly("SELECT 'jdbc:clickhouse:http://localhost:8123/otel?user=default&password-file=%2Frun%2Fsecrets%2Fch+pw'");
    }

    @Test
    void unknownKeysAndPlainPasswordsFailNamingTheKey() {
        assertThatThrownBy(() -> SqlRunner.prepare(SCRIPT, new String[] {"--span-metrics.windowseconds", "30"}))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("span-metrics.windowseconds: unknown setting");
        assertThatThrownBy(() -> SqlRunner.prepare(SCRIPT, new String[] {"--clickhouse.password", "secret"}))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("clickhouse.password: a password is never");
        assertThatThrownBy(() -> SqlRunner.prepare("SELECT '${needed}'", new String[0]))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("needed: the script reads ${needed}");
    }

    @Test
    void theShippedScriptPreparesWithDefaults() throws Exception {
        String text = Files.readString(Path.of("..", "sql", "flink", "span_metrics.sql"));
        SqlRunner.Prepared p = SqlRunner.prepare(text, new String[] {"--kafka.bounded", "true"});
        assertThat(p.statements()).hasSize(9);
        assertThat(p.statements().get(3)).contains("'scan.bounded.mode' = 'latest-offset'", "'format' = 'otlp'",
                "INTERVAL '10' SECOND");
        assertThat(SqlScript.statementSetInserts(p.statements().get(8))).hasSize(2);
    }

    @Test
    void aSignalsTopicsBecomeTheKafkaConnectorsTopicOrTopicPattern() {
        assertThat(SqlRunner.derived(io.tributary.config.TributaryConfig.fromArgs(new String[0]), true))
                .containsEntry("kafka.topic-option.traces", "'topic' = 'otlp_spans'");
        assertThat(SqlRunner.derived(io.tributary.config.TributaryConfig.fromArgs(new String[] {"--kafka.topics.traces", "a, b"}), true))
                .containsEntry("kafka.topic-option.traces", "'topic' = 'a;b'");
        String option = SqlRunner.derived(io.tributary.config.TributaryConfig.fromArgs(new String[] {"--kafka.topics.logs", "l1,^logs-'x'"}), true)
                .get("kafka.topic-option.logs");
        assertThat(option).startsWith("'topic-pattern' = '").contains("''x''");
        java.util.regex.Pattern p = java.util.regex.Pattern.compile(
                option.substring("'topic-pattern' = '".length(), option.length() - 1).replace("''", "'"));
        assertThat(p.matcher("l1").matches()).isTrue();
        assertThat(p.matcher("logs-'x'-eu").matches()).isTrue();
        assertThat(p.matcher("l10").matches()).isFalse();
    }

    @Test
    void theJobsKafkaClientSettingsBecomeTheConnectorsPropertiesOptions() {
        assertThat(SqlRunner.derived(io.tributary.config.TributaryConfig.fromArgs(new String[0]), true))
                .containsEntry("kafka.client-options", "");
        String options = SqlRunner.derived(io.tributary.config.TributaryConfig.fromArgs(new String[] {
            "--kafka.security.protocol", "SASL_SSL", "--kafka.sasl.mechanism", "PLAIN", "--kafka.sasl.username", "o'neil",
            "--kafka.sasl.password-env", "KAFKA_PW", "--kafka.properties.client.rack", "eu-1"}), true).get("kafka.client-options");
        assertThat(options).startsWith(", 'properties.")
                .contains(", 'properties.security.protocol' = 'SASL_SSL'")
                .contains(", 'properties.client.rack' = 'eu-1'")
                .contains("username=\"o''neil\" password=\"${tributary:jaas/kafka.sasl.password-env:KAFKA_PW}\"")
                .contains(", 'properties.config.providers' = 'tributary'");
    }

    @Test
    void quotesBackslashesAndLineBreaksInAGroupIdATopicPatternAndADatabaseReachTheTablesAsGiven() throws Exception {
        String group = "it's \"a\" group \\ with\na line break; -- and a comment start";
        String topics = "exact.topic, ^it's-(eu|us)\\.spans";
        String database = "te'st/db?user=admin&x=1 %";
        String text = Files.readString(Path.of("..", "sql", "flink", "span_metrics.sql"));
        SqlRunner.Prepared p = SqlRunner.prepare(text, new String[] {
            "--kafka.group-id", group, "--kafka.topics.traces", topics, "--clickhouse.database", database});
        // the tables as Flink plans them from the script: their options are the values given
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        for (String s : p.statements()) {
            if (SqlScript.keywords(s).startsWith("CREATE TEMPORARY TABLE")) {
                tEnv.executeSql(s);
            }
        }
        Map<String, String> spans = options(tEnv, "spans");
        assertThat(spans.get("properties.group.id")).isEqualTo(group + "-span-metrics");
        String pattern = TopicSelection.parse(Map.of(Signal.TRACES, topics), Map.of(Signal.TRACES, "kafka.topics.traces"))
                .subscription().pattern();
        assertThat(spans.get("topic-pattern")).isEqualTo(pattern).contains("'", "\\");
        java.util.regex.Pattern read = java.util.regex.Pattern.compile(spans.get("topic-pattern"));
        assertThat(read.matcher("it's-eu.spans").matches()).isTrue();
        assertThat(read.matcher("exact.topic").matches()).isTrue();
        assertThat(read.matcher("it's-euxspans").matches()).isFalse();
        // clickhouse-jdbc reads the database back from the URL, and nothing else from it
        for (String table : new String[] {"metrics_sum", "metrics_histogram"}) {
            Map<String, String> client = new JdbcConfiguration(options(tEnv, table).get("url"), new Properties()).getClientProperties();
            assertThat(client).containsEntry("database", database).containsEntry("user", "default").doesNotContainKey("x");
        }
    }

    @Test
    void aNamedTopicWithASemicolonIsRefusedNamingTheKey() {
        // the Kafka SQL connector splits 'topic' at semicolons: "a;b" would read two topics
        assertThatThrownBy(() -> SqlRunner.derived(TributaryConfig.fromArgs(new String[] {"--kafka.topics.logs", "a;b"}), true))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("kafka.topics.logs: 'a;b' is not a Kafka topic name");
    }

    private static Map<String, String> options(TableEnvironment tEnv, String table) {
        return ((TableEnvironmentInternal) tEnv).getCatalogManager()
                .getTable(ObjectIdentifier.of(tEnv.getCurrentCatalog(), tEnv.getCurrentDatabase(), table))
                .orElseThrow().getTable().getOptions();
    }

    /**
     * A Kafka secret given as a raw property (in the --config file) never becomes script text:
     * ${kafka.client-options} refuses it naming the key, and its own ${key} is unknown.
     */
    @Test
    void aKafkaSecretGivenAsARawPropertyNeverBecomesScriptText() throws Exception {
        java.nio.file.Path file = java.nio.file.Files.createTempFile("tributary-sql", ".yaml");
        java.nio.file.Files.writeString(file, "kafka.properties.sasl.jaas.config: \"x required password=PLANTED-9f3\"\n");
        TributaryConfig config = TributaryConfig.fromArgs(new String[] {"--config", file.toString()});
        assertThatThrownBy(() -> SqlRunner.derived(config, true))
                .hasMessageContaining("kafka.properties.sasl.jaas.config: a secret")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("PLANTED"));
        assertThat(SqlRunner.derived(config, false)).doesNotContainKey("kafka.client-options");
        java.nio.file.Files.delete(file);
    }
}
