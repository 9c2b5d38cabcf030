package io.tributary.tables.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.metrics.v1.Exemplar;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogram;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.MetricsData;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.Sum;
import io.opentelemetry.proto.metrics.v1.Summary;
import io.opentelemetry.proto.metrics.v1.SummaryDataPoint;
import io.opentelemetry.proto.resource.v1.Resource;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.InvalidOtlpException;
import io.tributary.otlp.InvalidProtobufException;
import io.tributary.otlp.OtlpDecoder;
import io.tributary.otlp.Signal;
import io.tributary.otlp.json.OtlpJsonWriter;
import io.tributary.schema.SchemaFlavor;
import io.tributary.tables.OtelTable;
import io.tributary.tables.RecordRows;
import io.tributary.tables.RecordTranscoder;
import io.tributary.tables.TableLayouts;
import io.tributary.testing.oracle.Differential;
import io.tributary.testing.oracle.DifferentialCases;
import io.tributary.testing.oracle.OracleMetrics;
import io.tributary.testing.oracle.RandomOtlp;
import io.tributary.tools.loadgen.LoadShape;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * The metrics wire path against its oracle: for generated OTLP (every metric type, exemplars,
 * every value type as attribute, nesting, unknown fields, fields out of order and repeated,
 * messages split in occurrences that merge, invalid UTF-8, loadgen shapes, truncated and damaged
 * records) and hand-made odd cases (a oneof's fields replacing each other, packed and unpacked
 * numbers mixed, wrong wire types, numbers wider than their fields, NaN and infinities, unknown
 * temporalities, ids of wrong length, malformed parts no column shows), {@link MetricsReader}
 * writes exactly the RowBinary bytes, in each of the five tables, that protobuf-java parsing and
 * {@link OracleMetrics} write, or fails where they fail; and OTLP/JSON records give the rows the
 * oracle writes for the request they hold.
 */
class MetricsReaderDifferentialTest extends DifferentialCases {

    private static final OtlpDecoder<ExportMetricsServiceRequest> PROTOBUF =
            new OtlpDecoder<>(Encoding.OTLP_PROTO, ExportMetricsServiceRequest.getDefaultInstance());
    private static final OtlpDecoder<ExportMetricsServiceRequest> JSON =
            new OtlpDecoder<>(Encoding.OTLP_JSON, ExportMetricsServiceRequest.getDefaultInstance());

    /** The oracle and the wire path of {@code flavor}'s five metrics tables, framed by {@link OracleMetrics#frame}. */
    @Override
    protected Differential paths(SchemaFlavor flavor) {
        OracleMetrics oracle = new OracleMetrics(flavor);
        TableLayouts layouts = TableLayouts.canonical(flavor);
        MetricsReader wire = new MetricsReader(layouts);
        RecordRows rows = new RecordRows(layouts);
        return new Differential(record -> oracle.rows(PROTOBUF.decode(record)), record -> {
            try {
                int n = wire.transcode(record, rows);
                assertThat(n).as("rows returned").isEqualTo(rows.total());
                return framed(rows);
            } finally {
                rows.clear();
            }
        });
    }

    /** The rows of every metrics table in {@code rows}, framed as the oracle frames its own. */
    static byte[] framed(RecordRows rows) {
        List<OtelTable> tables = OracleMetrics.TABLES;
        int[] counts = new int[tables.size()];
        byte[][] bytes = new byte[tables.size()][];
        for (int t = 0; t < counts.length; t++) {
            counts[t] = rows.rows(tables.get(t));
            bytes[t] = rows.writer(tables.get(t)).toByteArray();
        }
        return OracleMetrics.frame(counts, bytes);
    }

    @Override
    protected Message generate(RandomOtlp gen) {
        return gen.metrics();
    }

    @Override
    protected byte[] loadgen(LoadShape shape, long timeNanos) {
        return shape.nextMetrics(timeNanos).toByteArray();
    }

    // ---- odd but valid OTLP, built as messages

