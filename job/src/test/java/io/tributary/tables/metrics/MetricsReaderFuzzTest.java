package io.tributary.tables.metrics;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.OtlpDecoder;
import io.tributary.schema.SchemaFlavor;
import io.tributary.tables.RecordRows;
import io.tributary.tables.TableLayouts;
import io.tributary.testing.Fuzzing;
import io.tributary.testing.oracle.Differential;
import io.tributary.testing.oracle.Documented;
import io.tributary.testing.oracle.OracleMetrics;

/**
 * Coverage-guided fuzzing of {@link MetricsReader} against its oracle (protobuf-java parsing, then
 * {@link OracleMetrics}), in both schema flavours: for any bytes, the wire path writes exactly the
 * oracle's rows in each of the five tables, or fails exactly where the oracle fails (protobuf-java
 * refuses the bytes, or the points are not valid OTLP), and then only with the exceptions it
 * documents. Seeds: generated, scrambled and loadgen requests.
 */
class MetricsReaderFuzzTest {

    private static final OtlpDecoder<ExportMetricsServiceRequest> PROTOBUF =
            new OtlpDecoder<>(Encoding.OTLP_PROTO, ExportMetricsServiceRequest.getDefaultInstance());
    private static final Differential[] FLAVOURS = {paths(SchemaFlavor.MAP), paths(SchemaFlavor.JSON)};

    @FuzzTest(maxDuration = Fuzzing.LONG)
    void writesTheOraclesRowsOrFailsWhereItFails(byte[] record) {
        for (Differential d : FLAVOURS) {
            d.same(record, "fuzzed record");
        }
    }

    private static Differential paths(SchemaFlavor flavor) {
        OracleMetrics oracle = new OracleMetrics(flavor);
        TableLayouts layouts = TableLayouts.canonical(flavor);
        MetricsReader wire = new MetricsReader(layouts);
        RecordRows rows = new RecordRows(layouts);
        return new Differential(record -> oracle.rows(PROTOBUF.decode(record)), Documented.refusalsOnly(record -> {
            try {
                wire.transcode(record, rows);
                return MetricsReaderDifferentialTest.framed(rows);
            } finally {
                rows.clear();
            }
        }));
    }
}
