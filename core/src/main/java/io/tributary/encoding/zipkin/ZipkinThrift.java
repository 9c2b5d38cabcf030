package io.tributary.encoding.zipkin;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Zipkin v1 thrift ({@code zipkin_thrift}): a TBinaryProtocol {@code list<zipkincore.Span>}, read
 * as the collector's {@code zipkinthriftconverter.DeserializeThrift} reads it and translated by its
 * v1 translator, not the v2 one ({@code pkg/translator/zipkin/zipkinv1/thrift.go}, {@code
 * json.go}, {@code status_code.go}): the kind and the times come from the core annotations (cs,
 * cr, ss, sr, ms, mr), which are no events; the resource is the endpoint of the first core
 * annotation with a service name ({@code unknown-service} when none), with its address as
 * attributes; binary annotations are typed attributes, {@code lc} renamed {@code component}.
 */
final class ZipkinThrift {

    /** {@code thriftlimit.go}: the most elements of one list. */
    private static final int MAX_ELEMENTS = 1 << 20;

    private static final byte STOP = 0;
    private static final byte BOOL = 2;
    private static final byte BYTE = 3;
    private static final byte DOUBLE = 4;
    private static final byte I16 = 6;
    private static final byte I32 = 8;
    private static final byte I64 = 10;
    private static final byte STRING = 11;
    private static final byte STRUCT = 12;
    private static final byte MAP = 13;
    private static final byte SET = 14;
    private static final byte LIST = 15;

    private final byte[] b;
    private int at;

    private ZipkinThrift(byte[] b) {
        this.b = b;
    }

    /** The zipkincore structs, as much of them as the translator reads. */
    private static final class V1Span {
        long traceId;
        Long traceIdHigh;
        String name = "";
        long id;
        Long parentId;
        final List<V1Annotation> annotations = new ArrayList<>();
        final List<V1Binary> binaryAnnotations = new ArrayList<>();
        Long timestamp;
        Long duration;
    }

    private record V1Annotation(long timestamp, String value, V1Endpoint host) {}

    private record V1Binary(String key, byte[] value, int type, V1Endpoint host) {}

    /** The translator's endpoint: Go's text of each address, "" when none. */
    private record V1Endpoint(String serviceName, String ipv4, String ipv6, int port) {
        String key() {
            return serviceName + "-" + ipv4 + "-" + ipv6 + "-" + port;
        }
    }

    static ExportTraceServiceRequest decode(byte[] value) throws IOException {
        ZipkinThrift r = new ZipkinThrift(value);
        List<V1Span> spans = new ArrayList<>();
        try {
            r.u8(); // the element type, not checked
            int n = r.size(1);
            for (int i = 0; i < n; i++) {
                spans.add(r.span());
            }
        } catch (ArrayIndexOutOfBoundsException e) {
            throw new IOException("invalid Zipkin thrift: the record ends inside a span");
        }
        return toTraces(spans);
    }

    // ---- TBinaryProtocol

    private int u8() {
        return b[at++];
    }

    private short i16() {
        short v = (short) ((b[at] & 0xFF) << 8 | (b[at + 1] & 0xFF));
        at += 2;
        return v;
    }

    private int i32() {
        int v = (b[at] & 0xFF) << 24 | (b[at + 1] & 0xFF) << 16 | (b[at + 2] & 0xFF) << 8 | (b[at + 3] & 0xFF);
        at += 4;
        return v;
    }

    private long i64() {
        long hi = i32() & 0xFFFFFFFFL;
        long lo = i32() & 0xFFFFFFFFL;
        return hi << 32 | lo;
    }

    private byte[] binary() throws IOException {
        int n = i32();
        if (n < 0 || n > b.length - at) {
            throw new IOException("invalid Zipkin thrift: a string of " + n + " bytes where " + (b.length - at) + " are left");
        }
        byte[] out = java.util.Arrays.copyOfRange(b, at, at + n);
        at += n;
        return out;
    }