    @ParameterizedTest
    @EnumSource(value = SchemaFlavor.class, names = "COROOT", mode = EnumSource.Mode.EXCLUDE) // coroot has no metrics tables
    void oddButValidRequestsGiveTheOraclesBytes(SchemaFlavor flavor) {
        Differential d = paths(flavor);
        d.same(new byte[0], "an empty record");
        d.same(ExportMetricsServiceRequest.newBuilder().addResourceMetrics(ResourceMetrics.getDefaultInstance())
                .build().toByteArray(), "a resource without scopes");
        d.same(request(Metric.newBuilder().setName("no data").build()), "a metric without data");
        d.same(request(Metric.newBuilder().setName("g").setGauge(Gauge.getDefaultInstance()).build()), "a gauge without points");
        d.same(request(Metric.newBuilder().setGauge(Gauge.newBuilder().addDataPoints(NumberDataPoint.getDefaultInstance())).build()),
                "an empty gauge point without name");
        d.same(request(Metric.newBuilder().setSum(Sum.newBuilder().addDataPoints(NumberDataPoint.getDefaultInstance())).build()),
                "an empty sum point");
        d.same(request(Metric.newBuilder().setHistogram(Histogram.newBuilder()
                .addDataPoints(HistogramDataPoint.getDefaultInstance())).build()), "an empty histogram point");
        d.same(request(Metric.newBuilder().setExponentialHistogram(ExponentialHistogram.newBuilder()
                .addDataPoints(ExponentialHistogramDataPoint.getDefaultInstance())).build()), "an empty exponential point");
        d.same(request(Metric.newBuilder().setSummary(Summary.newBuilder()
                .addDataPoints(SummaryDataPoint.getDefaultInstance())).build()), "an empty summary point");

        double[] odd = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, Double.MIN_VALUE,
            Double.MAX_VALUE, Double.longBitsToDouble(0x7ff0000000000001L)};
        for (double x : odd) {
            Exemplar e = Exemplar.newBuilder().setAsDouble(x).setTimeUnixNano(-1L).build();
            d.same(request(Metric.newBuilder().setName("n").setGauge(Gauge.newBuilder().addDataPoints(NumberDataPoint.newBuilder()
                    .setAsDouble(x).addExemplars(e))).build()), "gauge " + x);
            d.same(request(Metric.newBuilder().setHistogram(Histogram.newBuilder().addDataPoints(HistogramDataPoint.newBuilder()
                    .setSum(x).setMin(x).setMax(x).addExplicitBounds(x).addExplicitBounds(1).addBucketCounts(-1L)
                    .addExemplars(e))).build()), "histogram " + x);
            d.same(request(Metric.newBuilder().setExponentialHistogram(ExponentialHistogram.newBuilder().addDataPoints(
                    ExponentialHistogramDataPoint.newBuilder().setSum(x).setMin(x).setMax(x).setZeroThreshold(x)))
                    .build()), "exponential " + x);
            d.same(request(Metric.newBuilder().setSummary(Summary.newBuilder().addDataPoints(SummaryDataPoint.newBuilder()
                    .setSum(x).addQuantileValues(SummaryDataPoint.ValueAtQuantile.newBuilder().setQuantile(x).setValue(x))))
                    .build()), "summary " + x);
        }
        for (long v : new long[] {Long.MIN_VALUE, Long.MAX_VALUE, -1, 0, 1L << 53 | 1}) {
            d.same(request(Metric.newBuilder().setSum(Sum.newBuilder().setIsMonotonic(true).setAggregationTemporalityValue(2)
                    .addDataPoints(NumberDataPoint.newBuilder().setAsInt(v).setStartTimeUnixNano(v).setTimeUnixNano(v)
                            .addExemplars(Exemplar.newBuilder().setAsInt(v).setTimeUnixNano(v)))).build()), "sum " + v);
            d.same(request(Metric.newBuilder().setHistogram(Histogram.newBuilder().addDataPoints(HistogramDataPoint.newBuilder()
                    .setCount(v).addBucketCounts(v).addBucketCounts(v))).build()), "histogram count " + v);
            d.same(request(Metric.newBuilder().setExponentialHistogram(ExponentialHistogram.newBuilder().addDataPoints(
                    ExponentialHistogramDataPoint.newBuilder().setCount(v).setZeroCount(v)
                            .setNegative(ExponentialHistogramDataPoint.Buckets.newBuilder().addBucketCounts(v))))
                    .build()), "exponential count " + v);
        }
        for (int t : new int[] {-1, 3, 99, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
            d.same(request(Metric.newBuilder().setSum(Sum.newBuilder().setAggregationTemporalityValue(t)
                    .addDataPoints(NumberDataPoint.newBuilder().setFlags(t))).build()), "sum temporality and flags " + t);
            d.same(request(Metric.newBuilder().setHistogram(Histogram.newBuilder().setAggregationTemporalityValue(t)
                    .addDataPoints(HistogramDataPoint.newBuilder().setFlags(t))).build()), "histogram temporality " + t);
            d.same(request(Metric.newBuilder().setExponentialHistogram(ExponentialHistogram.newBuilder()
                    .setAggregationTemporalityValue(t).addDataPoints(ExponentialHistogramDataPoint.newBuilder().setScale(t)
                            .setPositive(ExponentialHistogramDataPoint.Buckets.newBuilder().setOffset(t).addBucketCounts(1))
                            .setNegative(ExponentialHistogramDataPoint.Buckets.newBuilder().setOffset(-t).addBucketCounts(2))))
                    .build()), "exponential scale and offsets " + t);
        }
        byte[][] ids = {new byte[0], new byte[8], new byte[16], {1, 2, 3, 4, 5, 6, 7, 8}, {0, 0, 0, 0, 0, 0, 0, 1},
            {(byte) 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xAB}};
        for (byte[] span : Arrays.copyOfRange(ids, 0, 5)) {
            for (byte[] trace : new byte[][] {ids[0], ids[2], ids[5]}) {
                d.same(request(Metric.newBuilder().setGauge(Gauge.newBuilder().addDataPoints(NumberDataPoint.newBuilder()
                        .addExemplars(Exemplar.newBuilder().setSpanId(ByteString.copyFrom(span))
                                .setTraceId(ByteString.copyFrom(trace))))).build()),
                        "exemplar ids " + span.length + "/" + trace.length);
            }
        }
        // metadata, many points, resource and scope in several messages and absent
        ExportMetricsServiceRequest.Builder many = ExportMetricsServiceRequest.newBuilder();
        for (int r = 0; r < 3; r++) {
            ResourceMetrics.Builder rm = ResourceMetrics.newBuilder().setSchemaUrl("r" + r);
            if (r > 0) {
                rm.setResource(Resource.newBuilder().addAttributes(kv("service.name", "svc" + r)).addAttributes(kv("r", "" + r)));
            }
            for (int s = 0; s < 3; s++) {
                ScopeMetrics.Builder sm = ScopeMetrics.newBuilder().setSchemaUrl(s == 1 ? "" : "s" + s);
                if (s > 0) {
                    sm.setScope(InstrumentationScope.newBuilder().setName("scope" + s).setVersion("v" + s)
                            .setDroppedAttributesCount(s * 7).addAttributes(kv("scope.k", "x" + s)));
                }
                for (int m = 0; m < 5; m++) {
                    Metric.Builder mb = Metric.newBuilder().setName("m" + m).addMetadata(kv("meta", "d"));
                    NumberDataPoint p = NumberDataPoint.newBuilder().setAsDouble(m).addAttributes(kv("p", "" + m)).build();
                    switch (m) {
                        case 0:
                            mb.setGauge(Gauge.newBuilder().addDataPoints(p).addDataPoints(p));
                            break;
                        case 1:
                            mb.setSum(Sum.newBuilder().addDataPoints(p).setAggregationTemporalityValue(1));
                            break;
                        case 2:
                            mb.setHistogram(Histogram.newBuilder().addDataPoints(HistogramDataPoint.newBuilder().setCount(3)));
                            break;
                        case 3:
                            mb.setExponentialHistogram(ExponentialHistogram.newBuilder()
                                    .addDataPoints(ExponentialHistogramDataPoint.newBuilder().setCount(4)));
                            break;
                        default:
                            mb.setSummary(Summary.newBuilder().addDataPoints(SummaryDataPoint.newBuilder().setCount(5)));
                    }
                    sm.addMetrics(mb);
                }
                rm.addScopeMetrics(sm);
            }
            many.addResourceMetrics(rm);
        }
        d.same(many.build().toByteArray(), "three resources of three scopes of every type");
        byte[] asData = MetricsData.newBuilder().addAllResourceMetrics(many.getResourceMetricsList()).build().toByteArray();
        d.same(asData, "the same as MetricsData");
    }

