package io.tributary.tables.coroot;

/**
 * One row of Coroot's {@code otel_traces}, filled by {@link CorootReader} as Coroot's collector
 * fills it ({@code collector/traces.go} in coroot/coroot) and written by {@link CorootSchema}'s
 * columns. Text is held as the bytes the row stores.
 */
public final class CorootSpan {
    long timestamp;
    byte[] traceId;
    byte[] spanId;
    byte[] parentSpanId;
    byte[] traceState;
    byte[] name;
    byte[] kind;
    byte[] serviceName;
    CorootAttributes resourceAttributes;
    CorootAttributes spanAttributes;
    long duration;
    byte[] statusCode;
    byte[] statusMessage;
    long[] eventTimes;
    byte[][] eventNames;
    CorootAttributes[] eventAttributes;
    byte[][] linkTraceIds;
    byte[][] linkSpanIds;
    byte[][] linkTraceStates;
    CorootAttributes[] linkAttributes;
}
