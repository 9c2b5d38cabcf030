package io.tributary.testing.oracle;

import static io.tributary.schema.Columns.attributes;
import static io.tributary.schema.Columns.dateTime64Nanos;
import static io.tributary.schema.Columns.lowCardinalityString;
import static io.tributary.schema.Columns.string;
import static io.tributary.schema.Columns.uint8;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.schema.SchemaFlavor;
import io.tributary.schema.TableLayout;
import io.tributary.schema.TableSchema;
import io.tributary.tables.Attributes;
import io.tributary.testing.oracle.LogRow;

import java.util.List;

/**
 * The oracle of the wire path for logs: how the job turned a protobuf-java {@code
 * ExportLogsServiceRequest} into {@code otel_logs} rows before it read the wire format itself,
 * with the written columns {@code LogsSchema} declared then. The differential tests hold the wire
 * path to these bytes.
 */
public final class OracleLogs {

    private static final String ZSTD = "CODEC(ZSTD(1))";

    private final TableLayout<LogRow> layout;
    private final LogRow row = new LogRow();

    public OracleLogs(SchemaFlavor flavor) {
        this.layout = TableLayout.canonical(schema(flavor), "otel_logs");
    }

    /** The rows of every log record of {@code request}, in RowBinary, back to back. */
    public byte[] rows(ExportLogsServiceRequest request) {
        RowBinaryWriter out = new RowBinaryWriter(1024);
        for (ResourceLogs rl : request.getResourceLogsList()) {
            List<KeyValue> resAttrs = rl.getResource().getAttributesList();
            row.setResource(Attributes.of(resAttrs), Attributes.serviceName(resAttrs), rl.getSchemaUrl());
            for (ScopeLogs sl : rl.getScopeLogsList()) {
                InstrumentationScope scope = sl.getScope();
                row.setScope(Attributes.of(scope.getAttributesList()), scope.getName(), scope.getVersion(), sl.getSchemaUrl());
                for (int i = 0, records = sl.getLogRecordsCount(); i < records; i++) {
                    row.setRecord(sl.getLogRecords(i));
                    layout.writeRow(row, out);
                }
            }
        }
        return out.toByteArray();
    }

    /** The log records table's written columns as {@code LogsSchema} declared them, over protobuf-java records. */
    static TableSchema<LogRow> schema(SchemaFlavor f) {
        return TableSchema.<LogRow>builder()
                .column(dateTime64Nanos("Timestamp", "", LogRow::timestampNanos))
                .column(string("TraceId", ZSTD, LogRow::traceId))
                .column(string("SpanId", ZSTD, LogRow::spanId))
                .column(uint8("TraceFlags", "", LogRow::traceFlags))
                .column(lowCardinalityString("SeverityText", ZSTD, LogRow::severityText))
                .column(uint8("SeverityNumber", "", LogRow::severityNumber))
                .column(lowCardinalityString("ServiceName", ZSTD, LogRow::serviceName))
                .column(string("Body", ZSTD, LogRow::body))
                .column(lowCardinalityString("ResourceSchemaUrl", ZSTD, LogRow::resourceSchemaUrl))
                .columns(attributes("ResourceAttributes", ZSTD, f, LogRow::resourceAttributes))
                .column(lowCardinalityString("ScopeSchemaUrl", ZSTD, LogRow::scopeSchemaUrl))
                .column(string("ScopeName", ZSTD, LogRow::scopeName))
                .column(lowCardinalityString("ScopeVersion", ZSTD, LogRow::scopeVersion))
                .columns(attributes("ScopeAttributes", ZSTD, f, LogRow::scopeAttributes))
                .columns(attributes("LogAttributes", ZSTD, f, LogRow::logAttributes))
                .column(string("EventName", ZSTD, LogRow::eventName))
                .partitionBy("tuple()").orderBy("tuple()").settings("")
                .build();
    }
}
