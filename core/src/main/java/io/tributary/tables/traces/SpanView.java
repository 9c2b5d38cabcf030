package io.tributary.tables.traces;

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

import java.nio.charset.StandardCharsets;

/**
 * One row of {@code otel_traces} read where it lies in a protobuf record: a span's fields as
 * ranges and numbers, with its resource's and scope's, and writers of the column values with the
 * collector exporter's semantics (the same values the differential tests' oracle reads from
 * protobuf-java messages). Reused from span to span; see {@link TracesReader}.
 */
public final class SpanView {

    private static final byte[][] KINDS = bytes("Unspecified", "Internal", "Server", "Client", "Producer", "Consumer");
    private static final byte[][] STATUS = bytes("Unset", "Ok", "Error");

    private final WireValues values;
    private byte[] buf;
    // the resource
    final WireAttributes resourceAttributes;
    private final RowBinaryWriter serviceName = new RowBinaryWriter(64);
    // the scope
    final WireEnvelope.Scope scope = new WireEnvelope.Scope();
    // the span
    int traceIdStart;
    int traceIdLength;
    int spanIdStart;
    int spanIdLength;
    int parentSpanIdStart;
    int parentSpanIdLength;
    int traceStateStart;
    int traceStateLength;
    int nameStart;
    int nameLength;
    int kind;
    long start;
    long end;
    final WireAttributes spanAttributes;
    final IntList events = new IntList();
    final IntList links = new IntList();
    final IntList status = new IntList();
    ProtoReader spanReader;
    // events and links, read once per span when the first of their columns is written
    private boolean nestedRead;
    private int eventCount;
    private long[] eventTime = new long[4];
    private int[] eventName = new int[8];
    private WireAttributes[] eventAttributes = new WireAttributes[0];
    private int linkCount;
    private int[] linkIds = new int[16];
    private int[] linkTraceState = new int[8];
    private WireAttributes[] linkAttributes = new WireAttributes[0];
    private int statusMessageStart;
    private int statusMessageLength;
    private int statusCode;
    private boolean statusRead;
    private final IntList fieldRanges = new IntList();

    SpanView(WireValues values) {
        this.values = values;
        this.resourceAttributes = new WireAttributes(values, true);
        this.spanAttributes = new WireAttributes(values, false);
    }

    void setBuffer(byte[] buf) {
        this.buf = buf;
    }

    /** The resource's {@code service.name}, rendered once per resource. */
    void renderServiceName() throws InvalidProtobufException {
        serviceName.reset();
        resourceAttributes.writeValueOf(WireAttributes.SERVICE_NAME, serviceName);
    }

    /** Forgets the previous span's nested fields. */
    void newSpan(ProtoReader reader) {
        this.spanReader = reader;
        events.clear();
        links.clear();
        status.clear();
        nestedRead = false;
        statusRead = false;
        traceIdStart = spanIdStart = parentSpanIdStart = traceStateStart = nameStart = 0;
        traceIdLength = spanIdLength = parentSpanIdLength = traceStateLength = nameLength = 0;
        kind = 0;
        start = end = 0;
        spanAttributes.reset(reader);
    }

    /** Checks the span's ids: empty or of their size, as pdata requires. */
    void checkIds() {
        checkId(traceIdLength, Ids.TRACE_ID_BYTES, "traceId");
        checkId(spanIdLength, Ids.SPAN_ID_BYTES, "spanId");
        checkId(parentSpanIdLength, Ids.SPAN_ID_BYTES, "parentSpanId");
    }

    private static void checkId(int length, int expected, String field) {
        if (length != 0 && length != expected) {
            throw new InvalidOtlpException(field + " must be " + expected + " bytes, got " + length);
        }
    }

    // ---- column values (written by TracesSchema's columns)

    public long timestampNanos() {
        return start;
    }

    public long durationNanos() {
        return end - start;
    }

