package io.tributary.encoding.jaeger;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Duration;
import com.google.protobuf.Message;
import com.google.protobuf.Timestamp;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span.Event;
import io.opentelemetry.proto.trace.v1.Span.Link;
import io.opentelemetry.proto.trace.v1.Span.SpanKind;
import io.opentelemetry.proto.trace.v1.Status;
import io.opentelemetry.proto.trace.v1.Status.StatusCode;
import io.tributary.encoding.jaeger.model.JaegerModel;
import io.tributary.encoding.jaeger.model.JaegerModel.KeyValue;
import io.tributary.encoding.jaeger.model.JaegerModel.Log;
import io.tributary.encoding.jaeger.model.JaegerModel.Process;
import io.tributary.encoding.jaeger.model.JaegerModel.Span;
import io.tributary.encoding.jaeger.model.JaegerModel.SpanRef;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One Jaeger span as the collector's Kafka receiver turns it into traces: {@code
 * receiver/kafkareceiver/internal/unmarshaler/jaeger_unmarshaler.go} wraps the record's span in a
 * {@code Batch} with the span's own process and hands it to {@code
 * pkg/translator/jaeger/jaegerproto_to_traces.go} {@code ProtoToTraces} (opentelemetry-collector-contrib
 * v0.153, jaeger-idl v0.9.0, pdata v1.59), whose rules each method below names. The result is always
 * one resource; it holds the span in one scope, or no scope at all for an all-default span. The
 * span's {@code flags}, {@code warnings} and {@code process_id} are not carried, and its dropped
 * counts stay 0, as there.
 *
 * <p>Before translating, it refuses what jaeger-idl's gogo-generated {@code Unmarshal} refuses and a
 * protobuf-java parse lets through (ids of the wrong length, times out of range, a known field with
 * the wrong wire type), so that a record the collector drops is dead-lettered here too.
 */
public final class JaegerToOtlp {

    /** {@code tracetranslator.ResourceNoServiceName}: a process so named is no resource. */
    private static final String NO_SERVICE_NAME = "OTLPResourceNoServiceName";
    /**
     * The Unix seconds of Go's zero {@code time.Time} (0001-01-01), which an absent Jaeger time is:
     * gogo's {@code stdtime} fields are {@code time.Time} values, not pointers.
     */
    private static final long GO_ZERO_TIME_SECONDS = -62_135_596_800L;

    private static final long MAX_TIMESTAMP_SECONDS = 253_402_300_800L; // 10000-01-01, exclusive
    private static final long MAX_DURATION_SECONDS = 315_576_000_000L;
    private static final long NANOS = 1_000_000_000L;

    private JaegerToOtlp() {}

    /**
     * The traces the collector makes of {@code span}.
     *
     * @throws IOException when the collector refuses the span: the message names the field and why
     */
    public static ExportTraceServiceRequest traces(Span span) throws IOException {
        check(span);
        ResourceSpans.Builder rs = ResourceSpans.newBuilder()
                .setResource(resource(span.hasProcess() ? span.getProcess() : null));
        if (!isBlank(span)) {
            List<KeyValue> tags = new ArrayList<>(span.getTagsList());
            InstrumentationScope scope = scope(tags);
            rs.addScopeSpans(ScopeSpans.newBuilder().setScope(scope).addSpans(span(span, tags)));
        }
        return ExportTraceServiceRequest.newBuilder().addResourceSpans(rs).build();
    }

    // ---- what jaeger-idl's Unmarshal refuses