    // ---- what the wire format allows beyond protobuf-java's own encoding, built byte by byte

    @ParameterizedTest
    @EnumSource(value = SchemaFlavor.class, names = "COROOT", mode = EnumSource.Mode.EXCLUDE) // coroot has no metrics tables
    void wireFormatFreedomsGiveTheOraclesBytes(SchemaFlavor flavor) {
        Differential d = paths(flavor);
        byte[] gaugePoint = new Proto().fixed64(4, Double.doubleToRawLongBits(1.5)).bytes();
        byte[] sumPoint = new Proto().fixed64(6, 7).bytes();
        // the data oneof: another type starts afresh, the same type merges
        d.same(metric(new Proto().string(1, "g-then-s").message(5, new Proto().message(1, gaugePoint))
                .message(7, new Proto().message(1, sumPoint).varint(2, 2))), "gauge, then sum: the sum");
        for (String name : new String[] {"valid", RandomOtlp.BAD_UTF8}) {
            // protobuf-java merges a type that comes back with its earlier occurrences, but not
            // when it reads a record with invalid UTF-8
            byte[] record = metric(new Proto().string(1, name).message(5, new Proto().message(1, gaugePoint))
                    .message(7, new Proto().message(1, sumPoint))
                    .message(5, new Proto().message(1, new Proto().fixed64(4, Double.doubleToRawLongBits(9)).bytes()))
                    .message(7, new Proto().message(1, sumPoint).varint(2, 2))
                    .message(5, new Proto().message(1, gaugePoint).message(1, gaugePoint)));
            d.same(invalidated(record), "gauge, sum, gauge, sum, gauge named " + name);
        }
        d.same(metric(new Proto().message(7, new Proto().message(1, sumPoint).varint(2, 1).varint(3, 1))
                .string(1, "between")
                .message(7, new Proto().message(1, gaugePoint).varint(2, 2).varint(3, 0))),
                "two sums merge: points concatenated, the last temporality and monotonicity");
        d.same(metric(new Proto().message(7, new Proto().varint(3, 300).message(1, sumPoint))),
                "monotonic as a varint beyond 1");
        d.same(metric(new Proto().message(7, new Proto().varint(2, -5L).message(1, sumPoint))),
                "a temporality as a ten-byte negative varint");
        d.same(metric(new Proto().message(7, new Proto().varint(2, 1L << 40 | 2).message(1, sumPoint))),
                "a temporality wider than 32 bits");
        // ten-byte varints whose tenth byte has bit 0 clear: protobuf-java sets bit 63 all the same
        for (int last : new int[] {0x00, 0x01, 0x02, 0x7E}) {
            d.same(exponential(new Proto().message(8, new Proto().raw(tenByteVarint(0x10, 5, last))
                    .raw(new byte[] {0x12, 20}).raw(Arrays.copyOfRange(tenByteVarint(0, 0, last), 1, 11))
                    .raw(Arrays.copyOfRange(tenByteVarint(0, 7, last), 1, 11)))), "bucket counts of ten bytes ending " + last);
            d.same(gauge(new Proto().message(7, new Proto().string(1, "k").message(2, tenByteVarint(0x18, 3, last)))),
                    "an int attribute of ten bytes ending " + last);
            d.same(metric(new Proto().message(7, new Proto().raw(tenByteVarint(0x18, 0, last))
                    .raw(tenByteVarint(0x10, 2, last)).message(1, sumPoint))), "monotonic and temporality of ten bytes ending " + last);
        }
        // the value oneofs: the last field wins
        d.same(gauge(new Proto().fixed64(4, Double.doubleToRawLongBits(2.5)).fixed64(6, 3)), "as_double then as_int");
        d.same(gauge(new Proto().fixed64(6, 3).fixed64(4, Double.doubleToRawLongBits(2.5))), "as_int then as_double");
        d.same(gauge(new Proto().message(5, new Proto().fixed64(6, 3).fixed64(3, Double.doubleToRawLongBits(0.25))
                .bytes(4, new byte[] {1, 2, 3, 4, 5, 6, 7, 8}).bytes(4, new byte[0]))), "exemplar: the last value and span id");
        // numbers wider than their fields, wrong wire types
        d.same(gauge(new Proto().varint(8, 1L << 35 | 5)), "flags wider than 32 bits");
        d.same(gauge(new Proto().fixed64(8, 5).fixed32(2, 9).varint(3, 9).varint(4, 1).fixed32(6, 1)),
                "fields of the wrong wire type are unknown fields");
        d.same(exponential(new Proto().varint(6, -3L).varint(10, -1L)), "scale as a ten-byte varint");
        d.same(exponential(new Proto().varint(6, 1L << 33 | 9)), "scale wider than 32 bits");
        d.same(exponential(new Proto().message(8, new Proto().varint(1, 1L << 32 | 3).varint(1, 41).fixed64(2, 5))),
                "an offset given twice; a count of the wrong wire type");
        // repeated numbers packed, unpacked, mixed and split; Buckets occurrences merge
        d.same(histogram(new Proto().packedFixed64(6, 1, 2).fixed64(6, 3).packedFixed64(6).packedFixed64(6, 4, 5)
                .fixed64(7, Double.doubleToRawLongBits(0.5)).packedFixed64(7, Double.doubleToRawLongBits(1.5))),
                "bucket counts and bounds packed and unpacked");
        d.same(histogram(new Proto().fixed64(6, 1).fixed64(6, 2).fixed64(7, Double.doubleToRawLongBits(3))),
                "bucket counts unpacked only");
        d.same(histogram(new Proto().packedFixed64(6).packedFixed64(7)), "empty packed occurrences");
        d.same(histogram(new Proto().varint(6, 3).varint(7, 3).fixed64(5, Double.doubleToRawLongBits(1))
                .fixed64(5, Double.doubleToRawLongBits(2)).fixed64(11, 0).fixed64(12, Double.doubleToRawLongBits(-1))),
                "counts of the wrong wire type; sum twice");
        d.same(exponential(new Proto().message(8, new Proto().varint(1, 1).packedVarints(2, 1, 300, 1L << 40))
                .message(9, new Proto().varint(2, 7))
                .message(8, new Proto().varint(1, 2).varint(2, 4).packedVarints(2, -1L, 0))
                .message(9, new Proto().packedVarints(2))), "buckets split, packed and not, offsets overridden");
        d.same(summary(new Proto().message(6, new Proto().fixed64(1, Double.doubleToRawLongBits(0.5))
                .fixed64(1, Double.doubleToRawLongBits(0.9)).fixed64(2, Double.doubleToRawLongBits(3)))
                .message(6, new byte[0]).varint(6, 1)), "quantiles: a field twice, an empty one, a wrong wire type");
        // a point split in two occurrences of its metric's data message
        d.same(metric(new Proto().message(9, new Proto().message(1, new Proto().fixed64(4, 2).bytes()))
                .message(9, new Proto().varint(2, 2).message(1, new Proto().fixed64(4, 3).bytes()))),
                "two histogram messages: points in order");
        // unknown fields everywhere, groups included
        Proto unknown = new Proto().varint(100, 1).fixed64(101, 2).fixed32(102, 3).string(103, "x").group(104);
        d.same(new Proto().message(1, new Proto().message(2, new Proto().message(2, new Proto().string(1, "u")
                .message(7, new Proto().message(1, new Proto().fixed64(6, 1).raw(unknown.bytes())).raw(unknown.bytes()))
                .raw(unknown.bytes())).raw(unknown.bytes())).raw(unknown.bytes())).raw(unknown.bytes()).bytes(),
                "unknown fields in every message");
    }

