package io.tributary.udf.it;

import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.schema.TableEngine;
import io.tributary.testing.JobProcess;
import io.tributary.testing.RealServices;
import io.tributary.tools.loadgen.LoadShape;
import io.tributary.topology.SchemaManager;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bin/tributary sql}'s Java side as its own process, as the command starts it (the udf
 * module's classes and classpath, the embedded Flink with its dashboard): a bounded
 * {@code span_metrics.sql} ends by itself with status 0 once every span is counted, its settings
 * partly from {@code --config}; an unknown key ends it at once with status 2, naming the key.
 */
class SqlCommandITCase {

    @Test
    void aBoundedScriptEndsWithStatusZeroAndAnUnknownKeyWithTwo() throws Exception {
        String db = RealServices.uniqueName("it_sql_command");
        String topic = RealServices.uniqueName("it_sql_command");
        RealServices.createTopic(topic, 2);
        LoadShape shape = new LoadShape(3, 50);
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            records.add(shape.next(1_767_261_600_000_000_000L + i * 2_000_000_000L).toByteArray());
        }
        RealServices.produce(topic, records);
        String[] keys = {"--kafka.bootstrap-servers", RealServices.kafkaBootstrap(), "--clickhouse.url",
            RealServices.clickHouseUrl(), "--clickhouse.database", db};
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()),
                TributaryConfig.fromArgs(RealServices.concat(keys, "--signals", "metrics")), TableEngine.MERGE_TREE, null);
        Path config = Files.createTempFile("sql-command", ".yaml");
        Files.writeString(config, "kafka:\n  topics:\n    traces: " + topic + "\n  bounded: true\n  starting-offsets: earliest\n");
        try {
            try (JobProcess ok = sql("ok", RealServices.concat(keys, "--config", config.toString(), "--kafka.group-id", db,
                    "--flink.rest.port", "0", "--flink.restart-strategy.type", "none"))) {
                assertThat(ok.waitFor(180)).as("ended by itself, with status 0: " + ok.log()).isEqualTo(0);
            }
            assertThat(RealServices.clickHouse().query("SELECT sum(Value) FROM " + db
                    + ".otel_metrics_sum WHERE MetricName = 'traces.span.metrics.calls' FORMAT TSV").strip()).isEqualTo("2000");

            try (JobProcess bad = sql("bad", RealServices.concat(keys, "--span-metrics.windw-seconds", "30"))) {
                assertThat(bad.waitFor(60)).isEqualTo(2);
                assertThat(bad.log()).contains("span-metrics.windw-seconds: unknown setting");
            }
        } finally {
            Files.deleteIfExists(config);
            RealServices.clickHouse().execute("DROP DATABASE IF EXISTS " + db);
        }
    }

    /** Starts {@code io.tributary.sql.SqlRunner sql/flink/span_metrics.sql args} as bin/tributary sql does. */
    private static JobProcess sql(String name, String[] args) throws Exception {
        List<String> all = new ArrayList<>(List.of(new File("../sql/flink/span_metrics.sql").getCanonicalPath()));
        all.addAll(List.of(args));
        return JobProcess.start("sql-" + name, "io.tributary.sql.SqlRunner", List.of("-Dtributary.sql.embedded=true"), all);
    }
}