    private static void check(Span span) throws IOException {
        wireTypes(span, "span");
        if (span.hasTraceId()) {
            traceIdLength(span.getTraceId(), "trace_id");
        }
        if (span.hasSpanId()) {
            spanIdLength(span.getSpanId(), "span_id");
        }
        for (int i = 0; i < span.getReferencesCount(); i++) {
            SpanRef ref = span.getReferences(i);
            wireTypes(ref, "references[" + i + "]");
            if (ref.hasTraceId()) {
                traceIdLength(ref.getTraceId(), "references[" + i + "].trace_id");
            }
            if (ref.hasSpanId()) {
                spanIdLength(ref.getSpanId(), "references[" + i + "].span_id");
            }
        }
        if (span.hasStartTime()) {
            timestamp(span.getStartTime(), "start_time");
        }
        if (span.hasDuration()) {
            duration(span.getDuration());
        }
        for (int i = 0; i < span.getTagsCount(); i++) {
            wireTypes(span.getTags(i), "tags[" + i + "]");
        }
        for (int i = 0; i < span.getLogsCount(); i++) {
            Log log = span.getLogs(i);
            wireTypes(log, "logs[" + i + "]");
            if (log.hasTimestamp()) {
                timestamp(log.getTimestamp(), "logs[" + i + "].timestamp");
            }
            for (int j = 0; j < log.getFieldsCount(); j++) {
                wireTypes(log.getFields(j), "logs[" + i + "].fields[" + j + "]");
            }
        }
        if (span.hasProcess()) {
            wireTypes(span.getProcess(), "process");
            for (int i = 0; i < span.getProcess().getTagsCount(); i++) {
                wireTypes(span.getProcess().getTags(i), "process.tags[" + i + "]");
            }
        }
    }

    /** jaeger-idl {@code model/v1/ids.go} {@code TraceIDFromBytes}: 16 bytes (high, low) or 8 (low). */
    private static void traceIdLength(ByteString id, String field) throws IOException {
        if (id.size() != 16 && id.size() != 8) {
            throw new IOException("invalid Jaeger span: " + field + " is " + id.size() + " bytes, not 16 or 8");
        }
    }

    /** jaeger-idl {@code model/v1/ids.go} {@code SpanIDFromBytes}: exactly 8 bytes. */
    private static void spanIdLength(ByteString id, String field) throws IOException {
        if (id.size() != 8) {
            throw new IOException("invalid Jaeger span: " + field + " is " + id.size() + " bytes, not 8");
        }
    }

    /** gogo {@code types.StdTimeUnmarshal} ({@code validateTimestamp}): years 1 to 9999, nanos in [0, 1e9). */
    private static void timestamp(Timestamp t, String field) throws IOException {
        wireTypes(t, field);
        if (t.getSeconds() < GO_ZERO_TIME_SECONDS || t.getSeconds() >= MAX_TIMESTAMP_SECONDS) {
            throw new IOException("invalid Jaeger span: " + field + " is out of the years 0001 to 9999 ("
                    + t.getSeconds() + " s)");
        }
        if (t.getNanos() < 0 || t.getNanos() >= NANOS) {
            throw new IOException("invalid Jaeger span: " + field + " has nanos " + t.getNanos() + ", not in [0, 1e9)");
        }
    }

    /**
     * gogo {@code types.StdDurationUnmarshal} ({@code DurationFromProto}): within ±10,000 years, nanos
     * of the seconds' sign and under a second, and the whole within an int64 of nanoseconds
     * (negative durations pass).
     */
    private static void duration(Duration d) throws IOException {
        wireTypes(d, "duration");
        long s = d.getSeconds();
        int n = d.getNanos();
        if (s < -MAX_DURATION_SECONDS || s > MAX_DURATION_SECONDS || n <= -NANOS || n >= NANOS
                || (s < 0 && n > 0) || (s > 0 && n < 0)) {
            throw new IOException("invalid Jaeger span: duration " + s + " s " + n + " ns is not a valid duration");
        }
        long ns = s * NANOS;
        if (ns / NANOS != s || (n != 0 && ((ns + n) < 0) != (n < 0))) {
            throw new IOException("invalid Jaeger span: duration " + s + " s " + n + " ns is out of range for int64 nanoseconds");
        }
    }

