package io.tributary.testing.oracle;

import io.tributary.tables.Attributes;
import io.tributary.tables.Hex;

import io.opentelemetry.proto.metrics.v1.Exemplar;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.SummaryDataPoint;

import java.util.List;

/**
 * The oracle's row of an {@code otel_metrics_*} table: a view over one protobuf-java data point
 * with its metric, scope and resource, holding the values with the collector exporter's semantics,
 * as the job wrote them before it read the wire format itself. The point accessors read the point
 * of the row's type; reused from point to point.
 */
public final class PointRow {

    // Set once per resource.
    private Attributes resourceAttributes = new Attributes(0);
    private String serviceName = "";
    private String resourceSchemaUrl = "";
    // Set once per scope.
    private Attributes scopeAttributes = new Attributes(0);
    private String scopeName = "";
    private String scopeVersion = "";
    private int scopeDroppedAttrCount;
    private String scopeSchemaUrl = "";
    // Set per metric.
    private Metric metric = Metric.getDefaultInstance();
    private int aggregationTemporality;
    private boolean monotonic;
    // Set per point.
    private final Attributes attributes = new Attributes(16);
    private final Attributes scratch = new Attributes(8);
    private List<Exemplar> exemplars = List.of();
    private NumberDataPoint number = NumberDataPoint.getDefaultInstance();
    private HistogramDataPoint histogram = HistogramDataPoint.getDefaultInstance();
    private ExponentialHistogramDataPoint exponential = ExponentialHistogramDataPoint.getDefaultInstance();
    private SummaryDataPoint summary = SummaryDataPoint.getDefaultInstance();
    private long startNanos;
    private long timeNanos;
    private int flags;

    void setResource(Attributes attrs, String serviceName, String schemaUrl) {
        this.resourceAttributes = attrs;
        this.serviceName = serviceName;
        this.resourceSchemaUrl = schemaUrl;
    }

    void setScope(Attributes attrs, String name, String version, int droppedAttrCount, String schemaUrl) {
        this.scopeAttributes = attrs;
        this.scopeName = name;
        this.scopeVersion = version;
        this.scopeDroppedAttrCount = droppedAttrCount;
        this.scopeSchemaUrl = schemaUrl;
    }

    void setMetric(Metric m, int aggregationTemporality, boolean monotonic) {
        this.metric = m;
        this.aggregationTemporality = aggregationTemporality;
        this.monotonic = monotonic;
    }

    void setNumber(NumberDataPoint p) {
        number = p;
        point(p.getAttributesList(), p.getExemplarsList(), p.getStartTimeUnixNano(), p.getTimeUnixNano(), p.getFlags());
    }

    void setHistogram(HistogramDataPoint p) {
        histogram = p;
        point(p.getAttributesList(), p.getExemplarsList(), p.getStartTimeUnixNano(), p.getTimeUnixNano(), p.getFlags());
    }

    void setExponential(ExponentialHistogramDataPoint p) {
        exponential = p;
        point(p.getAttributesList(), p.getExemplarsList(), p.getStartTimeUnixNano(), p.getTimeUnixNano(), p.getFlags());
    }

    void setSummary(SummaryDataPoint p) {
        summary = p;
        point(p.getAttributesList(), List.of(), p.getStartTimeUnixNano(), p.getTimeUnixNano(), p.getFlags());
    }

    private void point(
            List<io.opentelemetry.proto.common.v1.KeyValue> attrs,
            List<Exemplar> exemplars,
            long start,
            long time,
            int flags) {
        attributes.set(attrs);
        this.exemplars = exemplars;
        this.startNanos = start;
        this.timeNanos = time;
        this.flags = flags;
        for (Exemplar e : exemplars) {
            // validate ids before any byte of the row is written
            Hex.checkLength(e.getSpanId(), Hex.SPAN_ID_BYTES, "exemplars.spanId");
            Hex.checkLength(e.getTraceId(), Hex.TRACE_ID_BYTES, "exemplars.traceId");
        }
    }

    // --- common columns

    public Attributes resourceAttributes() {
        return resourceAttributes;
    }

    public String resourceSchemaUrl() {
        return resourceSchemaUrl;
    }

    public String scopeName() {
        return scopeName;
    }

    public String scopeVersion() {
        return scopeVersion;
    }

