package io.tributary.udf;

import io.tributary.otlp.Signal;

/**
 * {@code OTLP_SPANS(record BYTES)}: the spans of one Kafka record of OTLP traces ({@code
 * ExportTraceServiceRequest} / {@code TracesData} protobuf, or OTLP/JSON), one row each, with the
 * columns of the exporter's {@code otel_traces} ({@code Timestamp TIMESTAMP_LTZ(9)}, {@code TraceId},
 * ..., {@code SpanAttributes MAP<STRING, STRING>}, {@code Duration BIGINT} nanoseconds, {@code
 * Events ARRAY<ROW<Timestamp, Name, Attributes>>}, {@code Links ARRAY<ROW<TraceId, SpanId,
 * TraceState, Attributes>>}) and the values the job writes there.
 *
 * <pre>{@code
 * CREATE TEMPORARY SYSTEM FUNCTION OTLP_SPANS AS 'io.tributary.udf.OtlpSpans';
 * SELECT s.ServiceName, s.SpanName, s.Duration / 1e6 AS ms
 * FROM otlp_spans_topic, LATERAL TABLE(OTLP_SPANS(`value`)) AS s
 * WHERE s.StatusCode = 'Error';
 * }</pre>
 */
public final class OtlpSpans extends OtlpTableFunction {
    private static final long serialVersionUID = 1L;

    public OtlpSpans() {
        super(Signal.TRACES);
    }
}
