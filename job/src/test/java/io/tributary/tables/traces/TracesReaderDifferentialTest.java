package io.tributary.tables.traces;

import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.OtlpDecoder;
import io.tributary.schema.SchemaFlavor;
import io.tributary.tables.OtelTable;
import io.tributary.tables.RecordRows;
import io.tributary.tables.TableLayouts;
import io.tributary.testing.oracle.Differential;
import io.tributary.testing.oracle.DifferentialCases;
import io.tributary.testing.oracle.OracleTraces;
import io.tributary.testing.oracle.RandomOtlp;
import io.tributary.tools.loadgen.LoadShape;

import org.junit.jupiter.api.Test;

/**
 * The wire path against its oracle: for generated OTLP (every value type, nesting, unknown fields,
 * fields out of order and repeated, invalid UTF-8, loadgen shapes, truncated and damaged records),
 * {@link TracesReader} writes exactly the RowBinary bytes that protobuf-java parsing and {@link
 * OracleTraces} write, or fails where they fail.
 */
class TracesReaderDifferentialTest extends DifferentialCases {

    private static final OtlpDecoder<ExportTraceServiceRequest> PROTOBUF =
            new OtlpDecoder<>(Encoding.OTLP_PROTO, ExportTraceServiceRequest.getDefaultInstance());

    /** The oracle and the wire path of {@code flavor}'s spans table. */
    @Override
    protected Differential paths(SchemaFlavor flavor) {
        OracleTraces oracle = new OracleTraces(flavor);
        TableLayouts layouts = TableLayouts.canonical(flavor);
        TracesReader wire = new TracesReader(layouts.traces());
        RecordRows rows = new RecordRows(layouts);
        return new Differential(record -> oracle.rows(PROTOBUF.decode(record)), record -> {
            try {
                wire.transcode(record, rows);
                return rows.writer(OtelTable.TRACES).toByteArray();
            } finally {
                rows.clear();
            }
        });
    }

    @Override
    protected Message generate(RandomOtlp gen) {
        return gen.traces();
    }

    @Override
    protected byte[] loadgen(LoadShape shape, long timeNanos) {
        return shape.next(timeNanos).toByteArray();
    }

    @Test
    void nestingUpToProtobufsLimitReadsAndBeyondItFails() {
        Differential d = paths(SchemaFlavor.MAP);
        for (int levels : new int[] {40, 47, 48, 49, 60}) {
            AnyValue v = AnyValue.newBuilder().setStringValue("deep").build();
            for (int i = 0; i < levels; i++) {
                v = AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder().addValues(v)).build();
            }
            ExportTraceServiceRequest req = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                    .addScopeSpans(ScopeSpans.newBuilder().addSpans(Span.newBuilder().setName("s")
                            .addAttributes(KeyValue.newBuilder().setKey("k").setValue(v))))).build();
            d.same(req.toByteArray(), levels + " levels of arrays");
        }
    }
}