    /**
     * A field of {@code m} that protobuf-java kept as unknown although the schema knows its number:
     * it came with another wire type, which gogo's {@code Unmarshal} refuses ("wrong wireType").
     */
    private static void wireTypes(Message m, String where) throws IOException {
        Map<Integer, ?> unknown = m.getUnknownFields().asMap();
        if (unknown.isEmpty()) {
            return;
        }
        for (Integer number : unknown.keySet()) {
            FieldDescriptor field = m.getDescriptorForType().findFieldByNumber(number);
            if (field != null) {
                throw new IOException("invalid Jaeger span: " + where + "." + field.getName()
                        + " (field " + number + ") has the wrong wire type");
            }
        }
    }

    // ---- ProtoToTraces

    /**
     * {@code jSpansToInternal}: a span equal to Go's zero {@code model.Span} ({@code
     * reflect.DeepEqual} with {@code blankJaegerProtoSpan}) is skipped. Equal means every field at
     * its Go zero value: ids 0, no element in any repeated field, no process, an absent or
     * 0001-01-01 start time, a zero duration, and no unknown field (gogo keeps those in {@code
     * XXX_unrecognized}).
     */
    private static boolean isBlank(Span s) {
        return traceIdHigh(s.getTraceId()) == 0 && traceIdLow(s.getTraceId()) == 0 && spanId(s.getSpanId()) == 0
                && s.getOperationName().isEmpty() && s.getReferencesCount() == 0 && s.getFlags() == 0
                && (!s.hasStartTime() || (s.getStartTime().getSeconds() == GO_ZERO_TIME_SECONDS && s.getStartTime().getNanos() == 0))
                && (!s.hasDuration() || (s.getDuration().getSeconds() == 0 && s.getDuration().getNanos() == 0))
                && s.getTagsCount() == 0 && s.getLogsCount() == 0 && !s.hasProcess() && s.getProcessId().isEmpty()
                && s.getWarningsCount() == 0 && s.getUnknownFields().asMap().isEmpty();
    }

    /**
     * {@code jProcessToInternalResource}: no process, the service name {@code
     * OTLPResourceNoServiceName}, or no service name and no tags is an empty resource (no {@code
     * unknown-service} default); else {@code service.name} (when not empty), then the tags typed,
     * then {@code translateHostnameAttr} and {@code translateJaegerVersionAttr}.
     */
    private static Resource resource(Process process) {
        if (process == null || process.getServiceName().equals(NO_SERVICE_NAME)
                || (process.getServiceName().isEmpty() && process.getTagsCount() == 0)) {
            return Resource.getDefaultInstance();
        }
        PdataMap attrs = new PdataMap();
        if (!process.getServiceName().isEmpty()) {
            attrs.put("service.name", string(process.getServiceName()));
        }
        putTags(process.getTagsList(), attrs);
        // translateHostnameAttr: hostname becomes host.name, value and type kept, unless host.name is there
        AnyValue hostname = attrs.get("hostname");
        if (hostname != null && attrs.get("host.name") == null) {
            attrs.put("host.name", hostname);
            attrs.remove("hostname");
        }
        // translateJaegerVersionAttr: jaeger.version becomes opencensus.exporterversion "Jaeger-<v>"
        // (v as Str(), "" unless a string), unless that key is there
        AnyValue version = attrs.get("jaeger.version");
        if (version != null && attrs.get("opencensus.exporterversion") == null) {
            attrs.put("opencensus.exporterversion", string("Jaeger-" + PdataMap.str(version)));
            attrs.remove("jaeger.version");
        }
        return Resource.newBuilder().addAllAttributes(attrs.toKeyValues()).build();
    }

