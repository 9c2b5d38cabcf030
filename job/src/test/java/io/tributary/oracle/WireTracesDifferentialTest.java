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
import java.util.HexFormat;
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

    /** The oracle's bytes, or null when the record fails there. */
    private static byte[] oracle(OracleTraces oracle, byte[] record) {
        try {
            return oracle.rows(PROTOBUF.decode(record));
        } catch (Exception e) {
            return null;
        }
    }

    /** The wire path's bytes, or null when the record fails there. */
    private static byte[] wire(WireTraces wire, TableRows rows, byte[] record) {
        try {
            wire.transcode(record, rows);
            byte[] out = rows.writer(OtelTable.TRACES).toByteArray();
            rows.clear();
            return out;
        } catch (Exception | StackOverflowError e) {
            rows.clear();
            return null;
        }
    }

    private static void same(OracleTraces oracle, WireTraces wire, TableRows rows, byte[] record, String what) {
        byte[] expected = oracle(oracle, record);
        byte[] actual = wire(wire, rows, record);
        if (expected == null || actual == null) {
            assertThat(actual == null).as("%s: fails in the wire path exactly when it fails in the oracle (oracle %s)",
                    what, expected == null ? "fails" : "writes " + expected.length + " bytes").isEqualTo(expected == null);
            return;
        }
        if (!Arrays.equals(expected, actual)) {
            int at = Arrays.mismatch(expected, actual);
            assertThat(HexFormat.of().formatHex(actual, Math.max(0, at - 32), Math.min(actual.length, at + 32)))
                    .as("%s: first difference at byte %d of %d", what, at, expected.length)
                    .isEqualTo(HexFormat.of().formatHex(expected, Math.max(0, at - 32), Math.min(expected.length, at + 32)));
        }
    }

    @ParameterizedTest
    @EnumSource(SchemaFlavor.class)
    void generatedRequestsEncodedEveryWayGiveTheOraclesBytes(SchemaFlavor flavor) {
        OracleTraces oracle = new OracleTraces(flavor);
        TableLayouts layouts = TableLayouts.canonical(flavor);
        WireTraces wire = new WireTraces(layouts.traces());
        TableRows rows = new TableRows(layouts);
        for (long seed = 0; seed < 1_500; seed++) {
            RandomOtlp gen = new RandomOtlp(seed);
            ExportTraceServiceRequest req = gen.traces();
            same(oracle, wire, rows, gen.encode(req), "seed " + seed + " as protobuf-java encodes it");
            same(oracle, wire, rows, gen.scramble(req), "seed " + seed + " scrambled");
        }
    }

    @ParameterizedTest
    @EnumSource(SchemaFlavor.class)
    void loadgenRecordsGiveTheOraclesBytes(SchemaFlavor flavor) {
        OracleTraces oracle = new OracleTraces(flavor);
        TableLayouts layouts = TableLayouts.canonical(flavor);
        WireTraces wire = new WireTraces(layouts.traces());
        TableRows rows = new TableRows(layouts);
        LoadShape shape = new LoadShape(3, 100);
        for (int i = 0; i < 50; i++) {
            byte[] record = shape.next(1_764_460_800_000_000_000L + i * 1_000_000L).toByteArray();
            byte[] expected = oracle(oracle, record);
            assertThat(expected).isNotNull();
            same(oracle, wire, rows, record, "loadgen record " + i);
        }
    }

    @Test
    void damagedRecordsFailOrReadWhereTheOracleDoes() {
        OracleTraces oracle = new OracleTraces(SchemaFlavor.MAP);
        TableLayouts layouts = TableLayouts.canonical(SchemaFlavor.MAP);
        WireTraces wire = new WireTraces(layouts.traces());
        TableRows rows = new TableRows(layouts);
        SplittableRandom random = new SplittableRandom(7);
        for (long seed = 0; seed < 1_000; seed++) {
            byte[] record = new RandomOtlp(seed).encode(new RandomOtlp(seed).traces());
            // cut anywhere: some cuts fall on a field's end and are valid records
            same(oracle, wire, rows, Arrays.copyOf(record, random.nextInt(record.length + 1)), "seed " + seed + " cut");
            byte[] flipped = record.clone();
            for (int k = 0; k < 3 && flipped.length > 0; k++) {
                flipped[random.nextInt(flipped.length)] ^= (byte) (1 << random.nextInt(8));
            }
            same(oracle, wire, rows, flipped, "seed " + seed + " bits flipped");
        }
    }

    @Test
    void nestingUpToProtobufsLimitReadsAndBeyondItFails() {
        OracleTraces oracle = new OracleTraces(SchemaFlavor.MAP);
        TableLayouts layouts = TableLayouts.canonical(SchemaFlavor.MAP);
        WireTraces wire = new WireTraces(layouts.traces());
        TableRows rows = new TableRows(layouts);
        for (int levels : new int[] {40, 47, 48, 49, 60}) {
            AnyValue v = AnyValue.newBuilder().setStringValue("deep").build();
            for (int i = 0; i < levels; i++) {
                v = AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder().addValues(v)).build();
            }
            ExportTraceServiceRequest req = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                    .addScopeSpans(ScopeSpans.newBuilder().addSpans(Span.newBuilder().setName("s")
                            .addAttributes(KeyValue.newBuilder().setKey("k").setValue(v))))).build();
            same(oracle, wire, rows, req.toByteArray(), levels + " levels of arrays");
        }
    }
}