    // ---- refusals

    @Test
    void malformedPartsFailInBothPathsWithAClearMessage() throws Exception {
        Differential d = paths(SchemaFlavor.MAP);
        byte[] badAnyValue = new Proto().string(1, "k").message(2, new byte[] {0x0A, 0x05, 'a'}).bytes(); // string cut short
        List<byte[]> bad = List.of(
                histogram(new Proto().raw(new byte[] {0x32, 12}).raw(new byte[12])), // packed fixed64 of 12 bytes
                histogram(new Proto().raw(new byte[] {0x3A, 3, 1, 2, 3})), // packed doubles of 3 bytes
                exponential(new Proto().message(8, new Proto().raw(new byte[] {0x12, 2, 1, (byte) 0x80}))), // varint cut by the field's end
                exponential(new Proto().message(8, new Proto().raw(packedOfBytes(2, 11)))), // an 11-byte varint
                // malformed data that a later type replaces, and malformed metadata: no column shows them
                metric(new Proto().message(5, new Proto().message(1, new Proto().message(7, badAnyValue)))
                        .message(7, new Proto().message(1, new Proto().fixed64(6, 1)))),
                metric(new Proto().message(9, new Proto().message(1, new Proto().raw(new byte[] {0x32, 3, 1, 2, 3})))
                        .message(11, new Proto().message(1, new byte[0]))),
                metric(new Proto().message(12, badAnyValue).message(5, new Proto().message(1, new byte[0]))),
                gauge(new Proto().message(5, new Proto().message(7, badAnyValue))),
                summary(new Proto().message(6, new byte[] {0x09, 1, 2})),
                gauge(new Proto().raw(new byte[] {0x08 | 7})));
        for (int i = 0; i < bad.size(); i++) {
            byte[] record = bad.get(i);
            d.same(record, "malformed record " + i);
            assertThatThrownBy(() -> PROTOBUF.decode(record)).as("protobuf-java refuses record %d", i).isInstanceOf(IOException.class);
            assertThatThrownBy(() -> transcode(SchemaFlavor.MAP, record)).as("record %d", i)
                    .isInstanceOf(InvalidProtobufException.class).hasMessageStartingWith("invalid OTLP protobuf: ");
        }
    }