    /**
     * {@code getScope}: the first tag {@code otel.scope.name} names the scope and is taken out of
     * {@code tags}; only then the first {@code otel.scope.version} gives its version, taken out too.
     * The value is the tag's {@code v_str} whatever its type ({@code GetVStr}); a later tag of the
     * same key stays an attribute. {@code otel.library.name} and {@code otel.library.version} are
     * not read here: they stay span attributes.
     */
    private static InstrumentationScope scope(List<KeyValue> tags) {
        InstrumentationScope.Builder scope = InstrumentationScope.newBuilder();
        String name = takeVStr(tags, "otel.scope.name");
        if (name != null) {
            scope.setName(name);
            String version = takeVStr(tags, "otel.scope.version");
            if (version != null) {
                scope.setVersion(version);
            }
        }
        return scope.build();
    }

    /** {@code getAndDeleteTag}. */
    private static String takeVStr(List<KeyValue> tags, String key) {
        for (int i = 0; i < tags.size(); i++) {
            if (tags.get(i).getKey().equals(key)) {
                return tags.remove(i).getVStr();
            }
        }
        return null;
    }

    /** {@code jSpanToInternal}, with {@code tags} what {@link #scope} left. */
    private static io.opentelemetry.proto.trace.v1.Span span(Span s, List<KeyValue> tags) {
        io.opentelemetry.proto.trace.v1.Span.Builder out = io.opentelemetry.proto.trace.v1.Span.newBuilder()
                .setName(s.getOperationName());
        long traceHigh = traceIdHigh(s.getTraceId());
        long traceLow = traceIdLow(s.getTraceId());
        setId(out::setTraceId, traceId(traceHigh, traceLow));
        setId(out::setSpanId, spanIdBytes(spanId(s.getSpanId())));
        // NewTimestampFromTime(StartTime) and (StartTime.Add(Duration)): Go's UnixNano, which wraps
        // around for times outside 1677-2262 (an absent start time is year 1)
        long start = unixNanos(s.hasStartTime() ? s.getStartTime() : null);
        out.setStartTimeUnixNano(start);
        out.setEndTimeUnixNano(start + durationNanos(s.getDuration()));
        // model.Span.ParentSpanID (jaeger-idl model/v1/span.go): the first CHILD_OF reference in the
        // span's own trace, else the first FOLLOWS_FROM in it; 0 is no parent
        long parent = parentSpanId(s, traceHigh, traceLow);
        setId(out::setParentSpanId, spanIdBytes(parent));

        PdataMap attrs = new PdataMap();
        putTags(tags, attrs);
        // span.kind, read as Str() and removed: the five lower-case names, else Unspecified
        AnyValue kindTag = attrs.get("span.kind");
        SpanKind kind = SpanKind.SPAN_KIND_UNSPECIFIED;
        if (kindTag != null) {
            kind = kind(PdataMap.str(kindTag));
            attrs.remove("span.kind");
        }
        out.setKind(kind);
        Status status = status(attrs, kind);
        if (status != null) {
            out.setStatus(status);
        }
        // getTraceStateFromAttrs: w3c.tracestate, as Str(), is the trace state and is removed
        AnyValue traceState = attrs.get("w3c.tracestate");
        if (traceState != null) {
            out.setTraceState(PdataMap.str(traceState));
            attrs.remove("w3c.tracestate");
        }
        out.addAllAttributes(attrs.toKeyValues());
        for (Log log : s.getLogsList()) {
            out.addEvents(event(log));
        }
        links(s.getReferencesList(), parent, out);
        return out.build();
    }

    /** {@code jSpanKindToInternal}: exact lower-case names only. */
    private static SpanKind kind(String tag) {
        switch (tag) {
            case "client":
                return SpanKind.SPAN_KIND_CLIENT;
            case "server":
                return SpanKind.SPAN_KIND_SERVER;
            case "producer":
                return SpanKind.SPAN_KIND_PRODUCER;
            case "consumer":
                return SpanKind.SPAN_KIND_CONSUMER;
            case "internal":
                return SpanKind.SPAN_KIND_INTERNAL;
            default:
                return SpanKind.SPAN_KIND_UNSPECIFIED;
        }
    }

