package io.tributary.testing;

import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.tributary.otlp.InvalidOtlpException;
import io.tributary.otlp.InvalidProtobufException;

import java.io.IOException;

/**
 * What the fuzz targets share. {@code mvn verify} fuzzes each {@code *FuzzTest} (Jazzer, one JVM
 * per target) for the time its {@code @FuzzTest} gives: the readers of OTLP records longer, the
 * small readers shorter, about two and a half minutes in all with the JVMs' start. {@code mvn test} runs only
 * their inputs, checked in under {@code src/test/resources/<package>/<Class>Inputs/<method>/},
 * where Jazzer also writes an input that fails.
 */
public final class Fuzzing {

    /** For the readers of OTLP records, whose inputs have the most to explore. */
    public static final String LONG = "10s";
    /** For the small readers (state serializers, RowBinary, encoding detection). */
    public static final String SHORT = "4s";

    private Fuzzing() {}

    /**
     * Whether {@code e} is a refusal the readers of untrusted bytes document: {@link
     * InvalidProtobufException}, {@link InvalidOtlpException}, or an {@link IOException} (what
     * Jackson and protobuf-java throw for malformed input). Anything else (another runtime
     * exception, a stack overflow, running out of memory) is a finding.
     */
    public static boolean documented(Throwable e) {
        return e instanceof InvalidProtobufException || e instanceof InvalidOtlpException || e instanceof IOException;
    }

    /** {@code e} as a finding: an {@link AssertionError} that says what was thrown. */
    public static AssertionError finding(Throwable e) {
        return new AssertionError("not a documented refusal: " + e, e);
    }

    /** The rows an export request gives: one per span, log record or data point. */
    public static int rows(Message request) {
        int n = 0;
        if (request instanceof ExportTraceServiceRequest) {
            for (ResourceSpans rs : ((ExportTraceServiceRequest) request).getResourceSpansList()) {
                for (ScopeSpans ss : rs.getScopeSpansList()) {
                    n += ss.getSpansCount();
                }
            }
        } else if (request instanceof ExportLogsServiceRequest) {
            for (ResourceLogs rl : ((ExportLogsServiceRequest) request).getResourceLogsList()) {
                for (ScopeLogs sl : rl.getScopeLogsList()) {
                    n += sl.getLogRecordsCount();
                }
            }
        } else {
            for (ResourceMetrics rm : ((ExportMetricsServiceRequest) request).getResourceMetricsList()) {
                for (ScopeMetrics sm : rm.getScopeMetricsList()) {
                    for (Metric m : sm.getMetricsList()) {
                        n += m.getGauge().getDataPointsCount() + m.getSum().getDataPointsCount()
                                + m.getHistogram().getDataPointsCount() + m.getExponentialHistogram().getDataPointsCount()
                                + m.getSummary().getDataPointsCount();
                    }
                }
            }
        }
        return n;
    }
}
