package io.tributary.decode;

import static io.tributary.decode.OtlpJson.enumValue;
import static io.tributary.decode.OtlpJson.id;
import static io.tributary.decode.OtlpJson.int32;
import static io.tributary.decode.OtlpJson.int64;
import static io.tributary.decode.OtlpJson.keyValues;
import static io.tributary.decode.OtlpJson.startArray;
import static io.tributary.decode.OtlpJson.startObject;
import static io.tributary.decode.OtlpJson.string;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import io.tributary.transcode.Hex;
import io.tributary.transcode.InvalidOtlpException;

import java.io.IOException;
import java.util.ArrayList;

/**
 * Parses an OTLP/JSON {@code ExportTraceServiceRequest} (or {@code TracesData}, which has the same
 * shape) into its protobuf form. See {@link OtlpJson} for the mapping rules.
 */
public final class OtlpJsonTraces {

    private static final String[] SPAN_KINDS = {
        "SPAN_KIND_UNSPECIFIED",
        "SPAN_KIND_INTERNAL",
        "SPAN_KIND_SERVER",
        "SPAN_KIND_CLIENT",
        "SPAN_KIND_PRODUCER",
        "SPAN_KIND_CONSUMER"
    };
    private static final String[] STATUS_CODES = {
        "STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"
    };

    private OtlpJsonTraces() {}

    /**
     * @throws IOException for malformed JSON
     * @throws InvalidOtlpException for JSON that is not OTLP (wrong types, bad ids)
     */
    public static ExportTraceServiceRequest parse(byte[] json, int offset, int length)
            throws IOException {
        ExportTraceServiceRequest.Builder req = ExportTraceServiceRequest.newBuilder();
        try (JsonParser p = OtlpJson.FACTORY.createParser(json, offset, length)) {
            p.nextToken();
            if (!startObject(p, "request")) {
                throw new InvalidOtlpException("the record is JSON null, not an OTLP request");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                p.nextToken();
                if (f.equals("resourceSpans") || f.equals("resource_spans")) {
                    if (startArray(p, f)) {
                        while (p.nextToken() != JsonToken.END_ARRAY) {
                            req.addResourceSpans(resourceSpans(p));
                        }
                    }
                } else {
                    p.skipChildren();
                }
            }
            if (p.nextToken() != null) {
                throw new InvalidOtlpException("trailing content after the JSON object");
            }
        }
        return req.build();
    }

    private static ResourceSpans resourceSpans(JsonParser p) throws IOException {
        ResourceSpans.Builder rs = ResourceSpans.newBuilder();
        if (!startObject(p, "resourceSpans")) {
            return rs.build();
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            p.nextToken();
            switch (f) {
                case "resource":
                    rs.setResource(OtlpJson.resource(p));
                    break;
                case "scopeSpans":
                case "scope_spans":
                    if (startArray(p, f)) {
                        while (p.nextToken() != JsonToken.END_ARRAY) {
                            rs.addScopeSpans(scopeSpans(p));
                        }
                    }
                    break;
                case "schemaUrl":
                case "schema_url":
                    rs.setSchemaUrl(string(p, f));
                    break;
                default:
                    p.skipChildren();
            }
        }
        return rs.build();
    }

    private static ScopeSpans scopeSpans(JsonParser p) throws IOException {
        ScopeSpans.Builder ss = ScopeSpans.newBuilder();
        if (!startObject(p, "scopeSpans")) {
            return ss.build();
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            p.nextToken();
            switch (f) {
                case "scope":
                    ss.setScope(OtlpJson.scope(p));
                    break;
                case "spans":
                    if (startArray(p, f)) {
                        while (p.nextToken() != JsonToken.END_ARRAY) {
                            ss.addSpans(span(p));
                        }
                    }
                    break;
                case "schemaUrl":
                case "schema_url":
                    ss.setSchemaUrl(string(p, f));
                    break;
                default:
                    p.skipChildren();
            }
        }
        return ss.build();
    }

