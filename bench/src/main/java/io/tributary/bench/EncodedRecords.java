package io.tributary.bench;

import com.google.protobuf.ByteString;
import com.google.protobuf.util.JsonFormat;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.tributary.encoding.jaeger.model.JaegerModel;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

import zipkin2.Endpoint;
import zipkin2.codec.SpanBytesEncoder;

/**
 * loadgen-shaped telemetry written in the encodings that are not OTLP, as their producers write
 * it, for {@code bench decode --encoding}: Zipkin v2 JSON, proto3 and v1 thrift by the zipkin2
 * library (a record's spans as one list), Jaeger spans one per record, log records one per record
 * as a line of text or a JSON object.
 */
final class EncodedRecords {

    private EncodedRecords() {}

    /** The records of {@code encoding} for one request's worth of items; each element one Kafka record. */
    static List<byte[]> of(String encoding, com.google.protobuf.Message request) throws Exception {
        List<byte[]> out = new ArrayList<>();
        switch (encoding) {
            case "zipkin_json":
            case "zipkin_proto":
            case "zipkin_thrift": {
                List<zipkin2.Span> spans = zipkin((ExportTraceServiceRequest) request);
                SpanBytesEncoder e = encoding.equals("zipkin_json") ? SpanBytesEncoder.JSON_V2
                        : encoding.equals("zipkin_proto") ? SpanBytesEncoder.PROTO3 : SpanBytesEncoder.THRIFT;
                out.add(e.encodeList(spans));
                return out;
            }
            case "jaeger_proto":
            case "jaeger_json":
                for (JaegerModel.Span s : jaeger((ExportTraceServiceRequest) request)) {
                    out.add(encoding.equals("jaeger_proto") ? s.toByteArray()
                            : JsonFormat.printer().omittingInsignificantWhitespace().print(s).getBytes(StandardCharsets.UTF_8));
                }
                return out;
            case "text":
            case "raw":
            case "json_lines":
                for (ResourceLogs rl : ((ExportLogsServiceRequest) request).getResourceLogsList()) {
                    for (ScopeLogs sl : rl.getScopeLogsList()) {
                        for (LogRecord r : sl.getLogRecordsList()) {
                            out.add(encoding.equals("json_lines") ? json(r) : line(r).getBytes(StandardCharsets.UTF_8));
                        }
                    }
                }
                return out;
            default:
                throw new IllegalArgumentException("bench decode --encoding: proto, json, zipkin_json, zipkin_proto,"
                        + " zipkin_thrift, jaeger_proto, jaeger_json, raw, text or json_lines, not '" + encoding + "'");
        }
    }

    private static String text(AnyValue v) {
        return v.hasStringValue() ? v.getStringValue() : v.hasIntValue() ? Long.toString(v.getIntValue())
                : v.hasDoubleValue() ? Double.toString(v.getDoubleValue()) : v.hasBoolValue() ? Boolean.toString(v.getBoolValue()) : "";
    }

    private static String service(List<KeyValue> resource) {
        for (KeyValue kv : resource) {
            if (kv.getKey().equals("service.name")) {
                return kv.getValue().getStringValue();
            }
        }
        return "";
    }

    private static List<zipkin2.Span> zipkin(ExportTraceServiceRequest r) {
        HexFormat hex = HexFormat.of();
        List<zipkin2.Span> out = new ArrayList<>();
        for (ResourceSpans rs : r.getResourceSpansList()) {
            String service = service(rs.getResource().getAttributesList());
            for (ScopeSpans ss : rs.getScopeSpansList()) {
                for (Span s : ss.getSpansList()) {
                    zipkin2.Span.Builder b = zipkin2.Span.newBuilder().traceId(hex.formatHex(s.getTraceId().toByteArray()))
                            .id(hex.formatHex(s.getSpanId().toByteArray())).name(s.getName())
                            .timestamp(s.getStartTimeUnixNano() / 1000)
                            .duration(Math.max(1, (s.getEndTimeUnixNano() - s.getStartTimeUnixNano()) / 1000))
                            .localEndpoint(Endpoint.newBuilder().serviceName(service).build());
                    if (!s.getParentSpanId().isEmpty()) {
                        b.parentId(hex.formatHex(s.getParentSpanId().toByteArray()));
                    }
                    switch (s.getKind()) {
                        case SPAN_KIND_CLIENT -> b.kind(zipkin2.Span.Kind.CLIENT);
                        case SPAN_KIND_SERVER -> b.kind(zipkin2.Span.Kind.SERVER);
                        case SPAN_KIND_PRODUCER -> b.kind(zipkin2.Span.Kind.PRODUCER);
                        case SPAN_KIND_CONSUMER -> b.kind(zipkin2.Span.Kind.CONSUMER);
                        default -> { }
                    }
                    for (KeyValue kv : s.getAttributesList()) {
                        b.putTag(kv.getKey(), text(kv.getValue()));
                    }
                    for (Span.Event e : s.getEventsList()) {
                        b.addAnnotation(Math.max(1, e.getTimeUnixNano() / 1000), e.getName());
                    }
                    out.add(b.build());
                }
            }
        }
        return out;
    }

