package io.tributary.udf.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.encoding.Encodings;
import io.tributary.encoding.RecordHeaders;
import io.tributary.otlp.Signal;
import io.tributary.testing.RealServices;
import io.tributary.udf.OtlpRowType;
import io.tributary.udf.OtlpSpans;

import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The job's encodings in Flink SQL, through the one implementation the job uses: {@code
 * OTLP_SPANS(value, 'zipkin_json')} and the {@code otlp} format's {@code otlp.encoding} give the
 * rows {@code OTLP_SPANS} gives for the OTLP request the encoding makes of the record; a literal
 * encoding the signal does not take fails the planning, naming what it takes.
 */
class EncodingsSqlITCase {

    private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SqlTesting.miniCluster(REPORTER);

    private static final String ZIPKIN = "[{\"traceId\":\"463ac35c9f6413ad48485a3953bb6124\",\"id\":\"a2fb4a1d1a96d312\","
            + "\"kind\":\"SERVER\",\"name\":\"get /api\",\"timestamp\":1764000000000000,\"duration\":1500,"
            + "\"localEndpoint\":{\"serviceName\":\"frontend\",\"ipv4\":\"10.0.0.1\",\"port\":8080},"
            + "\"annotations\":[{\"timestamp\":1764000000000010,\"value\":\"ws\"}],"
            + "\"tags\":{\"http.method\":\"GET\",\"otel.status_code\":\"Error\",\"host.name\":\"web-1\"}},"
            + "{\"traceId\":\"463ac35c9f6413ad48485a3953bb6124\",\"id\":\"0000000000000003\",\"name\":\"no timestamp\"}]";

    private static String kafka(String topic, String format) {
        return "'connector' = 'kafka', 'topic' = '" + topic + "', 'properties.bootstrap.servers' = '"
                + RealServices.kafkaBootstrap() + "', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset', " + format;
    }

    private static List<String> strings(List<Row> rows) {
        List<String> out = new ArrayList<>();
        rows.forEach(r -> out.add(r.toString()));
        out.sort(null);
        return out;
    }

    @Test
    void zipkinRecordsAsAnArgumentAndAsAFormatGiveTheRowsOfTheirOtlp() throws Exception {
        String zipkin = RealServices.uniqueName("it_sql_zipkin");
        String otlp = RealServices.uniqueName("it_sql_otlp");
        RealServices.createTopic(zipkin, 1);
        RealServices.createTopic(otlp, 1);
        byte[] record = ZIPKIN.getBytes(StandardCharsets.UTF_8);
        RealServices.produce(zipkin, List.of(record));
        RealServices.produce(otlp, List.of(Encodings.decoder("zipkin_json", Signal.TRACES).decode(record, RecordHeaders.NONE)));

        TableEnvironment t = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        t.createTemporarySystemFunction("OTLP_SPANS", OtlpSpans.class);
        t.executeSql("CREATE TABLE z (`value` BYTES) WITH (" + kafka(zipkin, "'format' = 'raw'") + ")");
        t.executeSql("CREATE TABLE o (`value` BYTES) WITH (" + kafka(otlp, "'format' = 'raw'") + ")");
        List<String> viaOtlp = strings(SqlTesting.collect(t.executeSql("SELECT f.* FROM o, LATERAL TABLE(OTLP_SPANS(`value`)) AS f")));
        List<String> viaArgument = strings(SqlTesting.collect(
                t.executeSql("SELECT f.* FROM z, LATERAL TABLE(OTLP_SPANS(`value`, 'zipkin_json')) AS f")));
        assertThat(viaArgument).hasSize(2).isEqualTo(viaOtlp);
        assertThat(String.join("\n", viaArgument)).contains("frontend", "get /api", "Error", "network.local.address=10.0.0.1",
                "otel.zipkin.absentField.startTime=true");

        OtlpRowType type = OtlpRowType.of(Signal.TRACES);
        StringBuilder columns = new StringBuilder();
        for (int i = 0; i < type.names().size(); i++) {
            columns.append(i == 0 ? "" : ", ").append('`').append(type.names().get(i)).append("` ")
                    .append(type.dataType().getChildren().get(i).getLogicalType().asSerializableString());
        }
        t.executeSql("CREATE TABLE spans (" + columns + ") WITH (" + kafka(zipkin,
                "'format' = 'otlp', 'otlp.signal' = 'traces', 'otlp.encoding' = 'zipkin_json'") + ")");
        assertThat(strings(SqlTesting.collect(t.executeSql("SELECT * FROM spans")))).isEqualTo(viaOtlp);

        // encodings from a column: each row's own; one the signal lacks leaves that row without rows, the query goes on
        t.executeSql("CREATE TEMPORARY VIEW named AS SELECT `value`, e FROM z CROSS JOIN (VALUES ('zipkin_json'), (' ZIPKIN_JSON'),"
                + " ('jsn')) AS n(e)");
        List<String> twice = new ArrayList<>(viaOtlp);
        twice.addAll(viaOtlp);
        twice.sort(null);
        assertThat(strings(SqlTesting.collect(t.executeSql("SELECT f.* FROM named, LATERAL TABLE(OTLP_SPANS(`value`, e)) AS f"))))
                .as("the record twice (a name is read trimmed and in any case), the unknown name's row none")
                .isEqualTo(twice);
        assertThatThrownBy(() -> t.executeSql("SELECT f.* FROM z, LATERAL TABLE(OTLP_SPANS(`value`, 'raw')) AS f"))
                .hasStackTraceContaining("'raw' is an encoding of logs, not of traces");
        t.executeSql("CREATE TABLE bad (SpanName STRING) WITH (" + kafka(zipkin,
                "'format' = 'otlp', 'otlp.signal' = 'traces', 'otlp.encoding' = 'text'") + ")");
        assertThatThrownBy(() -> t.executeSql("SELECT * FROM bad"))
                .hasStackTraceContaining("otlp.encoding: 'text' is an encoding of logs, not of traces");
    }
}
