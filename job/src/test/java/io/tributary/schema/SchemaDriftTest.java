package io.tributary.schema;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.transcode.SpanRow;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The DDL in sql/ and the sink's column list both come from {@link TracesSchema}; this fails when
 * someone edits one without the other.
 */
class SchemaDriftTest {

    private static final Path SQL = Path.of("..", "sql", "otel_traces.sql");

    @Test
    void sqlFileIsTheRenderedSchema() throws Exception {
        String file = Files.readAllLines(SQL, StandardCharsets.UTF_8).stream()
                .filter(l -> !l.startsWith("--"))
                .collect(Collectors.joining("\n"))
                .strip();
        String rendered = SchemaManager.script("otel", "otel_traces", TableEngine.MERGE_TREE, null).strip();
        assertThat(file)
                .as("sql/otel_traces.sql is generated: bin/tributary schema print > sql/otel_traces.sql (keep the header)")
                .isEqualTo(rendered);
    }

    @Test
    void insertColumnsAreTheWrittenColumnsInDdlOrder() {
        List<String> fromDdl = new ArrayList<>();
        for (Column<SpanRow> c : TracesSchema.TABLE.columns()) {
            if (c.isWritten()) {
                fromDdl.addAll(c.insertNames());
            }
        }
        assertThat(TracesSchema.TABLE.insertColumns()).isEqualTo(fromDdl).containsExactly(
                "Timestamp", "TraceId", "SpanId", "ParentSpanId", "TraceState", "SpanName", "SpanKind",
                "ServiceName", "ResourceAttributes", "ScopeName", "ScopeVersion", "SpanAttributes", "Duration",
                "StatusCode", "StatusMessage", "Events.Timestamp", "Events.Name", "Events.Attributes",
                "Links.TraceId", "Links.SpanId", "Links.TraceState", "Links.Attributes");
        assertThat(TracesSchema.TABLE.insertSql("otel", "otel_traces"))
                .startsWith("INSERT INTO `otel`.`otel_traces` (`Timestamp`, `TraceId`,")
                .endsWith("`Links.Attributes`) FORMAT RowBinary");
    }

    @Test
    void ttlAndNullEngine() {
        String mt = TracesSchema.TABLE.createTableSql("otel", "otel_traces", TableEngine.MERGE_TREE, Duration.ofHours(72));
        assertThat(mt).contains("TTL toDateTime(Timestamp) + toIntervalDay(3)\nSETTINGS");
        assertThat(Sql.ttl(Duration.ofHours(36), "x")).isEqualTo("TTL x + toIntervalHour(36)");
        assertThat(Sql.ttl(Duration.ofMinutes(90), "x")).isEqualTo("TTL x + toIntervalMinute(90)");
        assertThat(Sql.ttl(Duration.ofSeconds(61), "x")).isEqualTo("TTL x + toIntervalSecond(61)");
        List<String> lookup = TracesSchema.createStatements("otel", "t", TableEngine.MERGE_TREE, Duration.ofHours(72));
        assertThat(lookup.get(1)).contains("TTL toDateTime(Start) + toIntervalDay(3)");
        String nul = TracesSchema.TABLE.createTableSql("otel", "otel_traces", TableEngine.NULL, Duration.ofHours(72));
        assertThat(nul).endsWith(") ENGINE = Null\n").doesNotContain("INDEX").doesNotContain("ORDER BY").doesNotContain("TTL");
        assertThat(TracesSchema.createStatements("otel", "t", TableEngine.NULL, null)).hasSize(1);
    }
}
