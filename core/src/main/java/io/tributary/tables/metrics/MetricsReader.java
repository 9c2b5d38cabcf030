package io.tributary.tables.metrics;

import io.tributary.otlp.InvalidOtlpException;
import io.tributary.schema.TableLayout;
import io.tributary.tables.Attributes;
import io.tributary.tables.OtelTable;
import io.tributary.tables.RecordRows;
import io.tributary.tables.TableLayouts;

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

import java.util.List;

/**
 * Turns an OTLP metrics request into rows of the five {@code otel_metrics_*} tables in RowBinary,
 * one row per data point in the table of its metric's type, with the collector exporter's
 * semantics. A metric without data (type unset) has no points and gives no rows. Not thread-safe:
 * one per task.
 */
public final class MetricsReader {

    private final TableLayout<MetricView> gauge;
    private final TableLayout<MetricView> sum;
    private final TableLayout<MetricView> histogram;
    private final TableLayout<MetricView> exponential;
    private final TableLayout<MetricView> summary;
    private final MetricView row = new MetricView();

    /** @param layouts how the five metrics tables are written */
    public MetricsReader(TableLayouts layouts) {
        gauge = layouts.metrics(OtelTable.METRICS_GAUGE);
        sum = layouts.metrics(OtelTable.METRICS_SUM);
        histogram = layouts.metrics(OtelTable.METRICS_HISTOGRAM);
        exponential = layouts.metrics(OtelTable.METRICS_EXPONENTIAL_HISTOGRAM);
        summary = layouts.metrics(OtelTable.METRICS_SUMMARY);
    }

    /**
     * Appends one row per data point of {@code request} to {@code rows}; returns the number of
     * rows. When it throws, {@code rows} may hold partial rows: the caller discards them.
     *
     * @throws InvalidOtlpException for points the exporter would not accept (exemplar ids of
     *     wrong length)
     */
    public int transcode(ExportMetricsServiceRequest request, RecordRows rows) {
        int n = 0;
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
                    n += metric(m, rows);
                }
            }
        }
        return n;
    }

    private int metric(Metric m, RecordRows rows) {
        switch (m.getDataCase()) {
            case GAUGE: {
                row.setMetric(m, 0, false);
                int points = m.getGauge().getDataPointsCount();
                for (int i = 0; i < points; i++) {
                    row.setNumber(m.getGauge().getDataPoints(i));
                    write(gauge, OtelTable.METRICS_GAUGE, rows);
                }
                return points;
            }
            case SUM: {
                Sum s = m.getSum();
                row.setMetric(m, s.getAggregationTemporalityValue(), s.getIsMonotonic());
                for (int i = 0; i < s.getDataPointsCount(); i++) {
                    row.setNumber(s.getDataPoints(i));
                    write(sum, OtelTable.METRICS_SUM, rows);
                }
                return s.getDataPointsCount();
            }
            case HISTOGRAM: {
                Histogram h = m.getHistogram();
                row.setMetric(m, h.getAggregationTemporalityValue(), false);
                for (int i = 0; i < h.getDataPointsCount(); i++) {
                    row.setHistogram(h.getDataPoints(i));
                    write(histogram, OtelTable.METRICS_HISTOGRAM, rows);
                }
                return h.getDataPointsCount();
            }
            case EXPONENTIAL_HISTOGRAM: {
                ExponentialHistogram h = m.getExponentialHistogram();
                row.setMetric(m, h.getAggregationTemporalityValue(), false);
                for (int i = 0; i < h.getDataPointsCount(); i++) {
                    row.setExponential(h.getDataPoints(i));
                    write(exponential, OtelTable.METRICS_EXPONENTIAL_HISTOGRAM, rows);
                }
                return h.getDataPointsCount();
            }
            case SUMMARY: {
                Summary s = m.getSummary();
                row.setMetric(m, 0, false);
                for (int i = 0; i < s.getDataPointsCount(); i++) {
                    row.setSummary(s.getDataPoints(i));
                    write(summary, OtelTable.METRICS_SUMMARY, rows);
                }
                return s.getDataPointsCount();
            }
            default:
                return 0; // no data: nothing to write
        }
    }

    private void write(TableLayout<MetricView> layout, OtelTable table, RecordRows rows) {
        layout.writeRow(row, rows.writer(table));
        rows.rowAdded(table);
    }
}
