package io.tributary.testing.oracle;

import static io.tributary.schema.Columns.attributes;
import static io.tributary.schema.Columns.dateTime64Nanos;
import static io.tributary.schema.Columns.lowCardinalityString;
import static io.tributary.schema.Columns.nested;
import static io.tributary.schema.Columns.nestedAttributes;
import static io.tributary.schema.Columns.nestedDateTime64Nanos;
import static io.tributary.schema.Columns.nestedLowCardinalityString;
import static io.tributary.schema.Columns.nestedString;
import static io.tributary.schema.Columns.string;
import static io.tributary.schema.Columns.uint64;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.schema.SchemaFlavor;
import io.tributary.schema.TableLayout;
import io.tributary.schema.TableSchema;
import io.tributary.tables.Attributes;

import java.util.List;

/**
 * The oracle of the wire path for traces: how the job turned a protobuf-java {@code
 * ExportTraceServiceRequest} into {@code otel_traces} rows before it read the wire format itself,
 * with the columns {@code TracesSchema} declared then. The differential tests hold the wire path to
 * these bytes.
 */
public final class OracleTraces {

    private static final String ZSTD = "CODEC(ZSTD(1))";

    private final TableLayout<SpanRow> layout;
    private final SpanRow row = new SpanRow();

    public OracleTraces(SchemaFlavor flavor) {
        this.layout = TableLayout.canonical(schema(flavor), "otel_traces");
    }

    /** The rows of every span of {@code request}, in RowBinary, back to back. */
    public byte[] rows(ExportTraceServiceRequest request) {
        RowBinaryWriter out = new RowBinaryWriter(1024);
        for (ResourceSpans rs : request.getResourceSpansList()) {
            List<KeyValue> resAttrs = rs.getResource().getAttributesList();
            row.setResource(Attributes.of(resAttrs), Attributes.serviceName(resAttrs));
            for (ScopeSpans ss : rs.getScopeSpansList()) {
                InstrumentationScope scope = ss.getScope();
                row.setScope(scope.getName(), scope.getVersion());
                for (int i = 0, spans = ss.getSpansCount(); i < spans; i++) {
                    row.setSpan(ss.getSpans(i));
                    layout.writeRow(row, out);
                }
            }
        }
        return out.toByteArray();
    }

    /** The spans table's written columns as {@code TracesSchema} declared them, over protobuf-java spans. */
    static TableSchema<SpanRow> schema(SchemaFlavor f) {
        return TableSchema.<SpanRow>builder()
                .column(dateTime64Nanos("Timestamp", "", SpanRow::timestampNanos))
                .column(string("TraceId", ZSTD, SpanRow::traceId))
                .column(string("SpanId", ZSTD, SpanRow::spanId))
                .column(string("ParentSpanId", ZSTD, SpanRow::parentSpanId))
                .column(string("TraceState", ZSTD, SpanRow::traceState))
                .column(lowCardinalityString("SpanName", ZSTD, SpanRow::spanName))
                .column(lowCardinalityString("SpanKind", ZSTD, SpanRow::spanKind))
                .column(lowCardinalityString("ServiceName", ZSTD, SpanRow::serviceName))
                .columns(attributes("ResourceAttributes", ZSTD, f, SpanRow::resourceAttributes))
                .column(string("ScopeName", ZSTD, SpanRow::scopeName))
                .column(string("ScopeVersion", ZSTD, SpanRow::scopeVersion))
                .columns(attributes("SpanAttributes", ZSTD, f, SpanRow::spanAttributes))
                .column(uint64("Duration", ZSTD, SpanRow::durationNanos))
                .column(lowCardinalityString("StatusCode", ZSTD, SpanRow::statusCode))
                .column(string("StatusMessage", ZSTD, SpanRow::statusMessage))
                .column(nested("Events", ZSTD, SpanRow::eventCount,
                        nestedDateTime64Nanos("Timestamp", SpanRow::eventTimestampNanos),
                        nestedLowCardinalityString("Name", SpanRow::eventName),
                        nestedAttributes("Attributes", f, SpanRow::eventAttributes)))
                .column(nested("Links", ZSTD, SpanRow::linkCount,
                        nestedString("TraceId", SpanRow::linkTraceId),
                        nestedString("SpanId", SpanRow::linkSpanId),
                        nestedString("TraceState", SpanRow::linkTraceState),
                        nestedAttributes("Attributes", f, SpanRow::linkAttributes)))
                .partitionBy("tuple()").orderBy("tuple()").settings("")
                .build();
    }
}
