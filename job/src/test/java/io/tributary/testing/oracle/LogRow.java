package io.tributary.testing.oracle;

import io.opentelemetry.proto.logs.v1.LogRecord;
import io.tributary.tables.AnyValues;
import io.tributary.tables.Attributes;
import io.tributary.tables.Hex;

/**
 * The oracle's row of {@code otel_logs}: a view over a protobuf-java log record with its resource
 * and scope, holding the values with the collector exporter's semantics, as the job wrote them
 * before it read the wire format itself. Reused from record to record.
 */
public final class LogRow {

    // Set once per resource.
    private Attributes resourceAttributes = new Attributes(0);
    private String serviceName = "";
    private String resourceSchemaUrl = "";
    // Set once per scope.
    private Attributes scopeAttributes = new Attributes(0);
    private String scopeName = "";
    private String scopeVersion = "";
    private String scopeSchemaUrl = "";
    // Set per record.
    private LogRecord record = LogRecord.getDefaultInstance();
    private String traceId = "";
    private String spanId = "";
    private final Attributes logAttributes = new Attributes(16);

    void setResource(Attributes attributes, String serviceName, String schemaUrl) {
        this.resourceAttributes = attributes;
        this.serviceName = serviceName;
        this.resourceSchemaUrl = schemaUrl;
    }

    void setScope(Attributes attributes, String name, String version, String schemaUrl) {
        this.scopeAttributes = attributes;
        this.scopeName = name;
        this.scopeVersion = version;
        this.scopeSchemaUrl = schemaUrl;
    }

    void setRecord(LogRecord r) {
        this.record = r;
        this.traceId = Hex.idOrEmpty(r.getTraceId(), Hex.TRACE_ID_BYTES, "traceId");
        this.spanId = Hex.idOrEmpty(r.getSpanId(), Hex.SPAN_ID_BYTES, "spanId");
        logAttributes.set(r.getAttributesList());
    }

    /** The record's time, or its observed time when the time is 0 (as the exporter does). */
    public long timestampNanos() {
        long t = record.getTimeUnixNano();
        return t != 0 ? t : record.getObservedTimeUnixNano();
    }

    public String traceId() {
        return traceId;
    }

    public String spanId() {
        return spanId;
    }

    /** The low 8 bits of the record's flags ({@code uint8(r.Flags())}). */
    public int traceFlags() {
        return record.getFlags() & 0xFF;
    }

    public String severityText() {
        return record.getSeverityText();
    }

    /** The severity number's low 8 bits ({@code uint8(r.SeverityNumber())}). */
    public int severityNumber() {
        return record.getSeverityNumberValue() & 0xFF;
    }

    public String serviceName() {
        return serviceName;
    }

    /** The body rendered by {@code AsString}: a map or array body becomes JSON. */
    public String body() {
        return AnyValues.asString(record.getBody());
    }

    public String resourceSchemaUrl() {
        return resourceSchemaUrl;
    }

    public Attributes resourceAttributes() {
        return resourceAttributes;
    }

    public String scopeSchemaUrl() {
        return scopeSchemaUrl;
    }

    public String scopeName() {
        return scopeName;
    }

    public String scopeVersion() {
        return scopeVersion;
    }

    public Attributes scopeAttributes() {
        return scopeAttributes;
    }

    public Attributes logAttributes() {
        return logAttributes;
    }

    public String eventName() {
        return record.getEventName();
    }
}