    /**
     * {@code setInternalSpanStatus}, after the kind is set; null when it sets no status.
     *
     * <ol>
     *   <li>{@code error} that is a bool and true: Error, {@code error} removed; the message is
     *       {@code otel.status_description} (removed) or else {@code http.status_message} (kept).
     *       {@code error} of another type or false stays an attribute and decides nothing.
     *   <li>{@code otel.status_code} present: when the first step set nothing, its Str() upper-cased
     *       is {@code OK} (Ok), {@code ERROR} (Error) or anything else (Unset, but a status all the
     *       same), the message {@code otel.status_description} (removed) or "". It is removed in any
     *       case.
     *   <li>else, when nothing is set yet, {@code http.status_code} (an Int, or a decimal string;
     *       other types are ignored), both it and {@code http.status_message} kept: 4xx is Error for
     *       a client span and Unset for a server span; otherwise {@code
     *       tracetranslator.StatusCodeFromHTTP}: 100 to 398 Unset, anything else (399, 4xx of other
     *       kinds, 5xx, 0) Error, with {@code http.status_message} as the message. Unset sets nothing.
     * </ol>
     */
    private static Status status(PdataMap attrs, SpanKind kind) {
        StatusCode code = StatusCode.STATUS_CODE_UNSET;
        String message = "";
        boolean exists = false;
        AnyValue error = attrs.get("error");
        if (error != null && error.getValueCase() == AnyValue.ValueCase.BOOL_VALUE && error.getBoolValue()) {
            code = StatusCode.STATUS_CODE_ERROR;
            attrs.remove("error");
            exists = true;
            String description = takeDescription(attrs);
            if (description != null) {
                message = description;
            } else if (attrs.get("http.status_message") != null) {
                message = PdataMap.str(attrs.get("http.status_message"));
            }
        }
        AnyValue otelCode = attrs.get("otel.status_code");
        if (otelCode != null) {
            if (!exists) {
                exists = true;
                // strings.ToUpper, which maps no other character to an ASCII letter of these words
                switch (PdataMap.str(otelCode).toUpperCase(Locale.ROOT)) {
                    case "OK":
                        code = StatusCode.STATUS_CODE_OK;
                        break;
                    case "ERROR":
                        code = StatusCode.STATUS_CODE_ERROR;
                        break;
                    default:
                        break;
                }
                String description = takeDescription(attrs);
                if (description != null) {
                    message = description;
                }
            }
            attrs.remove("otel.status_code");
        } else if (!exists && attrs.get("http.status_code") != null) {
            Long http = httpStatus(attrs.get("http.status_code"));
            if (http != null) {
                StatusCode fromHttp = statusFromHttp(http, kind);
                if (fromHttp != StatusCode.STATUS_CODE_UNSET) {
                    exists = true;
                    code = fromHttp;
                }
                if (attrs.get("http.status_message") != null) {
                    message = PdataMap.str(attrs.get("http.status_message"));
                }
            }
        }
        return exists ? Status.newBuilder().setCode(code).setMessage(message).build() : null;
    }

    /** {@code extractStatusDescFromAttr}: otel.status_description as Str(), removed; null when absent. */
    private static String takeDescription(PdataMap attrs) {
        AnyValue v = attrs.get("otel.status_description");
        if (v == null) {
            return null;
        }
        attrs.remove("otel.status_description");
        return PdataMap.str(v);
    }

    /**
     * {@code codeFromAttr}: an Int as it is, a string by Go's {@code strconv.ParseInt(s, 10, 0)}
     * (ASCII digits after an optional sign, within int64); null for anything else.
     */
    private static Long httpStatus(AnyValue v) {
        if (v.getValueCase() == AnyValue.ValueCase.INT_VALUE) {
            return v.getIntValue();
        }
        if (v.getValueCase() != AnyValue.ValueCase.STRING_VALUE) {
            return null;
        }
        String s = v.getStringValue();
        int i = !s.isEmpty() && (s.charAt(0) == '+' || s.charAt(0) == '-') ? 1 : 0;
        if (i == s.length()) {
            return null;
        }
        for (int j = i; j < s.length(); j++) {
            if (s.charAt(j) < '0' || s.charAt(j) > '9') {
                return null; // Long.parseLong would take other scripts' digits too
            }
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException outOfRange) {
            return null;
        }
    }

