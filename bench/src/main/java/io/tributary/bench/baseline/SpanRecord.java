package io.tributary.bench.baseline;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One {@code otel_traces} row as objects, the usual shape a Flink job hands a JDBC or client
 * sink: strings, an instant, maps and lists, as the collector's exporter computes them.
 */
public final class SpanRecord {
    public Instant timestamp;
    public String traceId;
    public String spanId;
    public String parentSpanId;
    public String traceState;
    public String spanName;
    public String spanKind;
    public String serviceName;
    public Map<String, String> resourceAttributes;
    public String scopeName;
    public String scopeVersion;
    public Map<String, String> spanAttributes;
    public long duration;
    public String statusCode;
    public String statusMessage;
    public List<Instant> eventTimestamps;
    public List<String> eventNames;
    public List<Map<String, String>> eventAttributes;
    public List<String> linkTraceIds;
    public List<String> linkSpanIds;
    public List<String> linkTraceStates;
    public List<Map<String, String>> linkAttributes;

    /** The columns, in the order of {@link #values()}. */
    public static final List<String> COLUMNS = List.of(
            "Timestamp", "TraceId", "SpanId", "ParentSpanId", "TraceState", "SpanName", "SpanKind", "ServiceName",
            "ResourceAttributes", "ScopeName", "ScopeVersion", "SpanAttributes", "Duration", "StatusCode",
            "StatusMessage", "Events.Timestamp", "Events.Name", "Events.Attributes", "Links.TraceId", "Links.SpanId",
            "Links.TraceState", "Links.Attributes");

    public Object[] values() {
        return new Object[] {timestamp, traceId, spanId, parentSpanId, traceState, spanName, spanKind, serviceName,
            resourceAttributes, scopeName, scopeVersion, spanAttributes, duration, statusCode, statusMessage,
            eventTimestamps, eventNames, eventAttributes, linkTraceIds, linkSpanIds, linkTraceStates, linkAttributes};
    }
}
