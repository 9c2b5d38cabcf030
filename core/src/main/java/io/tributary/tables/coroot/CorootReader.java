package io.tributary.tables.coroot;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.schema.TableLayout;
import io.tributary.tables.Hex;
import io.tributary.tables.OtelTable;
import io.tributary.tables.RecordRows;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * OTLP traces and logs records into Coroot's {@code otel_traces} and {@code otel_logs} rows, as
 * Coroot's own collector makes them from an export request ({@code collector/traces.go}, {@code
 * collector/logs.go} and {@code collector/utils.go} in coroot/coroot at 370a33f):
 *
 * <ul>
 *   <li>{@code SpanKind} and {@code StatusCode} are the proto enum names ({@code SPAN_KIND_SERVER},
 *       {@code STATUS_CODE_ERROR}; {@code STATUS_CODE_UNSET} without a status), a number Go's enum
 *       does not know as its decimal text;
 *   <li>{@code Timestamp} is the span's start, {@code Duration} end minus start as Int64;
 *   <li>the scope's name and version, when not empty, are the span's or record's attributes {@code
 *       otel.scope.name} and {@code otel.scope.version} (replacing attributes of those keys);
 *   <li>{@code ServiceName} is the text of the resource's last {@code service.name} attribute, "" without one;
 *   <li>attribute values as {@link CorootValues} renders them; the last value of a repeated key wins;
 *   <li>a log record's {@code Timestamp} is its {@code time_unix_nano} (not the observed time); a
 *       record whose time is negative as an Int64 is left out; {@code Body} is the body's string
 *       value, "" for a body of another kind; {@code SeverityNumber} and {@code TraceFlags} as sent.
 * </ul>
 *
 * <p>Ids are lowercase hex, as pdata holds them on the Collector's Kafka path this job reads: ""
 * for an absent or all-zero id, and an id of another length makes the record a dead letter (Coroot's
 * collector, which reads raw protos, would store "00…" for an all-zero id). A record protobuf-java
 * cannot parse is a dead letter.
 *
 * <p>A string field that is not valid UTF-8 makes the record a dead letter (protobuf-java refuses
 * it, as Coroot's Go protobuf refuses the request); bytes values are stored raw, as Coroot stores
 * them. All text a record renders, and each span, event, link and key-value, counts against its
 * bytes bound ({@link CorootValues}) before its arrays are made.
 *
 * <p>Unlike the exporter flavours' wire readers, this builds protobuf-java messages: the flavour
 * is opt-in and its rows differ in every attribute map. Not thread-safe: one per task.
 */
public final class CorootReader {

    private static final byte[][] KINDS = ascii("SPAN_KIND_UNSPECIFIED", "SPAN_KIND_INTERNAL", "SPAN_KIND_SERVER",
            "SPAN_KIND_CLIENT", "SPAN_KIND_PRODUCER", "SPAN_KIND_CONSUMER");
    private static final byte[][] STATUS = ascii("STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR");
    private static final ByteString SCOPE_NAME = ByteString.copyFromUtf8("otel.scope.name");
    private static final ByteString SCOPE_VERSION = ByteString.copyFromUtf8("otel.scope.version");
    private static final ByteString SERVICE_NAME = ByteString.copyFromUtf8("service.name");
    private static final byte[] EMPTY = new byte[0];

    private final TableLayout<CorootSpan> spans;
    private final TableLayout<CorootLog> logs;
    private final CorootSpan span = new CorootSpan();
    private final CorootLog log = new CorootLog();

    /**
     * @param spans how {@code otel_traces} is written, or null when traces do not run
     * @param logs how {@code otel_logs} is written, or null when logs do not run
     */
    public CorootReader(TableLayout<CorootSpan> spans, TableLayout<CorootLog> logs) {
        this.spans = spans;
        this.logs = logs;
    }

    /** Appends a row per span of the traces request in {@code value}. */
    public void traces(byte[] value, RecordRows rows) throws InvalidProtocolBufferException {
        ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(value);
        RowBinaryWriter out = rows.writer(OtelTable.TRACES);
        CorootSpan s = span;
        CorootValues values = values(rows);
        for (ResourceSpans rs : request.getResourceSpansList()) {
            Map<ByteString, byte[]> resource = values.toMap(rs.getResource().getAttributesList());
            CorootAttributes resourceAttributes = new CorootAttributes(resource);
            byte[] serviceName = orEmpty(resource.get(SERVICE_NAME));
            for (ScopeSpans ss : rs.getScopeSpansList()) {
                values.items(ss.getSpansCount());
                for (Span sp : ss.getSpansList()) {
                    s.timestamp = sp.getStartTimeUnixNano();
                    s.traceId = id(sp.getTraceId(), Hex.TRACE_ID_BYTES, "traceId");
                    s.spanId = id(sp.getSpanId(), Hex.SPAN_ID_BYTES, "spanId");
                    s.parentSpanId = id(sp.getParentSpanId(), Hex.SPAN_ID_BYTES, "parentSpanId");
                    s.traceState = values.text(sp.getTraceStateBytes());
                    s.name = values.text(sp.getNameBytes());
                    s.kind = enumName(KINDS, sp.getKindValue());
                    s.serviceName = serviceName;
                    s.resourceAttributes = resourceAttributes;
                    s.spanAttributes = new CorootAttributes(withScope(values, values.toMap(sp.getAttributesList()), ss.getScope()));
                    s.duration = sp.getEndTimeUnixNano() - sp.getStartTimeUnixNano();
                    s.statusCode = enumName(STATUS, sp.getStatus().getCodeValue());
                    s.statusMessage = values.text(sp.getStatus().getMessageBytes());
                    int ne = sp.getEventsCount();
                    int nl = sp.getLinksCount();
                    values.items(ne + (long) nl);
                    s.eventTimes = new long[ne];
                    s.eventNames = new byte[ne][];
                    s.eventAttributes = new CorootAttributes[ne];
                    for (int i = 0; i < ne; i++) {
                        Span.Event e = sp.getEvents(i);
                        s.eventTimes[i] = e.getTimeUnixNano();
                        s.eventNames[i] = values.text(e.getNameBytes());
                        s.eventAttributes[i] = attributes(values, e.getAttributesList());
                    }
                    s.linkTraceIds = new byte[nl][];
                    s.linkSpanIds = new byte[nl][];
                    s.linkTraceStates = new byte[nl][];
                    s.linkAttributes = new CorootAttributes[nl];
                    for (int i = 0; i < nl; i++) {
                        Span.Link l = sp.getLinks(i);
                        s.linkTraceIds[i] = id(l.getTraceId(), Hex.TRACE_ID_BYTES, "links.traceId");
                        s.linkSpanIds[i] = id(l.getSpanId(), Hex.SPAN_ID_BYTES, "links.spanId");
                        s.linkTraceStates[i] = values.text(l.getTraceStateBytes());
                        s.linkAttributes[i] = attributes(values, l.getAttributesList());
                    }
                    spans.writeRow(s, out);
                    rows.rowAdded(OtelTable.TRACES);
                }
            }
        }
    }

    /** Appends a row per log record of the logs request in {@code value} whose time is not negative. */
    public void logs(byte[] value, RecordRows rows) throws InvalidProtocolBufferException {
        ExportLogsServiceRequest request = ExportLogsServiceRequest.parseFrom(value);
        RowBinaryWriter out = rows.writer(OtelTable.LOGS);
        CorootLog l = log;
        CorootValues values = values(rows);
        for (ResourceLogs rl : request.getResourceLogsList()) {
            Map<ByteString, byte[]> resource = values.toMap(rl.getResource().getAttributesList());
            CorootAttributes resourceAttributes = new CorootAttributes(resource);
            byte[] serviceName = orEmpty(resource.get(SERVICE_NAME));
            for (ScopeLogs sl : rl.getScopeLogsList()) {
                values.items(sl.getLogRecordsCount());
                for (LogRecord r : sl.getLogRecordsList()) {
                    if (r.getTimeUnixNano() < 0) {
                        continue; // collector/logs.go: int64(lr.GetTimeUnixNano()) < 0
                    }
                    l.timestamp = r.getTimeUnixNano();
                    l.traceId = id(r.getTraceId(), Hex.TRACE_ID_BYTES, "traceId");
                    l.spanId = id(r.getSpanId(), Hex.SPAN_ID_BYTES, "spanId");
                    l.traceFlags = r.getFlags();
                    l.severityText = values.text(r.getSeverityTextBytes());
                    l.severityNumber = r.getSeverityNumberValue();
                    l.serviceName = serviceName;
                    l.body = r.getBody().hasStringValue() ? values.text(r.getBody().getStringValueBytes()) : EMPTY;
                    l.resourceAttributes = resourceAttributes;
                    l.logAttributes = new CorootAttributes(withScope(values, values.toMap(r.getAttributesList()), sl.getScope()));
                    logs.writeRow(l, out);
                    rows.rowAdded(OtelTable.LOGS);
                }
            }
        }
    }

    /** Text rendering for one record, bounded by what the record may still render. */
    private static CorootValues values(RecordRows rows) {
        return new CorootValues(rows.bytesLeft(), rows::overBytes);
    }

    /** An event's or link's attributes: most have none, and share one empty value. */
    private static CorootAttributes attributes(CorootValues values, List<KeyValue> kvs) {
        return kvs.isEmpty() ? CorootAttributes.EMPTY : new CorootAttributes(values.toMap(kvs));
    }

    private static Map<ByteString, byte[]> withScope(CorootValues values, Map<ByteString, byte[]> attributes,
            InstrumentationScope scope) {
        if (!scope.getNameBytes().isEmpty()) {
            attributes.put(SCOPE_NAME, values.text(scope.getNameBytes()));
        }
        if (!scope.getVersionBytes().isEmpty()) {
            attributes.put(SCOPE_VERSION, values.text(scope.getVersionBytes()));
        }
        return attributes;
    }

    /** Go's {@code String()} of a proto enum: its name, or the number's decimal text for one it does not know. */
    private static byte[] enumName(byte[][] names, int number) {
        return number >= 0 && number < names.length ? names[number]
                : Integer.toString(number).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[][] ascii(String... s) {
        byte[][] out = new byte[s.length][];
        for (int i = 0; i < s.length; i++) {
            out[i] = s[i].getBytes(StandardCharsets.US_ASCII);
        }
        return out;
    }

    private static byte[] id(ByteString id, int length, String field) {
        return Hex.idOrEmpty(id, length, field).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] orEmpty(byte[] b) {
        return b == null ? EMPTY : b;
    }
}
