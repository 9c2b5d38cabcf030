package io.tributary.testing.oracle;

import static io.tributary.schema.Columns.attributes;
import static io.tributary.schema.Columns.bool;
import static io.tributary.schema.Columns.dateTimeFromNanos;
import static io.tributary.schema.Columns.float64;
import static io.tributary.schema.Columns.float64Array;
import static io.tributary.schema.Columns.int32;
import static io.tributary.schema.Columns.lowCardinalityString;
import static io.tributary.schema.Columns.nested;
import static io.tributary.schema.Columns.nestedAttributes;
import static io.tributary.schema.Columns.nestedDateTimeFromNanos;
import static io.tributary.schema.Columns.nestedFloat64;
import static io.tributary.schema.Columns.nestedString;
import static io.tributary.schema.Columns.string;
import static io.tributary.schema.Columns.uint32;
import static io.tributary.schema.Columns.uint64;
import static io.tributary.schema.Columns.uint64Array;

import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogram;
import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.Sum;
import io.opentelemetry.proto.metrics.v1.Summary;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.schema.Column;
import io.tributary.schema.SchemaFlavor;
import io.tributary.schema.TableLayout;
import io.tributary.schema.TableSchema;
import io.tributary.tables.Attributes;
import io.tributary.tables.OtelTable;

import java.util.List;

/**
 * The oracle of the wire path for metrics: how the job turned a protobuf-java {@code
 * ExportMetricsServiceRequest} into rows of the five {@code otel_metrics_*} tables before it read
 * the wire format itself (one row per data point in the table of its metric's type, a metric
 * without data giving none), with the written columns {@code MetricsSchema} declared then. The
 * differential tests hold the wire path to these bytes.
 */
public final class OracleMetrics {

    /** The metrics tables, in the order {@link #rows} frames them. */
    public static final List<OtelTable> TABLES = List.of(OtelTable.METRICS_GAUGE, OtelTable.METRICS_SUM,
            OtelTable.METRICS_HISTOGRAM, OtelTable.METRICS_EXPONENTIAL_HISTOGRAM, OtelTable.METRICS_SUMMARY);

    private static final String ZSTD = "CODEC(ZSTD(1))";

    private final TableLayout<PointRow> gauge;
    private final TableLayout<PointRow> sum;
    private final TableLayout<PointRow> histogram;
    private final TableLayout<PointRow> exponential;
    private final TableLayout<PointRow> summary;
    private final PointRow row = new PointRow();
    private final RowBinaryWriter[] out = new RowBinaryWriter[TABLES.size()];
    private final int[] rowCounts = new int[TABLES.size()];

    public OracleMetrics(SchemaFlavor flavor) {
        gauge = TableLayout.canonical(gauge(flavor), "otel_metrics_gauge");
        sum = TableLayout.canonical(sum(flavor), "otel_metrics_sum");
        histogram = TableLayout.canonical(histogram(flavor), "otel_metrics_histogram");
        exponential = TableLayout.canonical(exponentialHistogram(flavor), "otel_metrics_exponential_histogram");
        summary = TableLayout.canonical(summary(flavor), "otel_metrics_summary");
    }

    /**
     * The rows of every data point of {@code request}: per table of {@link #TABLES}, in that order,
     * its row count and its rows' byte count as LEB128, then its rows in RowBinary ({@link #frame}).
     */
    public byte[] rows(ExportMetricsServiceRequest request) {
        for (int t = 0; t < out.length; t++) {
            out[t] = new RowBinaryWriter(256);
            rowCounts[t] = 0;
        }
        for (ResourceMetrics rm : request.getResourceMetricsList()) {
            List<KeyValue> resAttrs = rm.getResource().getAttributesList();
            row.setResource(Attributes.of(resAttrs), Attributes.serviceName(resAttrs), rm.getSchemaUrl());
            for (ScopeMetrics sm : rm.getScopeMetricsList()) {
                InstrumentationScope scope = sm.getScope();
                row.setScope(
                        Attributes.of(scope.getAttributesList()),
                        scope.getName(),
                        scope.getVersion(),
                        scope.getDroppedAttributesCount(),
                        sm.getSchemaUrl());
                for (Metric m : sm.getMetricsList()) {
                    metric(m);
                }
            }
        }
        byte[][] tables = new byte[out.length][];
        for (int t = 0; t < out.length; t++) {
            tables[t] = out[t].toByteArray();
        }
        return frame(rowCounts, tables);
    }