    private String string() throws IOException {
        return new String(binary(), StandardCharsets.UTF_8);
    }

    /** A list's size, each element taking at least {@code minBytes}: bounded as thriftlimit.go bounds it. */
    private int size(int minBytes) throws IOException {
        int n = i32();
        if (n < 0 || n > MAX_ELEMENTS || (long) n * minBytes > b.length - at) {
            throw new IOException("invalid Zipkin thrift: a list of " + n + " elements");
        }
        return n;
    }

    private void skip(int type, int depth) throws IOException {
        if (depth > 64) {
            throw new IOException("invalid Zipkin thrift: nested too deep");
        }
        switch (type) {
            case BOOL, BYTE -> at += 1;
            case I16 -> at += 2;
            case I32 -> at += 4;
            case DOUBLE, I64 -> at += 8;
            case STRING -> binary();
            case STRUCT -> {
                while (true) {
                    int t = u8();
                    if (t == STOP) {
                        return;
                    }
                    i16();
                    skip(t, depth + 1);
                }
            }
            case MAP -> {
                int k = u8();
                int v = u8();
                int n = size(1);
                for (int i = 0; i < n; i++) {
                    skip(k, depth + 1);
                    skip(v, depth + 1);
                }
            }
            case SET, LIST -> {
                int e = u8();
                int n = size(1);
                for (int i = 0; i < n; i++) {
                    skip(e, depth + 1);
                }
            }
            default -> throw new IOException("invalid Zipkin thrift: unknown type " + type);
        }
        if (at > b.length) {
            throw new ArrayIndexOutOfBoundsException();
        }
    }

    private V1Span span() throws IOException {
        V1Span s = new V1Span();
        while (true) {
            int t = u8();
            if (t == STOP) {
                return s;
            }
            short id = i16();
            switch (id) {
                case 1 -> { if (t == I64) { s.traceId = i64(); } else { skip(t, 0); } }
                case 3 -> { if (t == STRING) { s.name = string(); } else { skip(t, 0); } }
                case 4 -> { if (t == I64) { s.id = i64(); } else { skip(t, 0); } }
                case 5 -> { if (t == I64) { s.parentId = i64(); } else { skip(t, 0); } }
                case 6 -> {
                    if (t == LIST && b[at] == STRUCT) {
                        u8();
                        int n = size(1);
                        for (int i = 0; i < n; i++) {
                            s.annotations.add(annotation());
                        }
                    } else {
                        skip(t, 0);
                    }
                }
                case 8 -> {
                    if (t == LIST && b[at] == STRUCT) {
                        u8();
                        int n = size(1);
                        for (int i = 0; i < n; i++) {
                            s.binaryAnnotations.add(binaryAnnotation());
                        }
                    } else {
                        skip(t, 0);
                    }
                }
                case 10 -> { if (t == I64) { s.timestamp = i64(); } else { skip(t, 0); } }
                case 11 -> { if (t == I64) { s.duration = i64(); } else { skip(t, 0); } }
                case 12 -> { if (t == I64) { s.traceIdHigh = i64(); } else { skip(t, 0); } }
                default -> skip(t, 0); // debug (9) and unknown fields
            }
        }
    }

    private V1Annotation annotation() throws IOException {
        long ts = 0;
        String value = "";
        V1Endpoint host = null;
        while (true) {
            int t = u8();
            if (t == STOP) {
                return new V1Annotation(ts, value, host);
            }
            short id = i16();
            if (id == 1 && t == I64) {
                ts = i64();
            } else if (id == 2 && t == STRING) {
                value = string();
            } else if (id == 3 && t == STRUCT) {
                host = endpoint();
            } else {
                skip(t, 0);
            }
        }
    }

