package io.tributary.tables.traces;

import io.tributary.otlp.InvalidProtobufException;
import io.tributary.otlp.proto.ProtoReader;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.schema.TableLayout;
import io.tributary.tables.OtelTable;
import io.tributary.tables.RecordRows;
import io.tributary.tables.WireEnvelope;
import io.tributary.tables.WireValues.IntList;
import io.tributary.tables.WireValues;

/**
 * Turns an OTLP traces record ({@code ExportTraceServiceRequest} or {@code TracesData}, protobuf)
 * into {@code otel_traces} rows in RowBinary without building protobuf messages: it walks the wire
 * format with {@link ProtoReader}s and writes each column from where its value lies. Field order,
 * repeated occurrences of singular fields (the last value wins, messages merge), unknown fields,
 * invalid UTF-8 and errors are treated as protobuf-java treats them, so the rows are the bytes an
 * object path over protobuf-java messages writes (the differential tests hold it to one, the test
 * oracle {@code io.tributary.testing.oracle.OracleTraces}). Not thread-safe: one per task.
 */
public final class TracesReader {

    private final TableLayout<SpanView> layout;
    private final ProtoReader root = new ProtoReader();
    private final SpanView view;
    private final IntList resources = new IntList();
    private final IntList scopeSpans = new IntList();
    private final IntList scopes = new IntList();
    private final IntList spans = new IntList();

    /** @param layout how the spans table is written */
    public TracesReader(TableLayout<SpanView> layout) {
        this.layout = layout;
        this.view = new SpanView(new WireValues());
    }

    /**
     * Appends one row per span of the record in {@code value} to {@code rows}; returns the number
     * of rows. When it throws, {@code rows} may hold partial rows: the caller discards them.
     */
    public int transcode(byte[] value, RecordRows rows) throws InvalidProtobufException {
        RowBinaryWriter out = rows.writer(OtelTable.TRACES);
        view.setBuffer(value);
        ProtoReader r0 = root.reset(value, 0, value.length);
        int n = 0;
        try {
            while (r0.next()) {
                if (r0.is(1, ProtoReader.LEN)) {
                    r0.readBytes();
                    n += resourceSpans(r0.child(), out, rows);
                } else {
                    r0.skip();
                }
            }
        } finally {
            view.release();
        }
        return n;
    }

    private int resourceSpans(ProtoReader r1, RowBinaryWriter out, RecordRows rows) throws InvalidProtobufException {
        resources.clear();
        scopeSpans.clear();
        while (r1.next()) {
            if (r1.is(1, ProtoReader.LEN)) {
                r1.readBytes();
                resources.add(r1.start(), r1.length());
            } else if (r1.is(2, ProtoReader.LEN)) {
                r1.readBytes();
                scopeSpans.add(r1.start(), r1.length());
            } else {
                r1.skip();
            }
        }
        WireEnvelope.resource(r1, resources, view.resourceAttributes);
        view.renderServiceName();
        int n = 0;
        for (int i = 0; i < scopeSpans.size(); i += 2) {
            n += scopeSpans(r1.child(scopeSpans.get(i), scopeSpans.get(i + 1)), out, rows);
        }
        return n;
    }

    private int scopeSpans(ProtoReader r2, RowBinaryWriter out, RecordRows rows) throws InvalidProtobufException {
        scopes.clear();
        spans.clear();
        while (r2.next()) {
            if (r2.is(1, ProtoReader.LEN)) {
                r2.readBytes();
                scopes.add(r2.start(), r2.length());
            } else if (r2.is(2, ProtoReader.LEN)) {
                r2.readBytes();
                spans.add(r2.start(), r2.length());
            } else {
                r2.skip();
            }
        }
        WireEnvelope.scope(r2, scopes, view.scope, null); // scope attributes: not a traces column
        for (int i = 0; i < spans.size(); i += 2) {
            span(r2.child(spans.get(i), spans.get(i + 1)));
            layout.writeRow(view, out);
            rows.rowAdded(OtelTable.TRACES);
        }
        return spans.size() / 2;
    }

    private void span(ProtoReader r) throws InvalidProtobufException {
        SpanView v = view;
        v.newSpan(r);
        while (r.next()) {
            switch (r.field()) {
                case 1:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        v.traceIdStart = r.start();
                        v.traceIdLength = r.length();
                        continue;
                    }
                    break;
                case 2:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        v.spanIdStart = r.start();
                        v.spanIdLength = r.length();
                        continue;
                    }
                    break;
                case 3:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        v.traceStateStart = r.start();
                        v.traceStateLength = r.length();
                        continue;
                    }
                    break;
                case 4:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        v.parentSpanIdStart = r.start();
                        v.parentSpanIdLength = r.length();
                        continue;
                    }
                    break;
                case 5:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        v.nameStart = r.start();
                        v.nameLength = r.length();
                        continue;
                    }
                    break;
                case 6:
                    if (r.wireType() == ProtoReader.VARINT) {
                        v.kind = (int) r.readVarint();
                        continue;
                    }
                    break;
                case 7:
                    if (r.wireType() == ProtoReader.I64) {
                        v.start = r.readFixed64();
                        continue;
                    }
                    break;
                case 8:
                    if (r.wireType() == ProtoReader.I64) {
                        v.end = r.readFixed64();
                        continue;
                    }
                    break;
                case 9:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        v.spanAttributes.add(r.start(), r.length());
                        continue;
                    }
                    break;
                case 11:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        v.events.add(r.start(), r.length());
                        continue;
                    }
                    break;
                case 13:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        v.links.add(r.start(), r.length());
                        continue;
                    }
                    break;
                case 15:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        v.status.add(r.start(), r.length());
                        continue;
                    }
                    break;
                default:
                    break;
            }
            r.skip();
        }
        v.checkIds();
    }
}
