package io.tributary.udf;

import io.tributary.otlp.Signal;

/**
 * {@code OTLP_METRIC_POINTS(record BYTES)}: the data points of one Kafka record of OTLP metrics, one
 * row each. {@code MetricType} names the exporter table the point goes to ({@code gauge}, {@code
 * sum}, {@code histogram}, {@code exponential_histogram}, {@code summary}); the other columns are
 * the union of the five {@code otel_metrics_*} tables' columns, with the job's values, and NULL
 * where the point's table has no such column ({@code Value} of a histogram, {@code BucketCounts} of
 * a gauge).
 *
 * <pre>{@code
 * CREATE TEMPORARY SYSTEM FUNCTION OTLP_METRIC_POINTS AS 'io.tributary.udf.OtlpMetricPoints';
 * SELECT p.MetricName, p.Attributes['http.route'] AS route, p.`Count`, p.`Sum`
 * FROM otlp_metrics_topic, LATERAL TABLE(OTLP_METRIC_POINTS(`value`)) AS p
 * WHERE p.MetricType = 'histogram';
 * }</pre>
 */
public final class OtlpMetricPoints extends OtlpTableFunction {
    private static final long serialVersionUID = 1L;

    public OtlpMetricPoints() {
        super(Signal.METRICS);
    }
}
