package io.tributary.tables;

import io.tributary.otlp.InvalidProtobufException;
import io.tributary.otlp.ProtoReader;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.tables.WireValues.IntList;

/**
 * Turns an OTLP logs record ({@code ExportLogsServiceRequest} or {@code LogsData}, protobuf) into
 * {@code otel_logs} rows in RowBinary without building protobuf messages, as {@link WireTraces}
 * does for spans: the same rows as protobuf-java parsing and the exporter's semantics give, the
 * same failures. Not thread-safe: one per task.
 */
public final class WireLogs {

    private final TableLayout<LogView> layout;
    private final ProtoReader root = new ProtoReader();
    private final LogView view;
    private final IntList resources = new IntList();
    private final IntList scopeLogs = new IntList();
    private final IntList scopes = new IntList();
    private final IntList records = new IntList();

    /** @param layout how the log records table is written */
    public WireLogs(TableLayout<LogView> layout) {
        this.layout = layout;
        this.view = new LogView(new WireValues());
    }

    /**
     * Appends one row per log record of the record in {@code value} to {@code rows}; returns the
     * number of rows. When it throws, {@code rows} may hold partial rows: the caller discards them.
     */
    public int transcode(byte[] value, TableRows rows) throws InvalidProtobufException {
        RowBinaryWriter out = rows.writer(OtelTable.LOGS);
        view.setBuffer(value);
        ProtoReader r0 = root.reset(value, 0, value.length);
        int n = 0;
        while (r0.next()) {
            if (r0.is(1, ProtoReader.LEN)) {
                r0.readBytes();
                n += resourceLogs(r0.child(), out, rows);
            } else {
                r0.skip();
            }
        }
        return n;
    }

    private int resourceLogs(ProtoReader r1, RowBinaryWriter out, TableRows rows) throws InvalidProtobufException {
        LogView v = view;
        resources.clear();
        scopeLogs.clear();
        v.resourceSchemaUrlStart = v.resourceSchemaUrlLength = 0;
        while (r1.next()) {
            if (r1.is(1, ProtoReader.LEN)) {
                r1.readBytes();
                resources.add(r1.start(), r1.length());
            } else if (r1.is(2, ProtoReader.LEN)) {
                r1.readBytes();
                scopeLogs.add(r1.start(), r1.length());
            } else if (r1.is(3, ProtoReader.LEN)) {
                r1.readBytes();
                v.resourceSchemaUrlStart = r1.start();
                v.resourceSchemaUrlLength = r1.length();
            } else {
                r1.skip();
            }
        }
        // the resource: its occurrences merge, their attributes concatenated
        v.resourceAttributes.reset(r1.child(0, 0));
        for (int i = 0; i < resources.size(); i += 2) {
            ProtoReader r2 = r1.child(resources.get(i), resources.get(i + 1));
            while (r2.next()) {
                if (r2.is(1, ProtoReader.LEN)) {
                    r2.readBytes();
                    v.resourceAttributes.add(r2.start(), r2.length());
                } else if (r2.is(3, ProtoReader.LEN)) {
                    r2.readBytes();
                    WireTraces.skimFlat(r2.child()); // EntityRef: strings only
                } else {
                    r2.skip();
                }
            }
        }
        v.renderServiceName();
        int n = 0;
        for (int i = 0; i < scopeLogs.size(); i += 2) {
            n += scopeLogs(r1.child(scopeLogs.get(i), scopeLogs.get(i + 1)), out, rows);
        }
        return n;
    }

    private int scopeLogs(ProtoReader r2, RowBinaryWriter out, TableRows rows) throws InvalidProtobufException {
        LogView v = view;
        scopes.clear();
        records.clear();
        v.scopeSchemaUrlStart = v.scopeSchemaUrlLength = 0;
        while (r2.next()) {
            if (r2.is(1, ProtoReader.LEN)) {
                r2.readBytes();
                scopes.add(r2.start(), r2.length());
            } else if (r2.is(2, ProtoReader.LEN)) {
                r2.readBytes();
                records.add(r2.start(), r2.length());
            } else if (r2.is(3, ProtoReader.LEN)) {
                r2.readBytes();
                v.scopeSchemaUrlStart = r2.start();
                v.scopeSchemaUrlLength = r2.length();
            } else {
                r2.skip();
            }
        }
        v.scopeNameStart = v.scopeNameLength = 0;
        v.scopeVersionStart = v.scopeVersionLength = 0;
        v.scopeAttributes.reset(r2.child(0, 0));
        for (int i = 0; i < scopes.size(); i += 2) {
            ProtoReader r3 = r2.child(scopes.get(i), scopes.get(i + 1));
            while (r3.next()) {
                if (r3.is(1, ProtoReader.LEN)) {
                    r3.readBytes();
                    v.scopeNameStart = r3.start();
                    v.scopeNameLength = r3.length();
                } else if (r3.is(2, ProtoReader.LEN)) {
                    r3.readBytes();
                    v.scopeVersionStart = r3.start();
                    v.scopeVersionLength = r3.length();
                } else if (r3.is(3, ProtoReader.LEN)) {
                    r3.readBytes();
                    // parsed here even when the table has no ScopeAttributes column
                    WireValues.skimKeyValue(r3);
                    v.scopeAttributes.add(r3.start(), r3.length());
                } else {
                    r3.skip();
                }
            }
        }
        for (int i = 0; i < records.size(); i += 2) {
            record(r2.child(records.get(i), records.get(i + 1)));
            layout.writeRow(v, out);
            rows.rowAdded(OtelTable.LOGS);
        }
        return records.size() / 2;
    }

    private void record(ProtoReader r) throws InvalidProtobufException {
        LogView v = view;
        v.newRecord(r);
        while (r.next()) {
            switch (r.field()) {
                case 1:
                    if (r.wireType() == ProtoReader.I64) {
                        v.time = r.readFixed64();
                        continue;
                    }
                    break;
                case 2:
                    if (r.wireType() == ProtoReader.VARINT) {
                        v.severityNumber = (int) r.readVarint();
                        continue;
                    }
                    break;
                case 3:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        v.severityTextStart = r.start();
                        v.severityTextLength = r.length();
                        continue;
                    }
                    break;
                case 5:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        v.body.add(r.start(), r.length());
                        continue;
                    }
                    break;
                case 6:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        v.logAttributes.add(r.start(), r.length());
                        continue;
                    }
                    break;
                case 8:
                    if (r.wireType() == ProtoReader.I32) {
                        v.flags = r.readFixed32();
                        continue;
                    }
                    break;
                case 9:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        v.traceIdStart = r.start();
                        v.traceIdLength = r.length();
                        continue;
                    }
                    break;
                case 10:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        v.spanIdStart = r.start();
                        v.spanIdLength = r.length();
                        continue;
                    }
                    break;
                case 11:
                    if (r.wireType() == ProtoReader.I64) {
                        v.observedTime = r.readFixed64();
                        continue;
                    }
                    break;
                case 12:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        v.eventNameStart = r.start();
                        v.eventNameLength = r.length();
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