    public void writeTraceId(RowBinaryWriter out) {
        Hex.write(buf, traceIdStart, traceIdLength, out);
    }

    public void writeSpanId(RowBinaryWriter out) {
        Hex.write(buf, spanIdStart, spanIdLength, out);
    }

    public void writeParentSpanId(RowBinaryWriter out) {
        Hex.write(buf, parentSpanIdStart, parentSpanIdLength, out);
    }

    public void writeTraceState(RowBinaryWriter out) {
        WireValues.writeString(buf, traceStateStart, traceStateLength, out);
    }

    public void writeName(RowBinaryWriter out) {
        WireValues.writeString(buf, nameStart, nameLength, out);
    }

    public void writeKind(RowBinaryWriter out) {
        out.writeString(kind >= 0 && kind < KINDS.length ? KINDS[kind] : KINDS_NONE);
    }

    public void writeServiceName(RowBinaryWriter out) {
        out.writeRaw(serviceName.buffer(), 0, serviceName.size());
    }

    public AttributeValue resourceAttributes() {
        return resourceAttributes;
    }

    public void writeScopeName(RowBinaryWriter out) {
        WireValues.writeString(buf, scope.nameStart, scope.nameLength, out);
    }

    public void writeScopeVersion(RowBinaryWriter out) {
        WireValues.writeString(buf, scope.versionStart, scope.versionLength, out);
    }

    public AttributeValue spanAttributes() {
        return spanAttributes;
    }

    public void writeStatusCode(RowBinaryWriter out) {
        readStatus();
        out.writeString(statusCode >= 0 && statusCode < STATUS.length ? STATUS[statusCode] : KINDS_NONE);
    }

    public void writeStatusMessage(RowBinaryWriter out) {
        readStatus();
        WireValues.writeString(buf, statusMessageStart, statusMessageLength, out);
    }

    public int eventCount() {
        readNested();
        return eventCount;
    }

    public long eventTimestampNanos(int i) {
        return eventTime[i];
    }

    public void writeEventName(int i, RowBinaryWriter out) {
        WireValues.writeString(buf, eventName[2 * i], eventName[2 * i + 1], out);
    }

    public AttributeValue eventAttributes(int i) {
        return eventAttributes[i];
    }

    public int linkCount() {
        readNested();
        return linkCount;
    }

    public void writeLinkTraceId(int i, RowBinaryWriter out) {
        Hex.write(buf, linkIds[4 * i], linkIds[4 * i + 1], out);
    }

    public void writeLinkSpanId(int i, RowBinaryWriter out) {
        Hex.write(buf, linkIds[4 * i + 2], linkIds[4 * i + 3], out);
    }

    public void writeLinkTraceState(int i, RowBinaryWriter out) {
        WireValues.writeString(buf, linkTraceState[2 * i], linkTraceState[2 * i + 1], out);
    }

    public AttributeValue linkAttributes(int i) {
        return linkAttributes[i];
    }

    private static final byte[] KINDS_NONE = new byte[0];


    private void readStatus() {
        if (statusRead) {
            return;
        }
        statusRead = true;
        statusMessageStart = statusMessageLength = 0;
        statusCode = 0;
        for (int k = 0; k < status.size(); k += 2) {
            ProtoReader r = spanReader.child(status.get(k), status.get(k + 1));
            while (r.next()) {
                if (r.is(2, ProtoReader.LEN)) {
                    r.readBytes();
                    statusMessageStart = r.start();
                    statusMessageLength = r.length();
                } else if (r.is(3, ProtoReader.VARINT)) {
                    statusCode = (int) r.readVarint();
                } else {
                    r.skip();
                }
            }
        }
    }