    private V1Binary binaryAnnotation() throws IOException {
        String key = "";
        byte[] value = new byte[0];
        int type = 0;
        V1Endpoint host = null;
        while (true) {
            int t = u8();
            if (t == STOP) {
                return new V1Binary(key, value, type, host);
            }
            short id = i16();
            if (id == 1 && t == STRING) {
                key = string();
            } else if (id == 2 && t == STRING) {
                value = binary();
            } else if (id == 3 && t == I32) {
                type = i32();
            } else if (id == 4 && t == STRUCT) {
                host = endpoint();
            } else {
                skip(t, 0);
            }
        }
    }

    /** {@code toTranslatorEndpoint}: an IPv4 of 0 and an empty IPv6 are none; the port is a signed i16. */
    private V1Endpoint endpoint() throws IOException {
        int ipv4 = 0;
        short port = 0;
        String service = "";
        byte[] ipv6 = new byte[0];
        while (true) {
            int t = u8();
            if (t == STOP) {
                String v4 = ipv4 == 0 ? "" : GoIp.format(new byte[] {(byte) (ipv4 >>> 24), (byte) (ipv4 >>> 16), (byte) (ipv4 >>> 8),
                    (byte) ipv4});
                String v6 = ipv6.length == 0 ? "" : GoIp.format(ipv6);
                return new V1Endpoint(service, v4, v6, port);
            }
            short id = i16();
            if (id == 1 && t == I32) {
                ipv4 = i32();
            } else if (id == 2 && t == I16) {
                port = i16();
            } else if (id == 3 && t == STRING) {
                service = string();
            } else if (id == 4 && t == STRING) {
                ipv6 = binary();
            } else {
                skip(t, 0);
            }
        }
    }

    // ---- the v1 translator

    private static final String UNKNOWN_SERVICE = "unknown-service";

    /** {@code zipkinToTraces}: one resource per distinct endpoint, in the order first seen, each with one empty scope. */
    private static ExportTraceServiceRequest toTraces(List<V1Span> spans) {
        ExportTraceServiceRequest.Builder out = ExportTraceServiceRequest.newBuilder();
        Map<String, ResourceSpans.Builder> byEndpoint = new LinkedHashMap<>();
        for (V1Span z : spans) {
            Span.Builder span = Span.newBuilder();
            V1Endpoint endpoint = annotations(z, span);
            String localComponent = binaryAnnotations(z, span);
            if (endpoint.serviceName().equals(UNKNOWN_SERVICE) && !localComponent.isEmpty()) {
                endpoint = new V1Endpoint(localComponent, endpoint.ipv4(), endpoint.ipv6(), endpoint.port());
            }
            if (z.timestamp != null) {
                long duration = z.duration == null ? 0 : z.duration;
                span.setStartTimeUnixNano(micros(z.timestamp));
                span.setEndTimeUnixNano(micros(z.timestamp + duration));
            }
            span.setName(z.name);
            long high = z.traceIdHigh == null ? 0 : z.traceIdHigh;
            if (high != 0 || z.traceId != 0) { // an all-zero id is pdata's empty one
                span.setTraceId(ByteString.copyFrom(ZipkinV2Translator.be(high, z.traceId)));
            }
            if (z.id != 0) {
                span.setSpanId(ByteString.copyFrom(ZipkinV2Translator.be(z.id)));
            }
            if (z.parentId != null && z.parentId != 0) {
                span.setParentSpanId(ByteString.copyFrom(ZipkinV2Translator.be(z.parentId)));
            }
            V1Endpoint e = endpoint;
            ResourceSpans.Builder rs = byEndpoint.computeIfAbsent(e.key(), k -> {
                ResourceSpans.Builder r = out.addResourceSpansBuilder();
                r.getResourceBuilder().addAttributes(str("service.name", e.serviceName()));
                if (!e.ipv4().isEmpty() || !e.ipv6().isEmpty() || e.port() != 0) { // endpoint.setAttributes
                    if (!e.ipv4().isEmpty()) {
                        r.getResourceBuilder().addAttributes(str("ipv4", e.ipv4()));
                    }
                    if (!e.ipv6().isEmpty()) {
                        r.getResourceBuilder().addAttributes(str("ipv6", e.ipv6()));
                    }
                    if (e.port() != 0) {
                        r.getResourceBuilder().addAttributes(str("port", Integer.toString(e.port())));
                    }
                }
                r.addScopeSpansBuilder();
                return r;
            });
            rs.getScopeSpansBuilder(0).addSpans(span);
        }
        // the builders of the map are those of the request
        return out.build();
    }

