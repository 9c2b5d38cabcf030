package io.tributary.tables.logs;

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
 * Turns an OTLP logs record ({@code ExportLogsServiceRequest} or {@code LogsData}, protobuf) into
 * {@code otel_logs} rows in RowBinary without building protobuf messages, as {@link io.tributary.tables.traces.TracesReader}
 * does for spans: the same rows as protobuf-java parsing and the exporter's semantics give, the
 * same failures. Not thread-safe: one per task.
 */
public final class LogsReader {

    private final TableLayout<LogView> layout;
    private final ProtoReader root = new ProtoReader();
    private final LogView view;
    private final IntList resources = new IntList();
    private final IntList scopeLogs = new IntList();
    private final IntList scopes = new IntList();
    private final IntList records = new IntList();

    /** @param layout how the log records table is written */
    public LogsReader(TableLayout<LogView> layout) {
        this.layout = layout;
        this.view = new LogView(new WireValues());
    }

    /**
     * Appends one row per log record of the record in {@code value} to {@code rows}; returns the
     * number of rows. When it throws, {@code rows} may hold partial rows: the caller discards them.
     */
    public int transcode(byte[] value, RecordRows rows) throws InvalidProtobufException {
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

    private int resourceLogs(ProtoReader r1, RowBinaryWriter out, RecordRows rows) throws InvalidProtobufException {
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
        WireEnvelope.resource(r1, resources, v.resourceAttributes);
        v.renderServiceName();
        int n = 0;
        for (int i = 0; i < scopeLogs.size(); i += 2) {
            n += scopeLogs(r1.child(scopeLogs.get(i), scopeLogs.get(i + 1)), out, rows);
        }
        return n;
    }

    private int scopeLogs(ProtoReader r2, RowBinaryWriter out, RecordRows rows) throws InvalidProtobufException {
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
        WireEnvelope.scope(r2, scopes, v.scope, v.scopeAttributes);
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
