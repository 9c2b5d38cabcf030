package io.tributary.tables;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.config.TributaryConfig;
import io.tributary.schema.Column;
import io.tributary.schema.SchemaFlavor;
import io.tributary.schema.Sql;
import io.tributary.schema.TableEngine;
import io.tributary.tables.logs.LogsSchema;
import io.tributary.tables.metrics.MetricsSchema;
import io.tributary.tables.traces.SpanView;
import io.tributary.tables.traces.TracesSchema;
import io.tributary.topology.SchemaManager;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The DDL in sql/ and the sink's column lists all come from the schema classes; this fails when
 * someone edits one without the other.
 */
class SchemaDriftTest {

    @ParameterizedTest
    @CsvSource({
        "traces, map, otel_traces.sql",
        "logs, map, otel_logs.sql",
        "metrics, map, otel_metrics.sql",
        "traces, json, json/otel_traces.sql",
        "logs, json, json/otel_logs.sql",
        "metrics, json, json/otel_metrics.sql",
        "profiles, map, otel_profiles.sql",
        "traces, coroot, coroot/otel_traces.sql",
        "logs, coroot, coroot/otel_logs.sql"
    })
    void sqlFileIsTheRenderedSchema(String signal, String flavor, String file) throws Exception {
        Path sql = Path.of("..", "sql").resolve(file);
        String text = Files.readAllLines(sql, StandardCharsets.UTF_8).stream()
                .filter(l -> !l.startsWith("--"))
                .collect(Collectors.joining("\n"))
                .strip();
        TributaryConfig config =
                TributaryConfig.fromArgs(new String[] {"--signals", signal, "--clickhouse.schema", flavor});
        String rendered = SchemaManager.script(config, TableEngine.MERGE_TREE, null).strip();
        assertThat(text)
                .as("sql/" + file + " is generated: bin/tributary schema print --signals " + signal
                        + " --clickhouse.schema " + flavor + " (keep the header)")
                .isEqualTo(rendered);
    }

    /** The exporter's profiles INSERT (internal/sqltemplates/profiles_insert.sql): its 24 columns, in its order. */
    @Test
    void theProfilesInsertHasTheExportersColumnsInItsOrder() {
        assertThat(io.tributary.tables.profiles.ProfilesSchema.TABLE.insertColumns()).containsExactly("Timestamp",
                "ProfileId", "SampleType", "SampleUnit", "ServiceName", "ResourceAttributes", "ScopeName", "ScopeVersion",
                "ProfileAttributes", "SampleAttributes", "StackHash", "Addresses", "FunctionNames", "FileNames",
                "LineNumbers", "MappingFileNames", "Values", "TimestampsUnixNano", "DurationNano", "Period", "PeriodType",
                "PeriodUnit", "TraceId", "SpanId");
    }

