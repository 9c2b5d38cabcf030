package io.tributary.loadgen;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;

import java.util.SplittableRandom;

/**
 * Trace records shaped like streamfold/otel-loadgen's: one resource per record (service.name,
 * host.name, k8s.pod.name), one trace of {@code spansPerTrace} spans where each span is the parent
 * of the next, a few int and string attributes and one event per span.
 */
public final class LoadShape {

    private final SplittableRandom random;
    private final int spansPerTrace;

    public LoadShape(long seed, int spansPerTrace) {
        this.random = new SplittableRandom(seed);
        this.spansPerTrace = spansPerTrace;
    }

    public int spansPerTrace() {
        return spansPerTrace;
    }

    /** The next record: one trace, start times around {@code nowNanos}. */
    public ExportTraceServiceRequest next(long nowNanos) {
        int service = random.nextInt(10);
        Resource resource =
                Resource.newBuilder()
                        .addAttributes(str("service.name", "loadgen-service-" + service))
                        .addAttributes(str("host.name", "host-" + random.nextInt(50)))
                        .addAttributes(str("k8s.pod.name", "loadgen-" + service + "-" + Integer.toHexString(random.nextInt(1 << 20))))
                        .build();
        ScopeSpans.Builder scope =
                ScopeSpans.newBuilder()
                        .setScope(InstrumentationScope.newBuilder().setName("otel-loadgen").setVersion("0.1.0"));
        byte[] traceId = bytes(16);
        ByteString trace = ByteString.copyFrom(traceId);
        ByteString parent = ByteString.EMPTY;
        long start = nowNanos;
        for (int i = 0; i < spansPerTrace; i++) {
            ByteString spanId = ByteString.copyFrom(bytes(8));
            long duration = 1_000 + random.nextInt(5_000_000);
            scope.addSpans(
                    Span.newBuilder()
                            .setTraceId(trace)
                            .setSpanId(spanId)
                            .setParentSpanId(parent)
                            .setName("loadgen-span-" + (i % 8))
                            .setKind(i == 0 ? Span.SpanKind.SPAN_KIND_SERVER : Span.SpanKind.SPAN_KIND_INTERNAL)
                            .setStartTimeUnixNano(start)
                            .setEndTimeUnixNano(start + duration)
                            .addAttributes(str("http.method", i % 2 == 0 ? "GET" : "POST"))
                            .addAttributes(str("http.route", "/api/v1/items/" + (i % 16)))
                            .addAttributes(integer("http.status_code", 200))
                            .addAttributes(integer("loadgen.span.index", i))
                            .addEvents(
                                    Span.Event.newBuilder()
                                            .setTimeUnixNano(start + duration / 2)
                                            .setName("loadgen-event")
                                            .addAttributes(integer("event.seq", i)))
                            .setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_OK)));
            parent = spanId;
            start += 1_000;
        }
        return ExportTraceServiceRequest.newBuilder()
                .addResourceSpans(ResourceSpans.newBuilder().setResource(resource).addScopeSpans(scope))
                .build();
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i += 8) {
            long v = random.nextLong();
            for (int j = 0; j < 8 && i + j < n; j++) {
                b[i + j] = (byte) (v >>> (8 * j));
            }
        }
        b[0] |= 1; // never all zero
        return b;
    }

    private static KeyValue str(String k, String v) {
        return KeyValue.newBuilder().setKey(k).setValue(AnyValue.newBuilder().setStringValue(v)).build();
    }

    private static KeyValue integer(String k, long v) {
        return KeyValue.newBuilder().setKey(k).setValue(AnyValue.newBuilder().setIntValue(v)).build();
    }
}