    /** {@code epochMicrosecondsToTimestamp}: nothing at or before the epoch. */
    private static long micros(long us) {
        return us <= 0 ? 0 : us * 1000;
    }

    /** {@code jsonAnnotationsToSpanAndEndpoint}: kind, times and events from the annotations; the endpoint. */
    private static V1Endpoint annotations(V1Span z, Span.Builder span) {
        long early = Long.MAX_VALUE;
        long late = Long.MIN_VALUE;
        V1Endpoint endpoint = null;
        boolean kindSet = false;
        for (V1Annotation a : z.annotations) {
            if (a.value().isEmpty()) {
                continue;
            }
            String name = a.host() != null && !a.host().serviceName().isEmpty() ? a.host().serviceName() : UNKNOWN_SERVICE;
            boolean core = switch (a.value()) {
                case "cs", "cr", "ms", "mr", "ss", "sr" -> true;
                default -> false;
            };
            if (endpoint == null && !name.equals(UNKNOWN_SERVICE) && core) {
                endpoint = a.host();
            }
            if (!kindSet && core) {
                span.setKind(switch (a.value()) {
                    case "cs", "cr" -> Span.SpanKind.SPAN_KIND_CLIENT;
                    case "ms" -> Span.SpanKind.SPAN_KIND_PRODUCER;
                    case "mr" -> Span.SpanKind.SPAN_KIND_CONSUMER;
                    default -> Span.SpanKind.SPAN_KIND_SERVER;
                });
                kindSet = true;
            }
            long t = micros(a.timestamp());
            if (a.timestamp() < early) {
                early = a.timestamp();
                span.setStartTimeUnixNano(t);
            }
            if (a.timestamp() > late) {
                late = a.timestamp();
                span.setEndTimeUnixNano(t);
            }
            if (!core) {
                span.addEventsBuilder().setTimeUnixNano(t).setName(a.value());
            }
        }
        return endpoint != null ? endpoint : new V1Endpoint(UNKNOWN_SERVICE, "", "", 0);
    }

    /**
     * {@code thriftBinAnnotationsToSpanAttributes}: typed attributes, the status from its tags
     * ({@code statusMapper}); returns the fallback service name (the last host's, else the local
     * component).
     */
    private static String binaryAnnotations(V1Span z, Span.Builder span) {
        if (z.binaryAnnotations.isEmpty()) {
            return "";
        }
        String fallback = "";
        String localComponent = "";
        StatusMapper status = new StatusMapper();
        Map<String, AnyValue> attributes = new LinkedHashMap<>();
        for (V1Binary a : z.binaryAnnotations) {
            if (a.host() != null) {
                fallback = a.host().serviceName();
            }
            AnyValue value = switch (a.type()) {
                case 0 -> AnyValue.newBuilder().setBoolValue(a.value().length == 1 && a.value()[0] == 1).build();
                case 1 -> text(Base64.getEncoder().encodeToString(a.value()));
                case 2 -> a.value().length < 2 ? text("<not enough bytes representing the number>")
                        : AnyValue.newBuilder().setIntValue(((a.value()[0] & 0xFF) << 8) | (a.value()[1] & 0xFF)).build();
                case 3 -> a.value().length < 4 ? text("<not enough bytes representing the number>")
                        : AnyValue.newBuilder().setIntValue(bigEndian(a.value(), 4)).build();
                case 4 -> a.value().length < 8 ? text("<not enough bytes representing the number>")
                        : AnyValue.newBuilder().setIntValue(bigEndian(a.value(), 8)).build();
                case 5 -> a.value().length < 8 ? text("<not enough bytes representing the number>")
                        : AnyValue.newBuilder().setDoubleValue(Double.longBitsToDouble(bigEndian(a.value(), 8))).build();
                case 6 -> text(new String(a.value(), StandardCharsets.UTF_8));
                default -> text("<unknown zipkin v1 binary annotation type (" + a.type() + ")>");
            };
            String key = a.key();
            if (key.equals("lc")) {
                key = "component";
                localComponent = new String(a.value(), StandardCharsets.UTF_8);
            }
            if (status.take(key, value)) {
                continue;
            }
            attributes.put(key, value); // PutEmpty: a repeated key, the last value
        }
        if (fallback.isEmpty()) {
            fallback = localComponent;
        }
        attributes.forEach((k, v) -> span.addAttributes(KeyValue.newBuilder().setKey(k).setValue(v)));
        status.set(span.getStatusBuilder(), span);
        return fallback;
    }