    @Test
    void exemplarIdsOfAWrongLengthFailAsInTheOracleUnlessNoRowShowsThem() throws Exception {
        Differential d = paths(SchemaFlavor.MAP);
        for (int length : new int[] {1, 7, 9, 15, 17, 32}) {
            byte[] id = new byte[length];
            Arrays.fill(id, (byte) 7);
            for (boolean trace : new boolean[] {true, false}) {
                Exemplar.Builder e = Exemplar.newBuilder().setAsDouble(1);
                if (trace) {
                    e.setTraceId(ByteString.copyFrom(id));
                } else {
                    e.setSpanId(ByteString.copyFrom(id));
                }
                byte[] record = request(Metric.newBuilder().setHistogram(Histogram.newBuilder()
                        .addDataPoints(HistogramDataPoint.newBuilder().addExemplars(e))).build());
                d.same(record, (trace ? "trace" : "span") + " id of " + length + " bytes");
                assertThatThrownBy(() -> transcode(SchemaFlavor.MAP, record)).isInstanceOf(InvalidOtlpException.class)
                        .hasMessage("exemplars." + (trace ? "traceId must be 16" : "spanId must be 8") + " bytes, got " + length);
                // in a gauge that a sum replaces, no row shows the exemplar: both paths read the record
                byte[] replaced = metric(new Proto().message(5, new Proto().message(1, new Proto()
                        .message(5, e.build().toByteArray())))
                        .message(7, new Proto().message(1, new Proto().fixed64(6, 1))));
                d.same(replaced, "replaced gauge with a " + length + "-byte id");
                assertThat(transcode(SchemaFlavor.MAP, replaced)).isEqualTo(1);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = SchemaFlavor.class, names = "COROOT", mode = EnumSource.Mode.EXCLUDE) // coroot has no metrics tables
    void attributesNestedUpToProtobufsLimitReadAndBeyondItFail(SchemaFlavor flavor) {
        Differential d = paths(flavor);
        for (int levels = 30; levels <= 50; levels++) {
            AnyValue v = AnyValue.newBuilder().setStringValue("deep").build();
            for (int i = 0; i < levels; i++) {
                v = i % 2 == 0
                        ? AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder().addValues(v)).build()
                        : AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder()
                                .addValues(KeyValue.newBuilder().setKey("k").setValue(v))).build();
            }
            KeyValue deep = KeyValue.newBuilder().setKey("deep").setValue(v).build();
            d.same(request(Metric.newBuilder().setGauge(Gauge.newBuilder().addDataPoints(NumberDataPoint.newBuilder()
                    .addAttributes(deep))).build()), levels + " levels in a point's attributes");
            d.same(request(Metric.newBuilder().setSum(Sum.newBuilder().addDataPoints(NumberDataPoint.newBuilder()
                    .addExemplars(Exemplar.newBuilder().addFilteredAttributes(deep)))).build()),
                    levels + " levels in an exemplar's attributes");
            d.same(request(Metric.newBuilder().addMetadata(deep).setSummary(Summary.newBuilder()
                    .addDataPoints(SummaryDataPoint.getDefaultInstance())).build()), levels + " levels in metadata");
            d.same(ExportMetricsServiceRequest.newBuilder().addResourceMetrics(ResourceMetrics.newBuilder()
                    .setResource(Resource.newBuilder().addAttributes(deep))).build().toByteArray(),
                    levels + " levels in the attributes of a resource without points");
        }
    }