    private static List<JaegerModel.Span> jaeger(ExportTraceServiceRequest r) {
        List<JaegerModel.Span> out = new ArrayList<>();
        for (ResourceSpans rs : r.getResourceSpansList()) {
            JaegerModel.Process.Builder process = JaegerModel.Process.newBuilder().setServiceName(service(rs.getResource().getAttributesList()));
            for (KeyValue kv : rs.getResource().getAttributesList()) {
                if (!kv.getKey().equals("service.name")) {
                    process.addTags(tag(kv));
                }
            }
            for (ScopeSpans ss : rs.getScopeSpansList()) {
                for (Span s : ss.getSpansList()) {
                    long start = s.getStartTimeUnixNano();
                    long duration = Math.max(0, s.getEndTimeUnixNano() - start);
                    JaegerModel.Span.Builder b = JaegerModel.Span.newBuilder().setTraceId(s.getTraceId()).setSpanId(s.getSpanId())
                            .setOperationName(s.getName()).setProcess(process)
                            .setStartTime(com.google.protobuf.Timestamp.newBuilder().setSeconds(start / 1_000_000_000L)
                                    .setNanos((int) (start % 1_000_000_000L)))
                            .setDuration(com.google.protobuf.Duration.newBuilder().setSeconds(duration / 1_000_000_000L)
                                    .setNanos((int) (duration % 1_000_000_000L)));
                    if (!s.getParentSpanId().isEmpty()) {
                        b.addReferences(JaegerModel.SpanRef.newBuilder().setTraceId(s.getTraceId()).setSpanId(s.getParentSpanId()));
                    }
                    String kind = s.getKind().name().replace("SPAN_KIND_", "").toLowerCase(Locale.ROOT);
                    if (!kind.equals("unspecified")) {
                        b.addTags(JaegerModel.KeyValue.newBuilder().setKey("span.kind").setVStr(kind));
                    }
                    for (KeyValue kv : s.getAttributesList()) {
                        b.addTags(tag(kv));
                    }
                    for (Span.Event e : s.getEventsList()) {
                        b.addLogs(JaegerModel.Log.newBuilder().setTimestamp(com.google.protobuf.Timestamp.newBuilder()
                                        .setSeconds(e.getTimeUnixNano() / 1_000_000_000L).setNanos((int) (e.getTimeUnixNano() % 1_000_000_000L)))
                                .addFields(JaegerModel.KeyValue.newBuilder().setKey("event").setVStr(e.getName())));
                    }
                    out.add(b.build());
                }
            }
        }
        return out;
    }

    private static JaegerModel.KeyValue tag(KeyValue kv) {
        JaegerModel.KeyValue.Builder t = JaegerModel.KeyValue.newBuilder().setKey(kv.getKey());
        AnyValue v = kv.getValue();
        if (v.hasIntValue()) {
            t.setVType(JaegerModel.ValueType.INT64).setVInt64(v.getIntValue());
        } else if (v.hasDoubleValue()) {
            t.setVType(JaegerModel.ValueType.FLOAT64).setVFloat64(v.getDoubleValue());
        } else if (v.hasBoolValue()) {
            t.setVType(JaegerModel.ValueType.BOOL).setVBool(v.getBoolValue());
        } else {
            t.setVStr(text(v));
        }
        return t.build();
    }

    /** A log line as a shipper writes it: time, severity, body. */
    private static String line(LogRecord r) {
        return r.getTimeUnixNano() + " " + r.getSeverityText() + " " + text(r.getBody());
    }

    /** A JSON log document: the body as "message", the attributes as keys. */
    private static byte[] json(LogRecord r) {
        StringBuilder b = new StringBuilder("{\"time\":").append(r.getTimeUnixNano()).append(",\"level\":\"")
                .append(r.getSeverityText()).append("\",\"message\":").append(quote(text(r.getBody())));
        for (KeyValue kv : r.getAttributesList()) {
            b.append(',').append(quote(kv.getKey())).append(':').append(quote(text(kv.getValue())));
        }
        return b.append('}').toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }
}
