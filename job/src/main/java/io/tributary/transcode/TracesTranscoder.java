package io.tributary.transcode;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.schema.TableSchema;

import java.util.List;

/**
 * Turns an OTLP traces request into {@code otel_traces} rows in RowBinary, one row per span, with
 * the collector exporter's semantics. Not thread-safe: one per task.
 */
public final class TracesTranscoder {

    private static final String SERVICE_NAME = "service.name";

    private final TableSchema<SpanRow> schema;
    private final SpanRow row = new SpanRow();

    public TracesTranscoder(TableSchema<SpanRow> schema) {
        this.schema = schema;
    }

    /**
     * Appends one row per span of {@code request} to {@code out}; returns the number of rows.
     * When it throws, {@code out} may hold a partial row: the caller discards it.
     *
     * @throws InvalidOtlpException for spans the exporter would not accept (ids of wrong length)
     */
    public int transcode(ExportTraceServiceRequest request, RowBinaryWriter out) {
        int rows = 0;
        for (ResourceSpans rs : request.getResourceSpansList()) {
            List<KeyValue> resAttrs = rs.getResource().getAttributesList();
            row.setResource(StringMap.ofAttributes(resAttrs), serviceName(resAttrs));
            for (ScopeSpans ss : rs.getScopeSpansList()) {
                InstrumentationScope scope = ss.getScope();
                row.setScope(scope.getName(), scope.getVersion());
                for (int i = 0, n = ss.getSpansCount(); i < n; i++) {
                    row.setSpan(ss.getSpans(i));
                    schema.writeRow(row, out);
                    rows++;
                }
            }
        }
        return rows;
    }

    /**
     * The exporter's {@code GetServiceName}: the first {@code service.name} attribute rendered by
     * {@code AsString}, or "" when there is none.
     */
    static String serviceName(List<KeyValue> attributes) {
        for (KeyValue kv : attributes) {
            if (SERVICE_NAME.equals(kv.getKey())) {
                return AnyValues.asString(kv.getValue());
            }
        }
        return "";
    }
}
