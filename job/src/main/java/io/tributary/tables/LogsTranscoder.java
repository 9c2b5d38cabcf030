package io.tributary.tables;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.tributary.rowbinary.RowBinaryWriter;

import java.util.List;

/**
 * Turns an OTLP logs request into {@code otel_logs} rows in RowBinary, one row per log record,
 * with the collector exporter's semantics. Not thread-safe: one per task.
 */
public final class LogsTranscoder {

    private final TableLayout<LogRow> layout;
    private final LogRow row = new LogRow();

    /** @param layout how the log records table is written */
    public LogsTranscoder(TableLayout<LogRow> layout) {
        this.layout = layout;
    }

    /**
     * Appends one row per log record of {@code request} to {@code rows}; returns the number of
     * rows. When it throws, {@code rows} may hold a partial row: the caller discards it.
     *
     * @throws InvalidOtlpException for records the exporter would not accept (ids of wrong length)
     */
    public int transcode(ExportLogsServiceRequest request, TableRows rows) {
        RowBinaryWriter out = rows.writer(OtelTable.LOGS);
        int n = 0;
        for (ResourceLogs rl : request.getResourceLogsList()) {
            List<KeyValue> resAttrs = rl.getResource().getAttributesList();
            row.setResource(Attributes.of(resAttrs), Attributes.serviceName(resAttrs), rl.getSchemaUrl());
            for (ScopeLogs sl : rl.getScopeLogsList()) {
                InstrumentationScope scope = sl.getScope();
                row.setScope(Attributes.of(scope.getAttributesList()), scope.getName(), scope.getVersion(), sl.getSchemaUrl());
                for (int i = 0, records = sl.getLogRecordsCount(); i < records; i++) {
                    row.setRecord(sl.getLogRecords(i));
                    layout.writeRow(row, out);
                    rows.rowAdded(OtelTable.LOGS);
                    n++;
                }
            }
        }
        return n;
    }
}
