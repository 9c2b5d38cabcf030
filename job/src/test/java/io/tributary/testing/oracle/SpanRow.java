package io.tributary.testing.oracle;

import io.tributary.tables.Attributes;
import io.tributary.tables.Hex;
import io.tributary.tables.traces.SpanKinds;

import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;

/**
 * The oracle of the wire path: one row of {@code otel_traces} over a protobuf-java span, as the job
 * wrote it before it read the wire format itself (release 0.1 to 0.2). Kept to check, byte for byte,
 * that {@code SpanView} writes the same rows.
 */
public final class SpanRow {

    // Set once per resource.
    private Attributes resourceAttributes = new Attributes(0);
    private String serviceName = "";
    // Set once per scope.
    private String scopeName = "";
    private String scopeVersion = "";
    // Set per span.
    private Span span = Span.getDefaultInstance();
    private String traceId = "";
    private String spanId = "";
    private String parentSpanId = "";
    private final Attributes spanAttributes = new Attributes(16);
    private final Attributes scratch = new Attributes(8);

    public void setResource(Attributes attributes, String serviceName) {
        this.resourceAttributes = attributes;
        this.serviceName = serviceName;
    }

    public void setScope(String name, String version) {
        this.scopeName = name;
        this.scopeVersion = version;
    }

    public void setSpan(Span span) {
        this.span = span;
        this.traceId = Hex.idOrEmpty(span.getTraceId(), Hex.TRACE_ID_BYTES, "traceId");
        this.spanId = Hex.idOrEmpty(span.getSpanId(), Hex.SPAN_ID_BYTES, "spanId");
        this.parentSpanId = Hex.idOrEmpty(span.getParentSpanId(), Hex.SPAN_ID_BYTES, "parentSpanId");
        spanAttributes.set(span.getAttributesList());
    }

    /** Span start, nanoseconds since the epoch. */
    public long timestampNanos() {
        return span.getStartTimeUnixNano();
    }

    public String traceId() {
        return traceId;
    }

    public String spanId() {
        return spanId;
    }

    public String parentSpanId() {
        return parentSpanId;
    }

    public String traceState() {
        return span.getTraceState();
    }

    public String spanName() {
        return span.getName();
    }

    public String spanKind() {
        return SpanKinds.name(span.getKindValue());
    }

    public String serviceName() {
        return serviceName;
    }

    public Attributes resourceAttributes() {
        return resourceAttributes;
    }

    public String scopeName() {
        return scopeName;
    }

    public String scopeVersion() {
        return scopeVersion;
    }

    public Attributes spanAttributes() {
        return spanAttributes;
    }

    /** End minus start in nanoseconds; written to a UInt64 column. */
    public long durationNanos() {
        return span.getEndTimeUnixNano() - span.getStartTimeUnixNano();
    }

    public String statusCode() {
        return SpanKinds.statusCode(span.hasStatus() ? span.getStatus().getCodeValue() : 0);
    }

    public String statusMessage() {
        Status status = span.getStatus();
        return status.getMessage();
    }

    public int eventCount() {
        return span.getEventsCount();
    }

    public long eventTimestampNanos(int i) {
        return span.getEvents(i).getTimeUnixNano();
    }

    public String eventName(int i) {
        return span.getEvents(i).getName();
    }

    /** The attributes of event {@code i}; valid until the next call of an attributes accessor. */
    public Attributes eventAttributes(int i) {
        scratch.set(span.getEvents(i).getAttributesList());
        return scratch;
    }

    public int linkCount() {
        return span.getLinksCount();
    }

    public String linkTraceId(int i) {
        return Hex.idOrEmpty(span.getLinks(i).getTraceId(), Hex.TRACE_ID_BYTES, "links.traceId");
    }

    public String linkSpanId(int i) {
        return Hex.idOrEmpty(span.getLinks(i).getSpanId(), Hex.SPAN_ID_BYTES, "links.spanId");
    }

    public String linkTraceState(int i) {
        return span.getLinks(i).getTraceState();
    }

    /** The attributes of link {@code i}; valid until the next call of an attributes accessor. */
    public Attributes linkAttributes(int i) {
        scratch.set(span.getLinks(i).getAttributesList());
        return scratch;
    }
}