    /** {@code getStatusCodeFromHTTPStatusAttr}. */
    private static StatusCode statusFromHttp(long code, SpanKind kind) {
        if (code >= 400 && code < 500) {
            if (kind == SpanKind.SPAN_KIND_CLIENT) {
                return StatusCode.STATUS_CODE_ERROR;
            }
            if (kind == SpanKind.SPAN_KIND_SERVER) {
                return StatusCode.STATUS_CODE_UNSET;
            }
        }
        return code >= 100 && code < 399 ? StatusCode.STATUS_CODE_UNSET : StatusCode.STATUS_CODE_ERROR;
    }

    /**
     * {@code jLogsToSpanEvents}: one event per log at the log's time; its fields typed as tags are
     * the attributes, less {@code event}, whose Str() is the event's name (no {@code event}: no
     * name; {@code message} is not used).
     */
    private static Event event(Log log) {
        Event.Builder event = Event.newBuilder().setTimeUnixNano(unixNanos(log.hasTimestamp() ? log.getTimestamp() : null));
        if (log.getFieldsCount() == 0) {
            return event.build();
        }
        PdataMap attrs = new PdataMap();
        putTags(log.getFieldsList(), attrs);
        AnyValue name = attrs.get("event");
        if (name != null) {
            event.setName(PdataMap.str(name));
            attrs.remove("event");
        }
        return event.addAllAttributes(attrs.toKeyValues()).build();
    }

    /**
     * {@code jReferencesToSpanLinks}: every reference but those of type CHILD_OF whose span id is
     * the parent's (whatever their trace), each with an empty trace state and the attribute {@code
     * opentracing.ref_type} ({@code child_of}, or {@code follows_from} for any other type). So a
     * FOLLOWS_FROM parent is a link too, and so is a CHILD_OF reference to another trace.
     */
    private static void links(List<SpanRef> refs, long parent, io.opentelemetry.proto.trace.v1.Span.Builder out) {
        for (SpanRef ref : refs) {
            long spanId = spanId(ref.getSpanId());
            boolean childOf = ref.getRefTypeValue() == JaegerModel.SpanRefType.CHILD_OF_VALUE;
            if (spanId == parent && childOf) {
                continue;
            }
            Link.Builder link = Link.newBuilder();
            setId(link::setTraceId, traceId(traceIdHigh(ref.getTraceId()), traceIdLow(ref.getTraceId())));
            setId(link::setSpanId, spanIdBytes(spanId));
            link.addAttributes(io.opentelemetry.proto.common.v1.KeyValue.newBuilder().setKey("opentracing.ref_type")
                    .setValue(string(childOf ? "child_of" : "follows_from")));
            out.addLinks(link);
        }
    }

    /** {@code model.Span.ParentSpanID}. */
    private static long parentSpanId(Span s, long traceHigh, long traceLow) {
        Long followsFrom = null;
        for (SpanRef ref : s.getReferencesList()) {
            if (traceIdHigh(ref.getTraceId()) != traceHigh || traceIdLow(ref.getTraceId()) != traceLow) {
                continue;
            }
            if (ref.getRefTypeValue() == JaegerModel.SpanRefType.CHILD_OF_VALUE) {
                return spanId(ref.getSpanId());
            }
            if (followsFrom == null && ref.getRefTypeValue() == JaegerModel.SpanRefType.FOLLOWS_FROM_VALUE) {
                followsFrom = spanId(ref.getSpanId());
            }
        }
        return followsFrom == null ? 0 : followsFrom;
    }