    @Test
    void materializedAndAliasColumnsAreNeverWritten() {
        assertThat(LogsSchema.MAP_TABLE.insertColumns()).containsExactly(
                "Timestamp", "TraceId", "SpanId", "TraceFlags", "SeverityText", "SeverityNumber", "ServiceName",
                "Body", "ResourceSchemaUrl", "ResourceAttributes", "ScopeSchemaUrl", "ScopeName", "ScopeVersion",
                "ScopeAttributes", "LogAttributes", "EventName");
        assertThat(LogsSchema.MAP_TABLE.createTableSql("otel", "otel_logs", TableEngine.MERGE_TREE, null))
                .contains("`__otel_materialized_k8s.pod.name` LowCardinality(String) "
                        + "MATERIALIZED ResourceAttributes['k8s.pod.name'] CODEC(ZSTD(1))");
        assertThat(LogsSchema.JSON_TABLE.insertColumns()).contains(
                "ResourceAttributes", "ResourceAttributesKeys", "ScopeAttributesKeys", "LogAttributesKeys");
        assertThat(MetricsSchema.histogram(SchemaFlavor.MAP).insertColumns()).containsExactly(
                "ResourceAttributes", "ResourceSchemaUrl", "ScopeName", "ScopeVersion", "ScopeAttributes",
                "ScopeDroppedAttrCount", "ScopeSchemaUrl", "ServiceName", "MetricName", "MetricDescription",
                "MetricUnit", "Attributes", "StartTimeUnix", "TimeUnix", "Count", "Sum", "BucketCounts",
                "ExplicitBounds", "Exemplars.FilteredAttributes", "Exemplars.TimeUnix", "Exemplars.Value",
                "Exemplars.SpanId", "Exemplars.TraceId", "Flags", "Min", "Max", "AggregationTemporality");
        assertThat(MetricsSchema.summary(SchemaFlavor.JSON).insertColumns()).containsExactly(
                "ResourceAttributes", "ResourceAttributesKeys", "ResourceSchemaUrl", "ScopeName", "ScopeVersion",
                "ScopeAttributes", "ScopeAttributesKeys", "ScopeDroppedAttrCount", "ScopeSchemaUrl", "ServiceName",
                "MetricName", "MetricDescription", "MetricUnit", "Attributes", "AttributesKeys", "StartTimeUnix",
                "TimeUnix", "Count", "Sum", "ValueAtQuantiles.Quantile", "ValueAtQuantiles.Value", "Flags");
    }

    @Test
    void insertColumnsAreTheWrittenColumnsInDdlOrder() {
        List<String> fromDdl = new ArrayList<>();
        for (Column<SpanView> c : TracesSchema.MAP_TABLE.columns()) {
            if (c.isWritten()) {
                fromDdl.addAll(c.insertNames());
            }
        }
        assertThat(TracesSchema.MAP_TABLE.insertColumns()).isEqualTo(fromDdl).containsExactly(
                "Timestamp", "TraceId", "SpanId", "ParentSpanId", "TraceState", "SpanName", "SpanKind",
                "ServiceName", "ResourceAttributes", "ScopeName", "ScopeVersion", "SpanAttributes", "Duration",
                "StatusCode", "StatusMessage", "Events.Timestamp", "Events.Name", "Events.Attributes",
                "Links.TraceId", "Links.SpanId", "Links.TraceState", "Links.Attributes");
        assertThat(TracesSchema.MAP_TABLE.insertSql("otel", "otel_traces"))
                .startsWith("INSERT INTO `otel`.`otel_traces` (`Timestamp`, `TraceId`,")
                .endsWith("`Links.Attributes`) FORMAT RowBinary");
    }

    @Test
    void ttlAndNullEngine() {
        String mt = TracesSchema.MAP_TABLE.createTableSql("otel", "otel_traces", TableEngine.MERGE_TREE, Duration.ofHours(72));
        assertThat(mt).contains("TTL toDateTime(Timestamp) + toIntervalDay(3)\nSETTINGS");
        assertThat(Sql.ttl(Duration.ofHours(36), "x")).isEqualTo("TTL x + toIntervalHour(36)");
        assertThat(Sql.ttl(Duration.ofMinutes(90), "x")).isEqualTo("TTL x + toIntervalMinute(90)");
        assertThat(Sql.ttl(Duration.ofSeconds(61), "x")).isEqualTo("TTL x + toIntervalSecond(61)");
        List<String> lookup = TracesSchema.createStatements("otel", "t", SchemaFlavor.MAP, TableEngine.MERGE_TREE, Duration.ofHours(72));
        assertThat(lookup.get(1)).contains("TTL toDateTime(Start) + toIntervalDay(3)");
        String nul = TracesSchema.MAP_TABLE.createTableSql("otel", "otel_traces", TableEngine.NULL, Duration.ofHours(72));
        assertThat(nul).endsWith(") ENGINE = Null\n").doesNotContain("INDEX").doesNotContain("ORDER BY").doesNotContain("TTL");
        assertThat(TracesSchema.createStatements("otel", "t", SchemaFlavor.MAP, TableEngine.NULL, null)).hasSize(1);
    }
}