    /** Reads the span's events and links once, into arrays the nested columns index. */
    private void readNested() {
        if (nestedRead) {
            return;
        }
        nestedRead = true;
        eventCount = events.size() / 2;
        if (eventTime.length < eventCount) {
            eventTime = new long[eventCount * 2];
            eventName = new int[eventCount * 4];
        }
        eventAttributes = grow(eventAttributes, eventCount);
        for (int i = 0; i < eventCount; i++) {
            ProtoReader r = spanReader.child(events.get(2 * i), events.get(2 * i + 1));
            WireAttributes a = eventAttributes[i];
            a.reset(r);
            long time = 0;
            int ns = 0;
            int nl = 0;
            while (r.next()) {
                if (r.is(1, ProtoReader.I64)) {
                    time = r.readFixed64();
                } else if (r.is(2, ProtoReader.LEN)) {
                    r.readBytes();
                    ns = r.start();
                    nl = r.length();
                } else if (r.is(3, ProtoReader.LEN)) {
                    r.readBytes();
                    a.add(r.start(), r.length());
                } else {
                    r.skip();
                }
            }
            eventTime[i] = time;
            eventName[2 * i] = ns;
            eventName[2 * i + 1] = nl;
        }
        linkCount = links.size() / 2;
        if (linkTraceState.length < 2 * linkCount) {
            linkIds = new int[linkCount * 8];
            linkTraceState = new int[linkCount * 4];
        }
        linkAttributes = grow(linkAttributes, linkCount);
        for (int i = 0; i < linkCount; i++) {
            ProtoReader r = spanReader.child(links.get(2 * i), links.get(2 * i + 1));
            WireAttributes a = linkAttributes[i];
            a.reset(r);
            int ts = 0;
            int tl = 0;
            int ss = 0;
            int sl = 0;
            int ss2 = 0;
            int sl2 = 0;
            while (r.next()) {
                if (r.is(1, ProtoReader.LEN)) {
                    r.readBytes();
                    ts = r.start();
                    tl = r.length();
                } else if (r.is(2, ProtoReader.LEN)) {
                    r.readBytes();
                    ss = r.start();
                    sl = r.length();
                } else if (r.is(3, ProtoReader.LEN)) {
                    r.readBytes();
                    ss2 = r.start();
                    sl2 = r.length();
                } else if (r.is(4, ProtoReader.LEN)) {
                    r.readBytes();
                    a.add(r.start(), r.length());
                } else {
                    r.skip();
                }
            }
            checkId(tl, Ids.TRACE_ID_BYTES, "links.traceId");
            checkId(sl, Ids.SPAN_ID_BYTES, "links.spanId");
            linkIds[4 * i] = ts;
            linkIds[4 * i + 1] = tl;
            linkIds[4 * i + 2] = ss;
            linkIds[4 * i + 3] = sl;
            linkTraceState[2 * i] = ss2;
            linkTraceState[2 * i + 1] = sl2;
        }
    }

    /**
     * Gives back the arrays of events and links after a record that needed many (a hostile span
     * may hold a million empty events in 2 MB): a reused view must not keep them.
     */
    void release() {
        if (eventAttributes.length > RETAINED) {
            eventAttributes = new WireAttributes[0];
            eventTime = new long[4];
            eventName = new int[8];
        }
        if (linkAttributes.length > RETAINED) {
            linkAttributes = new WireAttributes[0];
            linkIds = new int[16];
            linkTraceState = new int[8];
        }
    }

    private static final int RETAINED = 64;

    private WireAttributes[] grow(WireAttributes[] a, int n) {
        if (a.length >= n) {
            return a;
        }
        WireAttributes[] b = java.util.Arrays.copyOf(a, Math.max(n, a.length * 2));
        for (int i = a.length; i < b.length; i++) {
            b[i] = new WireAttributes(values, false);
        }
        return b;
    }

    private static byte[][] bytes(String... s) {
        byte[][] out = new byte[s.length][];
        for (int i = 0; i < s.length; i++) {
            out[i] = s[i].getBytes(StandardCharsets.US_ASCII);
        }
        return out;
    }
}
