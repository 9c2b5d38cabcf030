package io.tributary.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.OtlpDecoder;
import io.tributary.tables.OtelTable;
import io.tributary.tables.SchemaFlavor;
import io.tributary.tables.TableLayouts;
import io.tributary.tables.TableRows;
import io.tributary.tables.WireTraces;
import io.tributary.tools.loadgen.LoadShape;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The wire path against its oracle: for generated OTLP (every value type, nesting, unknown fields,
 * fields out of order and repeated, invalid UTF-8, loadgen shapes, truncated and damaged records),
 * {@link WireTraces} writes exactly the RowBinary bytes that protobuf-java parsing and {@link
 * OracleTraces} write, or fails where they fail.
 */
class WireTracesDifferentialTest {

    private static final OtlpDecoder<ExportTraceServiceRequest> PROTOBUF =
            new OtlpDecoder<>(Encoding.OTLP_PROTO, ExportTraceServiceRequest.getDefaultInstance());

    /** The oracle and the wire path of {@code flavor}'s spans table. */
    private static Differential paths(SchemaFlavor flavor) {
        OracleTraces oracle = new OracleTraces(flavor);
        TableLayouts layouts = TableLayouts.canonical(flavor);
        WireTraces wire = new WireTraces(layouts.traces());
        TableRows rows = new TableRows(layouts);
        return new Differential(record -> oracle.rows(PROTOBUF.decode(record)), record -> {
            try {
                wire.transcode(record, rows);
                return rows.writer(OtelTable.TRACES).toByteArray();
            } finally {
                rows.clear();
            }
        });
    }

    @ParameterizedTest
    @EnumSource(SchemaFlavor.class)
    void generatedRequestsEncodedEveryWayGiveTheOraclesBytes(SchemaFlavor flavor) {
        Differential d = paths(flavor);
        for (long seed = 0; seed < 1_500; seed++) {
            RandomOtlp gen = new RandomOtlp(seed);
            ExportTraceServiceRequest req = gen.traces();
            d.same(gen.encode(req), "seed " + seed + " as protobuf-java encodes it");
            d.same(gen.scramble(req), "seed " + seed + " scrambled");
        }
    }

    @ParameterizedTest
    @EnumSource(SchemaFlavor.class)
    void loadgenRecordsGiveTheOraclesBytes(SchemaFlavor flavor) throws Exception {
        Differential d = paths(flavor);
        LoadShape shape = new LoadShape(3, 100);
        for (int i = 0; i < 50; i++) {
            byte[] record = shape.next(1_764_460_800_000_000_000L + i * 1_000_000L).toByteArray();
            assertThat(d.oracleRows(record)).isNotEmpty();
            d.same(record, "loadgen record " + i);
        }
    }

    @Test
    void damagedRecordsFailOrReadWhereTheOracleDoes() {
        Differential d = paths(SchemaFlavor.MAP);
        SplittableRandom random = new SplittableRandom(7);
        for (long seed = 0; seed < 1_000; seed++) {
            byte[] record = new RandomOtlp(seed).encode(new RandomOtlp(seed).traces());
            // cut anywhere: some cuts fall on a field's end and are valid records
            d.same(Arrays.copyOf(record, random.nextInt(record.length + 1)), "seed " + seed + " cut");
            byte[] flipped = record.clone();
            for (int k = 0; k < 3 && flipped.length > 0; k++) {
                flipped[random.nextInt(flipped.length)] ^= (byte) (1 << random.nextInt(8));
            }
            d.same(flipped, "seed " + seed + " bits flipped");
        }
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