    // ---- OTLP/JSON: the object path parsed it to messages; now they are encoded again for the reader

    @ParameterizedTest
    @EnumSource(value = SchemaFlavor.class, names = "COROOT", mode = EnumSource.Mode.EXCLUDE) // coroot has no metrics tables
    void otlpJsonRecordsGiveTheOraclesRowsOfTheirRequest(SchemaFlavor flavor) throws Exception {
        OracleMetrics oracle = new OracleMetrics(flavor);
        TableLayouts layouts = TableLayouts.canonical(flavor);
        RecordTranscoder auto = RecordTranscoder.of(Signal.METRICS, Encoding.AUTO, layouts);
        RecordTranscoder json = RecordTranscoder.of(Signal.METRICS, Encoding.OTLP_JSON, layouts);
        RecordRows rows = new RecordRows(layouts);
        int compared = 0;
        for (long seed = 0; seed < 300; seed++) {
            byte[] record = OtlpJsonWriter.write(new RandomOtlp(seed).metrics());
            byte[] expected;
            try {
                expected = oracle.rows(JSON.decode(record));
            } catch (InvalidOtlpException e) {
                continue; // an exemplar id of a wrong length
            }
            for (RecordTranscoder t : new RecordTranscoder[] {auto, json}) {
                try {
                    t.transcode(record, rows);
                    assertThat(framed(rows)).as("seed %d as OTLP/JSON", seed).isEqualTo(expected);
                } finally {
                    rows.clear();
                }
            }
            compared++;
        }
        assertThat(compared).isGreaterThan(250);
    }

