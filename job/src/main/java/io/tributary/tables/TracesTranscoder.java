package io.tributary.tables;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.tributary.rowbinary.RowBinaryWriter;

import java.util.List;

/**
 * Turns an OTLP traces request into {@code otel_traces} rows in RowBinary, one row per span, with
 * the collector exporter's semantics. Not thread-safe: one per task.
 */
public final class TracesTranscoder {

    private final TableLayout<SpanRow> layout;
    private final SpanRow row = new SpanRow();

    /** @param layout how the spans table is written */
    public TracesTranscoder(TableLayout<SpanRow> layout) {
        this.layout = layout;
    }

    /**
     * Appends one row per span of {@code request} to {@code rows}; returns the number of rows.
     * When it throws, {@code rows} may hold a partial row: the caller discards it.
     *
     * @throws InvalidOtlpException for spans the exporter would not accept (ids of wrong length)
     */
    public int transcode(ExportTraceServiceRequest request, TableRows rows) {
        RowBinaryWriter out = rows.writer(OtelTable.TRACES);
        int n = 0;
        for (ResourceSpans rs : request.getResourceSpansList()) {
            List<KeyValue> resAttrs = rs.getResource().getAttributesList();
            row.setResource(Attributes.of(resAttrs), Attributes.serviceName(resAttrs));
            for (ScopeSpans ss : rs.getScopeSpansList()) {
                InstrumentationScope scope = ss.getScope();
                row.setScope(scope.getName(), scope.getVersion());
                for (int i = 0, spans = ss.getSpansCount(); i < spans; i++) {
                    row.setSpan(ss.getSpans(i));
                    layout.writeRow(row, out);
                    rows.rowAdded(OtelTable.TRACES);
                    n++;
                }
            }
        }
        return n;
    }
}
