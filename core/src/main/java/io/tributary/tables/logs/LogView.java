package io.tributary.tables.logs;

import io.tributary.otlp.Ids;
import io.tributary.otlp.InvalidOtlpException;
import io.tributary.otlp.InvalidProtobufException;
import io.tributary.otlp.proto.ProtoReader;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.schema.AttributeValue;
import io.tributary.tables.Hex;
import io.tributary.tables.WireAttributes;
import io.tributary.tables.WireEnvelope;
import io.tributary.tables.WireValues.IntList;
import io.tributary.tables.WireValues;

/**
 * One row of {@code otel_logs} read where it lies in a protobuf record: a log record's fields as
 * ranges and numbers, with its resource's and scope's, and writers of the column values with the
 * collector exporter's semantics. Reused from record to record; see {@link LogsReader}.
 */
public final class LogView {

    private final WireValues values;
    private byte[] buf;
    // the resource
    final WireAttributes resourceAttributes;
    private final RowBinaryWriter serviceName = new RowBinaryWriter(64);
    int resourceSchemaUrlStart;
    int resourceSchemaUrlLength;
    // the scope
    final WireAttributes scopeAttributes;
    final WireEnvelope.Scope scope = new WireEnvelope.Scope();
    int scopeSchemaUrlStart;
    int scopeSchemaUrlLength;
    // the log record
    long time;
    long observedTime;
    int severityNumber;
    int severityTextStart;
    int severityTextLength;
    final IntList body = new IntList();
    final WireAttributes logAttributes;
    int flags;
    int traceIdStart;
    int traceIdLength;
    int spanIdStart;
    int spanIdLength;
    int eventNameStart;
    int eventNameLength;
    private ProtoReader recordReader;

    LogView(WireValues values) {
        this.values = values;
        this.resourceAttributes = new WireAttributes(values, true);
        this.scopeAttributes = new WireAttributes(values, true);
        this.logAttributes = new WireAttributes(values, false);
    }

    void setBuffer(byte[] buf) {
        this.buf = buf;
    }

    /** The resource's {@code service.name}, rendered once per resource. */
    void renderServiceName() throws InvalidProtobufException {
        serviceName.reset();
        resourceAttributes.writeValueOf(WireAttributes.SERVICE_NAME, serviceName);
    }

    /** Forgets the previous record's fields. */
    void newRecord(ProtoReader reader) {
        this.recordReader = reader;
        time = observedTime = 0;
        severityNumber = flags = 0;
        severityTextStart = severityTextLength = 0;
        traceIdStart = traceIdLength = spanIdStart = spanIdLength = 0;
        eventNameStart = eventNameLength = 0;
        body.clear();
        logAttributes.reset(reader);
    }

    /** Checks the record's ids: empty or of their size, as pdata requires. */
    void checkIds() {
        checkId(traceIdLength, Ids.TRACE_ID_BYTES, "traceId");
        checkId(spanIdLength, Ids.SPAN_ID_BYTES, "spanId");
    }

    private static void checkId(int length, int expected, String field) {
        if (length != 0 && length != expected) {
            throw new InvalidOtlpException(field + " must be " + expected + " bytes, got " + length);
        }
    }

    // ---- column values (written by LogsSchema's columns)

    /** The record's time, or its observed time when the time is 0 (as the exporter does). */
    public long timestampNanos() {
        return time != 0 ? time : observedTime;
    }

    public void writeTraceId(RowBinaryWriter out) {
        Hex.write(buf, traceIdStart, traceIdLength, out);
    }

    public void writeSpanId(RowBinaryWriter out) {
        Hex.write(buf, spanIdStart, spanIdLength, out);
    }

    /** The low 8 bits of the record's flags ({@code uint8(r.Flags())}). */
    public int traceFlags() {
        return flags & 0xFF;
    }

    public void writeSeverityText(RowBinaryWriter out) {
        WireValues.writeString(buf, severityTextStart, severityTextLength, out);
    }

    /** The severity number's low 8 bits ({@code uint8(r.SeverityNumber())}). */
    public int severityNumber() {
        return severityNumber & 0xFF;
    }

    public void writeServiceName(RowBinaryWriter out) {
        out.writeRaw(serviceName.buffer(), 0, serviceName.size());
    }

    /** The body rendered by {@code AsString}: a map or array body becomes JSON. */
    public void writeBody(RowBinaryWriter out) {
        values.writeAsString(recordReader, body, out);
    }

    public void writeResourceSchemaUrl(RowBinaryWriter out) {
        WireValues.writeString(buf, resourceSchemaUrlStart, resourceSchemaUrlLength, out);
    }

    public AttributeValue resourceAttributes() {
        return resourceAttributes;
    }

    public void writeScopeSchemaUrl(RowBinaryWriter out) {
        WireValues.writeString(buf, scopeSchemaUrlStart, scopeSchemaUrlLength, out);
    }

    public void writeScopeName(RowBinaryWriter out) {
        WireValues.writeString(buf, scope.nameStart, scope.nameLength, out);
    }

    public void writeScopeVersion(RowBinaryWriter out) {
        WireValues.writeString(buf, scope.versionStart, scope.versionLength, out);
    }

    public AttributeValue scopeAttributes() {
        return scopeAttributes;
    }

    public AttributeValue logAttributes() {
        return logAttributes;
    }

    public void writeEventName(RowBinaryWriter out) {
        WireValues.writeString(buf, eventNameStart, eventNameLength, out);
    }
}