    /** The first {@code n} bytes of {@code v}, big-endian, as the bits of a long. */
    private static long bigEndian(byte[] v, int n) {
        long out = 0;
        for (int i = 0; i < n; i++) {
            out = out << 8 | (v[i] & 0xFF);
        }
        return out;
    }

    /** {@code status_code.go}'s statusMapper. */
    private static final class StatusMapper {
        Integer census;
        String censusMessage = "";
        Integer otel;
        String otelMessage = "";
        boolean error;
        Integer http;
        String httpMessage = "";

        /** Reads a tag; true when the tag is the mapper's alone (dropped from the attributes). */
        boolean take(String key, AnyValue v) {
            switch (key) {
                case "census.status_code": {
                    Integer c = code(v);
                    if (c != null) {
                        census = c == 0 ? 1 : 2; // OpenCensus OK (0) is OTLP Ok, anything else Error
                    }
                    return true;
                }
                case "census.status_description":
                case "opencensus.status_description":
                    censusMessage = v.hasStringValue() ? v.getStringValue() : "";
                    return true;
                case "otel.status_code": {
                    Integer c = code(v);
                    if (c != null) {
                        otel = c; // kept as it is, even a number no status has
                    }
                    return true;
                }
                case "otel.status_description":
                    otelMessage = v.hasStringValue() ? v.getStringValue() : "";
                    return true;
                case "http.status_code": {
                    Integer c = code(v);
                    if (c != null) {
                        http = c >= 100 && c < 400 ? 0 : 2;
                    }
                    return false;
                }
                case "http.status_message":
                    httpMessage = v.hasStringValue() ? v.getStringValue() : "";
                    return false;
                case "error":
                    error = true; // any value
                    return true;
                default:
                    return false;
            }
        }

        /** {@code attribToStatusCode}: an Int, or a decimal string, within int32. */
        private static Integer code(AnyValue v) {
            long c;
            if (v.hasIntValue()) {
                c = v.getIntValue();
            } else if (v.hasStringValue()) {
                try {
                    c = Long.parseLong(v.getStringValue());
                } catch (NumberFormatException e) {
                    return null;
                }
            } else {
                return null;
            }
            return c >= Integer.MIN_VALUE && c <= Integer.MAX_VALUE ? (int) c : null;
        }

        /** {@code status}: census, else otel.status_code, else error, else http. */
        void set(Status.Builder s, Span.Builder span) {
            Integer code;
            String message;
            if (census != null) {
                code = census;
                message = censusMessage;
            } else if (otel != null) {
                code = otel;
                message = otelMessage;
            } else if (error) {
                code = 2;
                message = !censusMessage.isEmpty() ? censusMessage : otelMessage;
            } else if (http != null) {
                code = http;
                message = httpMessage;
            } else {
                span.clearStatus();
                return;
            }
            s.setCodeValue(code);
            s.setMessage(message);
        }
    }

    private static AnyValue text(String s) {
        return AnyValue.newBuilder().setStringValue(s).build();
    }

    private static KeyValue str(String k, String v) {
        return KeyValue.newBuilder().setKey(k).setValue(text(v)).build();
    }
}