    // ---- helpers

    private static int transcode(SchemaFlavor flavor, byte[] record) {
        TableLayouts layouts = TableLayouts.canonical(flavor);
        return new MetricsReader(layouts).transcode(record, new RecordRows(layouts));
    }

    private static KeyValue kv(String k, String v) {
        return KeyValue.newBuilder().setKey(k).setValue(AnyValue.newBuilder().setStringValue(v)).build();
    }

    private static byte[] request(Metric m) {
        return ExportMetricsServiceRequest.newBuilder().addResourceMetrics(ResourceMetrics.newBuilder()
                .setResource(Resource.newBuilder().addAttributes(kv("service.name", "svc")))
                .addScopeMetrics(ScopeMetrics.newBuilder().setScope(InstrumentationScope.newBuilder().setName("s"))
                        .addMetrics(m))).build().toByteArray();
    }

    /** A request of one metric whose fields are {@code metric}'s bytes. */
    private static byte[] metric(Proto metric) {
        return new Proto().message(1, new Proto().message(2, new Proto().message(2, metric))).bytes();
    }

    private static byte[] gauge(Proto point) {
        return metric(new Proto().string(1, "gauge").message(5, new Proto().message(1, point)));
    }

    private static byte[] histogram(Proto point) {
        return metric(new Proto().string(1, "histogram").message(9, new Proto().message(1, point)));
    }