    private static Span span(JsonParser p) throws IOException {
        Span.Builder s = Span.newBuilder();
        if (!startObject(p, "span")) {
            return s.build();
        }
        ArrayList<KeyValue> attrs = new ArrayList<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            p.nextToken();
            switch (f) {
                case "traceId":
                case "trace_id":
                    s.setTraceId(id(p, Hex.TRACE_ID_BYTES, "traceId"));
                    break;
                case "spanId":
                case "span_id":
                    s.setSpanId(id(p, Hex.SPAN_ID_BYTES, "spanId"));
                    break;
                case "parentSpanId":
                case "parent_span_id":
                    s.setParentSpanId(id(p, Hex.SPAN_ID_BYTES, "parentSpanId"));
                    break;
                case "traceState":
                case "trace_state":
                    s.setTraceState(string(p, f));
                    break;
                case "flags":
                    s.setFlags(int32(p, f));
                    break;
                case "name":
                    s.setName(string(p, f));
                    break;
                case "kind":
                    s.setKindValue(enumValue(p, SPAN_KINDS, "kind"));
                    break;
                case "startTimeUnixNano":
                case "start_time_unix_nano":
                    s.setStartTimeUnixNano(int64(p, f));
                    break;
                case "endTimeUnixNano":
                case "end_time_unix_nano":
                    s.setEndTimeUnixNano(int64(p, f));
                    break;
                case "attributes":
                    keyValues(p, attrs, "span.attributes");
                    break;
                case "droppedAttributesCount":
                case "dropped_attributes_count":
                    s.setDroppedAttributesCount(int32(p, f));
                    break;
                case "events":
                    if (startArray(p, f)) {
                        while (p.nextToken() != JsonToken.END_ARRAY) {
                            s.addEvents(event(p));
                        }
                    }
                    break;
                case "droppedEventsCount":
                case "dropped_events_count":
                    s.setDroppedEventsCount(int32(p, f));
                    break;
                case "links":
                    if (startArray(p, f)) {
                        while (p.nextToken() != JsonToken.END_ARRAY) {
                            s.addLinks(link(p));
                        }
                    }
                    break;
                case "droppedLinksCount":
                case "dropped_links_count":
                    s.setDroppedLinksCount(int32(p, f));
                    break;
                case "status":
                    s.setStatus(status(p));
                    break;
                default:
                    p.skipChildren();
            }
        }
        return s.addAllAttributes(attrs).build();
    }

    private static Span.Event event(JsonParser p) throws IOException {
        Span.Event.Builder e = Span.Event.newBuilder();
        if (!startObject(p, "event")) {
            return e.build();
        }
        ArrayList<KeyValue> attrs = new ArrayList<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            p.nextToken();
            switch (f) {
                case "timeUnixNano":
                case "time_unix_nano":
                    e.setTimeUnixNano(int64(p, f));
                    break;
                case "name":
                    e.setName(string(p, f));
                    break;
                case "attributes":
                    keyValues(p, attrs, "event.attributes");
                    break;
                case "droppedAttributesCount":
                case "dropped_attributes_count":
                    e.setDroppedAttributesCount(int32(p, f));
                    break;
                default:
                    p.skipChildren();
            }
        }
        return e.addAllAttributes(attrs).build();
    }

    private static Span.Link link(JsonParser p) throws IOException {
        Span.Link.Builder l = Span.Link.newBuilder();
        if (!startObject(p, "link")) {
            return l.build();
        }
        ArrayList<KeyValue> attrs = new ArrayList<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            p.nextToken();
            switch (f) {
                case "traceId":
                case "trace_id":
                    l.setTraceId(id(p, Hex.TRACE_ID_BYTES, "links.traceId"));
                    break;
                case "spanId":
                case "span_id":
                    l.setSpanId(id(p, Hex.SPAN_ID_BYTES, "links.spanId"));
                    break;
                case "traceState":
                case "trace_state":
                    l.setTraceState(string(p, f));
                    break;
                case "attributes":
                    keyValues(p, attrs, "link.attributes");
                    break;
                case "droppedAttributesCount":
                case "dropped_attributes_count":
                    l.setDroppedAttributesCount(int32(p, f));
                    break;
                case "flags":
                    l.setFlags(int32(p, f));
                    break;
                default:
                    p.skipChildren();
            }
        }
        return l.addAllAttributes(attrs).build();
    }

    private static Status status(JsonParser p) throws IOException {
        Status.Builder s = Status.newBuilder();
        if (!startObject(p, "status")) {
            return s.build();
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            p.nextToken();
            switch (f) {
                case "message":
                    s.setMessage(string(p, "status.message"));
                    break;
                case "code":
                    s.setCodeValue(enumValue(p, STATUS_CODES, "status.code"));
                    break;
                default:
                    p.skipChildren();
            }
        }
        return s.build();
    }
}