    /** Each table's row count, byte count (LEB128) and rows, back to back. */
    public static byte[] frame(int[] rowCounts, byte[][] tables) {
        RowBinaryWriter w = new RowBinaryWriter(1024);
        for (int t = 0; t < tables.length; t++) {
            w.writeVarUInt(rowCounts[t]);
            w.writeVarUInt(tables[t].length);
            w.writeRaw(tables[t], 0, tables[t].length);
        }
        return w.toByteArray();
    }

    private void metric(Metric m) {
        switch (m.getDataCase()) {
            case GAUGE: {
                row.setMetric(m, 0, false);
                for (int i = 0; i < m.getGauge().getDataPointsCount(); i++) {
                    row.setNumber(m.getGauge().getDataPoints(i));
                    write(gauge, 0);
                }
                return;
            }
            case SUM: {
                Sum s = m.getSum();
                row.setMetric(m, s.getAggregationTemporalityValue(), s.getIsMonotonic());
                for (int i = 0; i < s.getDataPointsCount(); i++) {
                    row.setNumber(s.getDataPoints(i));
                    write(sum, 1);
                }
                return;
            }
            case HISTOGRAM: {
                Histogram h = m.getHistogram();
                row.setMetric(m, h.getAggregationTemporalityValue(), false);
                for (int i = 0; i < h.getDataPointsCount(); i++) {
                    row.setHistogram(h.getDataPoints(i));
                    write(histogram, 2);
                }
                return;
            }
            case EXPONENTIAL_HISTOGRAM: {
                ExponentialHistogram h = m.getExponentialHistogram();
                row.setMetric(m, h.getAggregationTemporalityValue(), false);
                for (int i = 0; i < h.getDataPointsCount(); i++) {
                    row.setExponential(h.getDataPoints(i));
                    write(exponential, 3);
                }
                return;
            }
            case SUMMARY: {
                Summary s = m.getSummary();
                row.setMetric(m, 0, false);
                for (int i = 0; i < s.getDataPointsCount(); i++) {
                    row.setSummary(s.getDataPoints(i));
                    write(summary, 4);
                }
                return;
            }
            default:
                // no data: nothing to write
        }
    }

    private void write(TableLayout<PointRow> layout, int table) {
        layout.writeRow(row, out[table]);
        rowCounts[table]++;
    }

    // ---- the written columns as MetricsSchema declared them, over protobuf-java points

    static TableSchema<PointRow> gauge(SchemaFlavor f) {
        return finish(common(f)
                .column(float64("Value", ZSTD, PointRow::value))
                .column(uint32("Flags", ZSTD, PointRow::flags))
                .column(exemplars(f)));
    }

    static TableSchema<PointRow> sum(SchemaFlavor f) {
        return finish(common(f)
                .column(float64("Value", ZSTD, PointRow::value))
                .column(uint32("Flags", ZSTD, PointRow::flags))
                .column(exemplars(f))
                .column(int32("AggregationTemporality", ZSTD, PointRow::aggregationTemporality))
                .column(bool("IsMonotonic", ZSTD, PointRow::isMonotonic)));
    }

    static TableSchema<PointRow> histogram(SchemaFlavor f) {
        return finish(common(f)
                .column(uint64("Count", ZSTD, PointRow::histogramCount))
                .column(float64("Sum", ZSTD, PointRow::histogramSum))
                .column(uint64Array("BucketCounts", ZSTD, PointRow::bucketCounts))
                .column(float64Array("ExplicitBounds", ZSTD, PointRow::explicitBounds))
                .column(exemplars(f))
                .column(uint32("Flags", ZSTD, PointRow::flags))
                .column(float64("Min", ZSTD, PointRow::histogramMin))
                .column(float64("Max", ZSTD, PointRow::histogramMax))
                .column(int32("AggregationTemporality", ZSTD, PointRow::aggregationTemporality)));
    }

