package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.tributary.TributaryJob;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.schema.TableEngine;
import io.tributary.testing.RealServices;
import io.tributary.topology.SchemaManager;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A job whose tables are missing, or (exactly once) keep no deduplication window, fails at start
 * with a message that names the settings.
 */
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

    @Test
    void exactlyOnceFailsOnTablesWithoutADeduplicationWindowAndSaysHowToAddOne() throws Exception {
        String db = RealServices.uniqueName("it_window");
        String spans = RealServices.uniqueName("it_eo_spans");
        String logs = RealServices.uniqueName("it_eo_logs");
        RealServices.createTopic(spans, 1);
        RealServices.createTopic(logs, 1);
        List<byte[]> records = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            records.add(ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                    .addScopeSpans(ScopeSpans.newBuilder().addSpans(Span.newBuilder().setName("eo")
                            .setTraceId(ByteString.copyFrom(new byte[15]).concat(ByteString.copyFrom(new byte[] {(byte) i})))
                            .setSpanId(ByteString.copyFrom(new byte[] {0, 0, 0, 0, 0, 0, 0, (byte) i})))))
                    .build().toByteArray());
        }
        RealServices.produce(spans, records);
        String[] args = {
            "--signals", "traces,logs",
            "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
            "--kafka.topics.traces", spans,
            "--kafka.topics.logs", logs,
            "--kafka.bounded", "true",
            "--clickhouse.url", RealServices.clickHouseUrl(),
            "--clickhouse.database", db,
            "--dlq.topic", "",
            "--flink.restart-strategy.type", "none"
        };
        try {
            // tables as the exporter creates them: no window
            SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), TributaryConfig.fromArgs(args),
                    TableEngine.MERGE_TREE, null);
            TributaryConfig exactlyOnce = TributaryConfig.fromArgs(concat(args, "--sink.delivery", "exactly-once"));
            assertThatThrownBy(() -> TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), exactlyOnce))
                    .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                            .contains("sink.delivery = exactly-once needs tables that drop a repeated INSERT, but `"
                                    + db + "`.`otel_traces` (MergeTree), `" + db + "`.`otel_logs` (MergeTree) keep no"
                                    + " deduplication window")
                            .contains("MODIFY SETTING non_replicated_deduplication_window = 1000"));
            // what the message says fixes it; the job then runs to its end
            RealServices.clickHouse().execute("ALTER TABLE `" + db + "`.otel_traces MODIFY SETTING non_replicated_deduplication_window = 1000");
            RealServices.clickHouse().execute("ALTER TABLE `" + db + "`.otel_logs MODIFY SETTING non_replicated_deduplication_window = 1000");
            TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), exactlyOnce);
            assertThat(RealServices.clickHouse().query("SELECT count(), groupArraySorted(10)(SpanId) FROM `" + db
                    + "`.otel_traces FORMAT TSV"))
                    .isEqualTo("3\t['0000000000000001','0000000000000002','0000000000000003']\n");
            // and schema create in exactly-once mode makes tables with the window
            String db2 = db + "_eo";
            TributaryConfig created = TributaryConfig.fromArgs(concat(args, "--sink.delivery", "exactly-once",
                    "--clickhouse.database", db2));
            try {
                SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), created, TableEngine.MERGE_TREE, null);
                assertThat(RealServices.clickHouse().query("SELECT name FROM system.tables WHERE database = '" + db2
                        + "' AND engine_full LIKE '%non_replicated_deduplication_window = 1000%' ORDER BY name FORMAT TSV"))
                        .isEqualTo("otel_logs\notel_traces\notel_traces_trace_id_ts\n");
                TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), created);
            } finally {
                RealServices.clickHouse().execute("DROP DATABASE IF EXISTS `" + db2 + "`");
            }
        } finally {
            RealServices.clickHouse().execute("DROP DATABASE IF EXISTS `" + db + "`");
        }
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
