package io.tributary.tables.logs;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.OtlpDecoder;
import io.tributary.schema.SchemaFlavor;
import io.tributary.tables.OtelTable;
import io.tributary.tables.RecordRows;
import io.tributary.tables.TableLayouts;
import io.tributary.testing.oracle.Differential;
import io.tributary.testing.oracle.DifferentialCases;
import io.tributary.testing.oracle.OracleLogs;
import io.tributary.testing.oracle.RandomOtlp;
import io.tributary.tools.loadgen.LoadShape;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

/**
 * The logs wire path against its oracle: for generated OTLP (every value type as body and
 * attribute, nesting, unknown fields, fields out of order and repeated, invalid UTF-8, severities
 * and flags beyond their byte, loadgen shapes, truncated and damaged records), {@link LogsReader}
 * writes exactly the RowBinary bytes that protobuf-java parsing and {@link OracleLogs} write, or
 * fails where they fail.
 */
class LogsReaderDifferentialTest extends DifferentialCases {

    private static final OtlpDecoder<ExportLogsServiceRequest> PROTOBUF =
            new OtlpDecoder<>(Encoding.OTLP_PROTO, ExportLogsServiceRequest.getDefaultInstance());

    /** The oracle and the wire path of {@code flavor}'s log records table. */
    @Override
    protected Differential paths(SchemaFlavor flavor) {
        OracleLogs oracle = new OracleLogs(flavor);
        TableLayouts layouts = TableLayouts.canonical(flavor);
        LogsReader wire = new LogsReader(layouts.logs());
        RecordRows rows = new RecordRows(layouts);
        return new Differential(record -> oracle.rows(PROTOBUF.decode(record)), record -> {
            try {
                wire.transcode(record, rows);
                return rows.writer(OtelTable.LOGS).toByteArray();
            } finally {
                rows.clear();
            }
        });
    }

    @Override
    protected Message generate(RandomOtlp gen) {
        return gen.logs();
    }

    @Override
    protected byte[] loadgen(LoadShape shape, long timeNanos) {
        return shape.nextLogs(timeNanos).toByteArray();
    }

    @Test
    void idsOfAWrongLengthFailAsInTheOracle() {
        Differential d = paths(SchemaFlavor.MAP);
        for (int length : new int[] {1, 8, 15, 17, 32}) {
            byte[] id = new byte[length];
            Arrays.fill(id, (byte) 7);
            for (boolean trace : new boolean[] {true, false}) {
                LogRecord.Builder r = LogRecord.newBuilder().setBody(AnyValue.newBuilder().setStringValue("b"));
                if (trace) {
                    r.setTraceId(ByteString.copyFrom(id));
                } else {
                    r.setSpanId(ByteString.copyFrom(id));
                }
                d.same(request(r.build()).toByteArray(), (trace ? "trace" : "span") + " id of " + length + " bytes");
            }
        }
    }

    @Test
    void bodiesNestedUpToProtobufsLimitReadAndBeyondItFail() {
        Differential d = paths(SchemaFlavor.MAP);
        for (int levels : new int[] {40, 47, 48, 49, 60}) {
            AnyValue v = AnyValue.newBuilder().setStringValue("deep").build();
            for (int i = 0; i < levels; i++) {
                v = i % 2 == 0
                        ? AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder().addValues(v)).build()
                        : AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder()
                                .addValues(KeyValue.newBuilder().setKey("k").setValue(v))).build();
            }
            d.same(request(LogRecord.newBuilder().setBody(v).build()).toByteArray(), levels + " levels of arrays and maps");
        }
    }

    private static ExportLogsServiceRequest request(LogRecord r) {
        return ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
                .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(r))).build();
    }
}