    static TableSchema<PointRow> exponentialHistogram(SchemaFlavor f) {
        return finish(common(f)
                .column(uint64("Count", ZSTD, PointRow::exponentialCount))
                .column(float64("Sum", ZSTD, PointRow::exponentialSum))
                .column(int32("Scale", ZSTD, PointRow::scale))
                .column(uint64("ZeroCount", ZSTD, PointRow::zeroCount))
                .column(int32("PositiveOffset", ZSTD, PointRow::positiveOffset))
                .column(uint64Array("PositiveBucketCounts", ZSTD, PointRow::positiveBucketCounts))
                .column(int32("NegativeOffset", ZSTD, PointRow::negativeOffset))
                .column(uint64Array("NegativeBucketCounts", ZSTD, PointRow::negativeBucketCounts))
                .column(exemplars(f))
                .column(uint32("Flags", ZSTD, PointRow::flags))
                .column(float64("Min", ZSTD, PointRow::exponentialMin))
                .column(float64("Max", ZSTD, PointRow::exponentialMax))
                .column(int32("AggregationTemporality", ZSTD, PointRow::aggregationTemporality)));
    }

    static TableSchema<PointRow> summary(SchemaFlavor f) {
        return finish(common(f)
                .column(uint64("Count", ZSTD, PointRow::summaryCount))
                .column(float64("Sum", ZSTD, PointRow::summarySum))
                .column(nested(
                        "ValueAtQuantiles",
                        ZSTD,
                        PointRow::quantileCount,
                        nestedFloat64("Quantile", PointRow::quantile),
                        nestedFloat64("Value", PointRow::quantileValue)))
                .column(uint32("Flags", ZSTD, PointRow::flags)));
    }

    private static TableSchema.Builder<PointRow> common(SchemaFlavor f) {
        return TableSchema.<PointRow>builder()
                .columns(attributes("ResourceAttributes", ZSTD, f, PointRow::resourceAttributes))
                .column(string("ResourceSchemaUrl", ZSTD, PointRow::resourceSchemaUrl))
                .column(string("ScopeName", ZSTD, PointRow::scopeName))
                .column(string("ScopeVersion", ZSTD, PointRow::scopeVersion))
                .columns(attributes("ScopeAttributes", ZSTD, f, PointRow::scopeAttributes))
                .column(uint32("ScopeDroppedAttrCount", ZSTD, PointRow::scopeDroppedAttrCount))
                .column(string("ScopeSchemaUrl", ZSTD, PointRow::scopeSchemaUrl))
                .column(lowCardinalityString("ServiceName", ZSTD, PointRow::serviceName))
                .column(lowCardinalityString("MetricName", ZSTD, PointRow::metricName))
                .column(string("MetricDescription", ZSTD, PointRow::metricDescription))
                .column(string("MetricUnit", ZSTD, PointRow::metricUnit))
                .columns(attributes("Attributes", ZSTD, f, PointRow::attributes))
                .column(dateTimeFromNanos("StartTimeUnix", ZSTD, PointRow::startTimeNanos))
                .column(dateTimeFromNanos("TimeUnix", ZSTD, PointRow::timeNanos));
    }

    private static Column<PointRow> exemplars(SchemaFlavor f) {
        return nested(
                "Exemplars",
                ZSTD,
                PointRow::exemplarCount,
                nestedAttributes("FilteredAttributes", f, PointRow::exemplarFilteredAttributes),
                nestedDateTimeFromNanos("TimeUnix", PointRow::exemplarTimeNanos),
                nestedFloat64("Value", PointRow::exemplarValue),
                nestedString("SpanId", PointRow::exemplarSpanId),
                nestedString("TraceId", PointRow::exemplarTraceId));
    }

    private static TableSchema<PointRow> finish(TableSchema.Builder<PointRow> b) {
        return b.partitionBy("tuple()").orderBy("tuple()").settings("").build();
    }
}