    public Attributes scopeAttributes() {
        return scopeAttributes;
    }

    public int scopeDroppedAttrCount() {
        return scopeDroppedAttrCount;
    }

    public String scopeSchemaUrl() {
        return scopeSchemaUrl;
    }

    public String serviceName() {
        return serviceName;
    }

    public String metricName() {
        return metric.getName();
    }

    public String metricDescription() {
        return metric.getDescription();
    }

    public String metricUnit() {
        return metric.getUnit();
    }

    public Attributes attributes() {
        return attributes;
    }

    public long startTimeNanos() {
        return startNanos;
    }

    public long timeNanos() {
        return timeNanos;
    }

    public int flags() {
        return flags;
    }

    /** The metric's aggregation temporality as its enum number (0 for gauges and summaries). */
    public int aggregationTemporality() {
        return aggregationTemporality;
    }

    public boolean isMonotonic() {
        return monotonic;
    }

    // --- exemplars

    public int exemplarCount() {
        return exemplars.size();
    }

    /** The filtered attributes of exemplar {@code i}; valid until the next call. */
    public Attributes exemplarFilteredAttributes(int i) {
        scratch.set(exemplars.get(i).getFilteredAttributesList());
        return scratch;
    }

    public long exemplarTimeNanos(int i) {
        return exemplars.get(i).getTimeUnixNano();
    }

    /** The exemplar's value as a double: an int value converted, no value 0. */
    public double exemplarValue(int i) {
        Exemplar e = exemplars.get(i);
        switch (e.getValueCase()) {
            case AS_DOUBLE:
                return e.getAsDouble();
            case AS_INT:
                return (double) e.getAsInt();
            default:
                return 0.0;
        }
    }

    public String exemplarSpanId(int i) {
        return Hex.idOrZeros(exemplars.get(i).getSpanId(), Hex.SPAN_ID_BYTES, "exemplars.spanId");
    }

    public String exemplarTraceId(int i) {
        return Hex.idOrZeros(exemplars.get(i).getTraceId(), Hex.TRACE_ID_BYTES, "exemplars.traceId");
    }

    // --- gauge and sum

    /** The point's value as a double: an int value converted, no value 0 (the exporter's getValue). */
    public double value() {
        switch (number.getValueCase()) {
            case AS_DOUBLE:
                return number.getAsDouble();
            case AS_INT:
                return (double) number.getAsInt();
            default:
                return 0.0;
        }
    }

    // --- histogram

    public long histogramCount() {
        return histogram.getCount();
    }

    /** The sum, 0 when absent (the exporter does not record presence). */
    public double histogramSum() {
        return histogram.getSum();
    }

    public List<Long> bucketCounts() {
        return histogram.getBucketCountsList();
    }

    public List<Double> explicitBounds() {
        return histogram.getExplicitBoundsList();
    }

    /** The minimum, 0 when absent. */
    public double histogramMin() {
        return histogram.getMin();
    }

    /** The maximum, 0 when absent. */
    public double histogramMax() {
        return histogram.getMax();
    }

    // --- exponential histogram

    public long exponentialCount() {
        return exponential.getCount();
    }

    public double exponentialSum() {
        return exponential.getSum();
    }

    public int scale() {
        return exponential.getScale();
    }

    public long zeroCount() {
        return exponential.getZeroCount();
    }

    public int positiveOffset() {
        return exponential.getPositive().getOffset();
    }

    public List<Long> positiveBucketCounts() {
        return exponential.getPositive().getBucketCountsList();
    }

    public int negativeOffset() {
        return exponential.getNegative().getOffset();
    }

    public List<Long> negativeBucketCounts() {
        return exponential.getNegative().getBucketCountsList();
    }

    public double exponentialMin() {
        return exponential.getMin();
    }

    public double exponentialMax() {
        return exponential.getMax();
    }

    // --- summary

    public long summaryCount() {
        return summary.getCount();
    }

    public double summarySum() {
        return summary.getSum();
    }

    public int quantileCount() {
        return summary.getQuantileValuesCount();
    }

    public double quantile(int i) {
        return summary.getQuantileValues(i).getQuantile();
    }

    public double quantileValue(int i) {
        return summary.getQuantileValues(i).getValue();
    }
}
