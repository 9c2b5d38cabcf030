package io.tributary.encoding.zipkin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Zipkin v2 span as zipkin-go's {@code model.SpanModel} holds it after decoding: what the
 * collector's translator reads ({@code pkg/translator/zipkin/zipkinv2}).
 */
final class ZipkinSpan {
    long traceIdHigh;
    long traceIdLow;
    long id;
    /** Null: no parent. */
    Long parentId;
    /** As decoded: JSON's string, proto's enum name; null when absent. */
    String kind;
    String name = "";
    /** Microseconds; see {@link #timestampAbsent}. */
    long timestamp;
    /** JSON only: no timestamp, or 0 (zipkin-go's zero time); proto's 0 is the epoch, not absent. */
    boolean timestampAbsent;
    long duration;
    Endpoint localEndpoint;
    Endpoint remoteEndpoint;
    final List<Annotation> annotations = new ArrayList<>();
    final Map<String, String> tags = new LinkedHashMap<>();

    /** An endpoint; null fields are absent. */
    static final class Endpoint {
        String serviceName = "";
        /** Go's {@code net.IP.String()} of the address, or null. */
        String ipv4;
        String ipv6;
        int port;
    }

    record Annotation(long timestampMicros, String value) {}
}
