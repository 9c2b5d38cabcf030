package io.tributary.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
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
import io.tributary.tables.OtelTable;
import io.tributary.tables.SchemaFlavor;
import io.tributary.tables.TableLayouts;
import io.tributary.tables.TableRows;
import io.tributary.tables.WireLogs;
import io.tributary.tools.loadgen.LoadShape;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The logs wire path against its oracle: for generated OTLP (every value type as body and
 * attribute, nesting, unknown fields, fields out of order and repeated, invalid UTF-8, severities
 * and flags beyond their byte, loadgen shapes, truncated and damaged records), {@link WireLogs}
 * writes exactly the RowBinary bytes that protobuf-java parsing and {@link OracleLogs} write, or
 * fails where they fail.
 */
class WireLogsDifferentialTest {

    private static final OtlpDecoder<ExportLogsServiceRequest> PROTOBUF =
            new OtlpDecoder<>(Encoding.OTLP_PROTO, ExportLogsServiceRequest.getDefaultInstance());

    /** The oracle and the wire path of {@code flavor}'s log records table. */
    private static Differential paths(SchemaFlavor flavor) {
        OracleLogs oracle = new OracleLogs(flavor);
        TableLayouts layouts = TableLayouts.canonical(flavor);
        WireLogs wire = new WireLogs(layouts.logs());
        TableRows rows = new TableRows(layouts);
        return new Differential(record -> oracle.rows(PROTOBUF.decode(record)), record -> {
            try {
                wire.transcode(record, rows);
                return rows.writer(OtelTable.LOGS).toByteArray();
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
            ExportLogsServiceRequest req = gen.logs();
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
            byte[] record = shape.nextLogs(1_764_460_800_000_000_000L + i * 1_000_000L).toByteArray();
            assertThat(d.oracleRows(record)).isNotEmpty();
            d.same(record, "loadgen record " + i);
        }
    }

    @Test
    void damagedRecordsFailOrReadWhereTheOracleDoes() {
        Differential d = paths(SchemaFlavor.MAP);
        SplittableRandom random = new SplittableRandom(7);
        for (long seed = 0; seed < 1_000; seed++) {
            byte[] record = new RandomOtlp(seed).encode(new RandomOtlp(seed).logs());
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