    /**
     * {@code jTagsToInternalAttributes}: STRING a string, BOOL a bool, INT64 an int, FLOAT64 a
     * double, BINARY bytes, any other type number N the string {@code <Unknown Jaeger TagType "N">};
     * a repeated key keeps its first place and its last value.
     */
    private static void putTags(List<KeyValue> tags, PdataMap attrs) {
        for (KeyValue tag : tags) {
            AnyValue.Builder v = AnyValue.newBuilder();
            switch (tag.getVTypeValue()) {
                case JaegerModel.ValueType.STRING_VALUE:
                    v.setStringValue(tag.getVStr());
                    break;
                case JaegerModel.ValueType.BOOL_VALUE:
                    v.setBoolValue(tag.getVBool());
                    break;
                case JaegerModel.ValueType.INT64_VALUE:
                    v.setIntValue(tag.getVInt64());
                    break;
                case JaegerModel.ValueType.FLOAT64_VALUE:
                    v.setDoubleValue(tag.getVFloat64());
                    break;
                case JaegerModel.ValueType.BINARY_VALUE:
                    v.setBytesValue(tag.getVBinary());
                    break;
                default:
                    // fmt's %q of the enum's String(), which is the number when it has no name
                    v.setStringValue("<Unknown Jaeger TagType \"" + tag.getVTypeValue() + "\">");
                    break;
            }
            attrs.put(tag.getKey(), v.build());
        }
    }

    private static AnyValue string(String s) {
        return AnyValue.newBuilder().setStringValue(s).build();
    }

    // ---- ids and times

    /** The high half of a jaeger-idl TraceID: the first 8 of 16 bytes, 0 for 8 bytes or none. */
    private static long traceIdHigh(ByteString id) {
        return id.size() == 16 ? bigEndian(id, 0) : 0;
    }

    /** The low half: the last 8 bytes. */
    private static long traceIdLow(ByteString id) {
        return id.size() == 16 ? bigEndian(id, 8) : id.size() == 8 ? bigEndian(id, 0) : 0;
    }

    private static long spanId(ByteString id) {
        return id.size() == 8 ? bigEndian(id, 0) : 0;
    }

    private static long bigEndian(ByteString b, int at) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = v << 8 | (b.byteAt(at + i) & 0xFF);
        }
        return v;
    }

    /** {@code idutils.UInt64ToTraceID}: high then low, big-endian. */
    private static ByteString traceId(long high, long low) {
        byte[] b = new byte[16];
        putBigEndian(b, 0, high);
        putBigEndian(b, 8, low);
        return ByteString.copyFrom(b);
    }

    private static ByteString spanIdBytes(long id) {
        byte[] b = new byte[8];
        putBigEndian(b, 0, id);
        return ByteString.copyFrom(b);
    }

    private static void putBigEndian(byte[] b, int at, long v) {
        for (int i = 7; i >= 0; i--) {
            b[at + i] = (byte) v;
            v >>>= 8;
        }
    }

    /** pdata writes an all-zero id as no id at all. */
    private static void setId(Consumer<ByteString> setter, ByteString id) {
        for (int i = 0; i < id.size(); i++) {
            if (id.byteAt(i) != 0) {
                setter.accept(id);
                return;
            }
        }
    }

    /**
     * Go's {@code time.Time.UnixNano} of a Jaeger time: seconds × 10^9 + nanos in int64 arithmetic,
     * which wraps around outside 1677–2262. An absent time is Go's zero time, 0001-01-01, whose
     * nanoseconds wrap to 11651379494838206464 as a uint64.
     */
    private static long unixNanos(Timestamp t) {
        return t == null ? GO_ZERO_TIME_SECONDS * NANOS : t.getSeconds() * NANOS + t.getNanos();
    }

    /** The checked duration in nanoseconds; 0 when absent. */
    private static long durationNanos(Duration d) {
        return d.getSeconds() * NANOS + d.getNanos();
    }
}
