package io.tributary.loadgen;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

/**
 * Writes traces requests as OTLP/JSON the way the Collector's {@code otlp_json} Kafka encoding
 * does: lowerCamelCase keys, hex ids, 64-bit integers as strings, enums as integers, default
 * values omitted.
 */
public final class OtlpJsonWriter {

    private static final JsonFactory FACTORY = new JsonFactory();
    private static final HexFormat HEX = HexFormat.of();

    private OtlpJsonWriter() {}

    public static byte[] write(ExportTraceServiceRequest req) {
        ByteArrayOutputStream bos = new ByteArrayOutputStream(4096);
        try (JsonGenerator g = FACTORY.createGenerator(bos)) {
            g.writeStartObject();
            g.writeArrayFieldStart("resourceSpans");
            for (ResourceSpans rs : req.getResourceSpansList()) {
                g.writeStartObject();
                g.writeObjectFieldStart("resource");
                attributes(g, rs.getResource().getAttributesList());
                g.writeEndObject();
                g.writeArrayFieldStart("scopeSpans");
                for (ScopeSpans ss : rs.getScopeSpansList()) {
                    g.writeStartObject();
                    g.writeObjectFieldStart("scope");
                    stringField(g, "name", ss.getScope().getName());
                    stringField(g, "version", ss.getScope().getVersion());
                    attributes(g, ss.getScope().getAttributesList());
                    g.writeEndObject();
                    g.writeArrayFieldStart("spans");
                    for (Span s : ss.getSpansList()) {
                        span(g, s);
                    }
                    g.writeEndArray();
                    stringField(g, "schemaUrl", ss.getSchemaUrl());
                    g.writeEndObject();
                }
                g.writeEndArray();
                stringField(g, "schemaUrl", rs.getSchemaUrl());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bos.toByteArray();
    }

    private static void span(JsonGenerator g, Span s) throws IOException {
        g.writeStartObject();
        idField(g, "traceId", s.getTraceId());
        idField(g, "spanId", s.getSpanId());
        stringField(g, "traceState", s.getTraceState());
        idField(g, "parentSpanId", s.getParentSpanId());
        if (s.getFlags() != 0) {
            g.writeNumberField("flags", s.getFlags());
        }
        stringField(g, "name", s.getName());
        if (s.getKindValue() != 0) {
            g.writeNumberField("kind", s.getKindValue());
        }
        g.writeStringField("startTimeUnixNano", Long.toUnsignedString(s.getStartTimeUnixNano()));
        g.writeStringField("endTimeUnixNano", Long.toUnsignedString(s.getEndTimeUnixNano()));
        attributes(g, s.getAttributesList());
        if (s.getEventsCount() > 0) {
            g.writeArrayFieldStart("events");
            for (Span.Event e : s.getEventsList()) {
                g.writeStartObject();
                g.writeStringField("timeUnixNano", Long.toUnsignedString(e.getTimeUnixNano()));
                stringField(g, "name", e.getName());
                attributes(g, e.getAttributesList());
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        if (s.getLinksCount() > 0) {
            g.writeArrayFieldStart("links");
            for (Span.Link l : s.getLinksList()) {
                g.writeStartObject();
                idField(g, "traceId", l.getTraceId());
                idField(g, "spanId", l.getSpanId());
                stringField(g, "traceState", l.getTraceState());
                attributes(g, l.getAttributesList());
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        g.writeObjectFieldStart("status");
        stringField(g, "message", s.getStatus().getMessage());
        if (s.getStatus().getCodeValue() != 0) {
            g.writeNumberField("code", s.getStatus().getCodeValue());
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    private static void attributes(JsonGenerator g, List<KeyValue> attrs) throws IOException {
        if (attrs.isEmpty()) {
            return;
        }
        g.writeArrayFieldStart("attributes");
        for (KeyValue kv : attrs) {
            keyValue(g, kv);
        }
        g.writeEndArray();
    }

    private static void keyValue(JsonGenerator g, KeyValue kv) throws IOException {
        g.writeStartObject();
        g.writeStringField("key", kv.getKey());
        g.writeFieldName("value");
        anyValue(g, kv.getValue());
        g.writeEndObject();
    }

    private static void anyValue(JsonGenerator g, AnyValue v) throws IOException {
        g.writeStartObject();
        switch (v.getValueCase()) {
            case STRING_VALUE:
                g.writeStringField("stringValue", v.getStringValue());
                break;
            case BOOL_VALUE:
                g.writeBooleanField("boolValue", v.getBoolValue());
                break;
            case INT_VALUE:
                g.writeStringField("intValue", Long.toString(v.getIntValue()));
                break;
            case DOUBLE_VALUE:
                double d = v.getDoubleValue();
                if (Double.isNaN(d)) {
                    g.writeStringField("doubleValue", "NaN");
                } else if (Double.isInfinite(d)) {
                    g.writeStringField("doubleValue", d > 0 ? "Infinity" : "-Infinity");
                } else {
                    g.writeNumberField("doubleValue", d);
                }
                break;
            case BYTES_VALUE:
                g.writeStringField("bytesValue", Base64.getEncoder().encodeToString(v.getBytesValue().toByteArray()));
                break;
            case ARRAY_VALUE:
                g.writeObjectFieldStart("arrayValue");
                g.writeArrayFieldStart("values");
                for (AnyValue e : v.getArrayValue().getValuesList()) {
                    anyValue(g, e);
                }
                g.writeEndArray();
                g.writeEndObject();
                break;
            case KVLIST_VALUE:
                g.writeObjectFieldStart("kvlistValue");
                g.writeArrayFieldStart("values");
                for (KeyValue e : v.getKvlistValue().getValuesList()) {
                    keyValue(g, e);
                }
                g.writeEndArray();
                g.writeEndObject();
                break;
            default:
                break;
        }
        g.writeEndObject();
    }

    private static void idField(JsonGenerator g, String name, ByteString id) throws IOException {
        if (!id.isEmpty()) {
            g.writeStringField(name, HEX.formatHex(id.toByteArray()));
        }
    }

    private static void stringField(JsonGenerator g, String name, String v) throws IOException {
        if (!v.isEmpty()) {
            g.writeStringField(name, v);
        }
    }
}