    private static byte[] exponential(Proto point) {
        return metric(new Proto().string(1, "exponential").message(10, new Proto().message(1, point)));
    }

    private static byte[] summary(Proto point) {
        return metric(new Proto().string(1, "summary").message(11, new Proto().message(1, point)));
    }

    /** The record with each {@link RandomOtlp#BAD_UTF8} made invalid UTF-8. */
    private static byte[] invalidated(byte[] record) {
        byte[] marker = RandomOtlp.BAD_UTF8.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        for (int i = 0; i + marker.length <= record.length; i++) {
            if (Arrays.equals(record, i, i + marker.length, marker, 0, marker.length)) {
                record[i + 1] = (byte) 0xC3; // a lead byte before 'B': not UTF-8
            }
        }
        return record;
    }

    /** A tag byte (none when 0), then {@code low} (below 2^56) as a varint of ten bytes whose last is {@code last}. */
    private static byte[] tenByteVarint(int tag, long low, int last) {
        byte[] b = new byte[11];
        b[0] = (byte) tag;
        for (int i = 0; i < 9; i++) {
            b[1 + i] = (byte) (0x80 | (low >>> (7 * i)) & 0x7F);
        }
        b[10] = (byte) last;
        return b;
    }

    /** A packed field of one varint of {@code bytes} bytes, every one with its continuation bit. */
    private static byte[] packedOfBytes(int field, int bytes) {
        byte[] b = new byte[bytes + 2];
        b[0] = (byte) (field << 3 | 2);
        b[1] = (byte) bytes;
        Arrays.fill(b, 2, b.length - 1, (byte) 0x81);
        b[b.length - 1] = 0x01;
        return b;
    }

    /** A message written field by field, in any order and encoding the wire format allows. */
    private static final class Proto {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final CodedOutputStream out = CodedOutputStream.newInstance(bytes);

        Proto varint(int field, long v) {
            return write(() -> out.writeUInt64(field, v));
        }

        Proto fixed64(int field, long v) {
            return write(() -> out.writeFixed64(field, v));
        }

        Proto fixed32(int field, int v) {
            return write(() -> out.writeFixed32(field, v));
        }

        Proto string(int field, String s) {
            return write(() -> out.writeString(field, s));
        }

        Proto bytes(int field, byte[] b) {
            return write(() -> out.writeByteArray(field, b));
        }

        Proto message(int field, byte[] b) {
            return bytes(field, b);
        }

        Proto message(int field, Proto m) {
            return bytes(field, m.bytes());
        }

        Proto packedFixed64(int field, long... vs) {
            return write(() -> {
                out.writeTag(field, 2);
                out.writeUInt32NoTag(8 * vs.length);
                for (long v : vs) {
                    out.writeFixed64NoTag(v);
                }
            });
        }

        Proto packedVarints(int field, long... vs) {
            return write(() -> {
                int n = 0;
                for (long v : vs) {
                    n += CodedOutputStream.computeUInt64SizeNoTag(v);
                }
                out.writeTag(field, 2);
                out.writeUInt32NoTag(n);
                for (long v : vs) {
                    out.writeUInt64NoTag(v);
                }
            });
        }

        Proto group(int field) {
            return write(() -> {
                out.writeTag(field, 3);
                out.writeUInt64(field + 1, 5);
                out.writeTag(field, 4);
            });
        }

        Proto raw(byte[] b) {
            return write(() -> out.writeRawBytes(b));
        }

        byte[] bytes() {
            try {
                out.flush();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            return bytes.toByteArray();
        }

        private Proto write(IoAction a) {
            try {
                a.run();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            return this;
        }
    }

    @FunctionalInterface
    private interface IoAction {
        void run() throws IOException;
    }
}
