package io.tributary.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.TributaryJob;
import io.tributary.config.TributaryConfig;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A job whose tables are missing fails at start with a message that names the settings. */
class SinkStartupITCase {

    @RegisterExtension
    static final MiniClusterExtension FLINK = RealServices.miniCluster(2);

    @Test
    void missingTablesFailTheJobNamingTheKeys() throws Exception {
        String db = RealServices.uniqueName("it_missing");
        RealServices.clickHouse().execute("CREATE DATABASE `" + db + "`");
        try {
            TributaryConfig config = TributaryConfig.fromArgs(new String[] {
                "--signals", "logs,metrics",
                "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
                "--kafka.topics.logs", RealServices.uniqueName("it_no_logs"),
                "--kafka.topics.metrics", RealServices.uniqueName("it_no_metrics"),
                "--kafka.bounded", "true",
                "--clickhouse.url", RealServices.clickHouseUrl(),
                "--clickhouse.database", db,
                "--clickhouse.tables.metrics.sum", "my_sums",
                "--flink.restart-strategy.type", "none"
            });
            assertThatThrownBy(() -> TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), config))
                    .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                            .contains("has no table for clickhouse.tables.logs = otel_logs, "
                                    + "clickhouse.tables.metrics.gauge = otel_metrics_gauge, "
                                    + "clickhouse.tables.metrics.sum = my_sums,")
                            .doesNotContain("clickhouse.tables.traces"));
        } finally {
            RealServices.clickHouse().execute("DROP DATABASE `" + db + "`");
        }
    }
}
