package io.tributary.tables.coroot;

/**
 * One row of Coroot's {@code otel_logs}, filled by {@link CorootReader} as Coroot's collector
 * fills it ({@code collector/logs.go} in coroot/coroot) and written by {@link CorootSchema}'s
 * columns.
 */
public final class CorootLog {
    long timestamp;
    byte[] traceId;
    byte[] spanId;
    int traceFlags;
    byte[] severityText;
    int severityNumber;
    byte[] serviceName;
    byte[] body;
    CorootAttributes resourceAttributes;
    CorootAttributes logAttributes;
}
