package io.tributary.tables.traces;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.OtlpDecoder;
import io.tributary.schema.SchemaFlavor;
import io.tributary.tables.OtelTable;
import io.tributary.tables.RecordRows;
import io.tributary.tables.TableLayouts;
import io.tributary.testing.Fuzzing;
import io.tributary.testing.oracle.Differential;
import io.tributary.testing.oracle.Documented;
import io.tributary.testing.oracle.OracleTraces;

/**
 * Coverage-guided fuzzing of {@link TracesReader} against its oracle (protobuf-java parsing, then
 * {@link OracleTraces}), in both schema flavours: for any bytes, the wire path writes exactly the
 * oracle's rows, or fails exactly where the oracle fails (protobuf-java refuses the bytes, or the
 * spans are not valid OTLP), and then only with the exceptions it documents. Seeds: generated,
 * scrambled and loadgen requests.
 */
class TracesReaderFuzzTest {

    private static final OtlpDecoder<ExportTraceServiceRequest> PROTOBUF =
            new OtlpDecoder<>(Encoding.OTLP_PROTO, ExportTraceServiceRequest.getDefaultInstance());
    private static final Differential[] FLAVOURS = {paths(SchemaFlavor.MAP), paths(SchemaFlavor.JSON)};

    @FuzzTest(maxDuration = Fuzzing.LONG)
    void writesTheOraclesRowsOrFailsWhereItFails(byte[] record) {
        for (Differential d : FLAVOURS) {
            d.same(record, "fuzzed record");
        }
    }

    private static Differential paths(SchemaFlavor flavor) {
        OracleTraces oracle = new OracleTraces(flavor);
        TableLayouts layouts = TableLayouts.canonical(flavor);
        TracesReader wire = new TracesReader(layouts.traces());
        RecordRows rows = new RecordRows(layouts);
        return new Differential(record -> oracle.rows(PROTOBUF.decode(record)), Documented.refusalsOnly(record -> {
            try {
                wire.transcode(record, rows);
                return rows.writer(OtelTable.TRACES).toByteArray();
            } finally {
                rows.clear();
            }
        }));
    }
}
