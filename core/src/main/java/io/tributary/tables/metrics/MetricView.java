package io.tributary.tables.metrics;

import io.tributary.otlp.Ids;
import io.tributary.otlp.InvalidOtlpException;
import io.tributary.otlp.InvalidProtobufException;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.schema.AttributeValue;
import io.tributary.tables.Hex;
import io.tributary.tables.WireAttributes;
import io.tributary.tables.WireEnvelope;
import io.tributary.tables.WireValues;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One row of an {@code otel_metrics_*} table read where it lies in a protobuf record: a data
 * point's fields as ranges and numbers, with its metric's, scope's and resource's, and writers of
 * the column values with the collector exporter's semantics (the same values the differential
 * tests' oracle reads from protobuf-java messages). The point columns read the point of the row's
 * type. Reused from point to point; see {@link MetricsReader}.
 */
public final class MetricView {

    private static final byte[] ZERO_SPAN_ID = "0".repeat(2 * Ids.SPAN_ID_BYTES).getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ZERO_TRACE_ID = "0".repeat(2 * Ids.TRACE_ID_BYTES).getBytes(StandardCharsets.US_ASCII);

    private final WireValues values;
    private byte[] buf;
    // the resource
    final WireAttributes resourceAttributes;
    private final RowBinaryWriter serviceName = new RowBinaryWriter(64);
    int resourceSchemaUrlStart;
    int resourceSchemaUrlLength;
    // the scope
    final WireAttributes scopeAttributes;
    final WireEnvelope.Scope scope = new WireEnvelope.Scope();
    int scopeSchemaUrlStart;
    int scopeSchemaUrlLength;
    // the metric
    int nameStart;
    int nameLength;
    int descriptionStart;
    int descriptionLength;
    int unitStart;
    int unitLength;
    int aggregationTemporality;
    boolean monotonic;
    // the point: what every type has
    final WireAttributes attributes;
    long start;
    long time;
    int flags;
    // a number point's value: the last of its oneof's fields, as bits
    static final int NO_VALUE = 0;
    static final int AS_DOUBLE = 1;
    static final int AS_INT = 2;
    int valueCase;
    long valueBits;
    // histograms and summaries
    long count;
    double sum;
    double min;
    double max;
    final LongValues bucketCounts = new LongValues();
    final LongValues explicitBounds = new LongValues();
    int scale;
    long zeroCount;
    int positiveOffset;
    final LongValues positiveBucketCounts = new LongValues();
    int negativeOffset;
    final LongValues negativeBucketCounts = new LongValues();
    /** Quantile, value, quantile, value... as read; {@link #quantileCount} pairs. */
    double[] quantiles = new double[16];
    int quantileCount;
    // exemplars, read with their point
    int exemplarCount;
    long[] exemplarTime = new long[4];
    double[] exemplarValue = new double[4];
    /** Per exemplar: span id start, length, trace id start, length. */
    int[] exemplarIds = new int[16];
    WireAttributes[] exemplarAttributes = new WireAttributes[0];

    MetricView(WireValues values) {
        this.values = values;
        this.resourceAttributes = new WireAttributes(values, true);
        this.scopeAttributes = new WireAttributes(values, true);
        this.attributes = new WireAttributes(values, false);
    }

    void setBuffer(byte[] buf) {
        this.buf = buf;
    }

    /** The resource's {@code service.name}, rendered once per resource. */
    void renderServiceName() throws InvalidProtobufException {
        serviceName.reset();
        resourceAttributes.writeValueOf(WireAttributes.SERVICE_NAME, serviceName);
    }

    /** Forgets the previous metric's fields. */
    void newMetric() {
        nameStart = nameLength = descriptionStart = descriptionLength = unitStart = unitLength = 0;
        aggregationTemporality = 0;
        monotonic = false;
    }

    /** Forgets the previous point's fields. */
    void newPoint() {
        start = time = 0;
        flags = 0;
        valueCase = NO_VALUE;
        valueBits = 0;
        count = 0;
        sum = min = max = 0.0;
        bucketCounts.clear();
        explicitBounds.clear();
        scale = 0;
        zeroCount = 0;
        positiveOffset = negativeOffset = 0;
        positiveBucketCounts.clear();
        negativeBucketCounts.clear();
        quantileCount = 0;
        exemplarCount = 0;
    }

    /**
     * Gives back the exemplar arrays after a record that needed many (one point of a hostile record
     * may list a million exemplars): a reused view must not keep them.
     */
    void release() {
        if (exemplarAttributes.length > RETAINED) {
            exemplarAttributes = new WireAttributes[0];
            exemplarTime = new long[4];
            exemplarValue = new double[4];
            exemplarIds = new int[16];
        }
    }

    private static final int RETAINED = 64;

    /** Room for one more exemplar; returns its index. */
    int addExemplar() {
        int i = exemplarCount++;
        if (exemplarTime.length < exemplarCount) {
            int c = exemplarCount * 2;
            exemplarTime = Arrays.copyOf(exemplarTime, c);
            exemplarValue = Arrays.copyOf(exemplarValue, c);
            exemplarIds = Arrays.copyOf(exemplarIds, 4 * c);
        }
        if (exemplarAttributes.length < exemplarCount) {
            WireAttributes[] a = Arrays.copyOf(exemplarAttributes, Math.max(exemplarCount, 2 * exemplarAttributes.length));
            for (int k = exemplarAttributes.length; k < a.length; k++) {
                a[k] = new WireAttributes(values, false);
            }
            exemplarAttributes = a;
        }
        return i;
    }

    void addQuantile(double quantile, double value) {
        if (quantiles.length < 2 * quantileCount + 2) {
            quantiles = Arrays.copyOf(quantiles, 4 * quantileCount + 4);
        }
        quantiles[2 * quantileCount] = quantile;
        quantiles[2 * quantileCount + 1] = value;
        quantileCount++;
    }

    /**
     * Checks the exemplars' ids: empty or of their size, as pdata requires; before any byte of
     * the point's row is written.
     */
    void checkExemplarIds() {
        for (int i = 0; i < exemplarCount; i++) {
            checkId(exemplarIds[4 * i + 1], Ids.SPAN_ID_BYTES, "exemplars.spanId");
            checkId(exemplarIds[4 * i + 3], Ids.TRACE_ID_BYTES, "exemplars.traceId");
        }
    }

    private static void checkId(int length, int expected, String field) {
        if (length != 0 && length != expected) {
            throw new InvalidOtlpException(field + " must be " + expected + " bytes, got " + length);
        }
    }

    // ---- column values (written by MetricsSchema's columns)

    public AttributeValue resourceAttributes() {
        return resourceAttributes;
    }

    public void writeResourceSchemaUrl(RowBinaryWriter out) {
        WireValues.writeString(buf, resourceSchemaUrlStart, resourceSchemaUrlLength, out);
    }

    public void writeScopeName(RowBinaryWriter out) {
        WireValues.writeString(buf, scope.nameStart, scope.nameLength, out);
    }

    public void writeScopeVersion(RowBinaryWriter out) {
        WireValues.writeString(buf, scope.versionStart, scope.versionLength, out);
    }

    public AttributeValue scopeAttributes() {
        return scopeAttributes;
    }

    public int scopeDroppedAttrCount() {
        return scope.droppedAttributesCount;
    }

    public void writeScopeSchemaUrl(RowBinaryWriter out) {
        WireValues.writeString(buf, scopeSchemaUrlStart, scopeSchemaUrlLength, out);
    }

    public void writeServiceName(RowBinaryWriter out) {
        out.writeRaw(serviceName.buffer(), 0, serviceName.size());
    }

    public void writeMetricName(RowBinaryWriter out) {
        WireValues.writeString(buf, nameStart, nameLength, out);
    }

    public void writeMetricDescription(RowBinaryWriter out) {
        WireValues.writeString(buf, descriptionStart, descriptionLength, out);
    }

    public void writeMetricUnit(RowBinaryWriter out) {
        WireValues.writeString(buf, unitStart, unitLength, out);
    }

    public AttributeValue attributes() {
        return attributes;
    }

    public long startTimeNanos() {
        return start;
    }

    public long timeNanos() {
        return time;
    }

    public int flags() {
        return flags;
    }

    /** The metric's aggregation temporality as its enum number, unknown ones too (0 for gauges and summaries). */
    public int aggregationTemporality() {
        return aggregationTemporality;
    }

    public boolean isMonotonic() {
        return monotonic;
    }

    // ---- exemplars

    public int exemplarCount() {
        return exemplarCount;
    }

    public AttributeValue exemplarFilteredAttributes(int i) {
        return exemplarAttributes[i];
    }

    public long exemplarTimeNanos(int i) {
        return exemplarTime[i];
    }

    /** The exemplar's value as a double: an int value converted, no value 0. */
    public double exemplarValue(int i) {
        return exemplarValue[i];
    }

    public void writeExemplarSpanId(int i, RowBinaryWriter out) {
        writeIdOrZeros(exemplarIds[4 * i], exemplarIds[4 * i + 1], ZERO_SPAN_ID, out);
    }

    public void writeExemplarTraceId(int i, RowBinaryWriter out) {
        writeIdOrZeros(exemplarIds[4 * i + 2], exemplarIds[4 * i + 3], ZERO_TRACE_ID, out);
    }

    /**
     * An id as {@code hex.EncodeToString(id[:])} gives it for a fixed-size pdata id: its hex
     * digits, or zeros when it is absent (what the exporter writes for exemplar ids).
     */
    private void writeIdOrZeros(int start, int length, byte[] zeros, RowBinaryWriter out) {
        for (int k = start; k < start + length; k++) {
            if (buf[k] != 0) {
                Hex.write(buf, start, length, out);
                return;
            }
        }
        out.writeString(zeros);
    }

    // ---- gauge and sum

    /** The point's value as a double: an int value converted, no value 0 (the exporter's getValue). */
    public double value() {
        switch (valueCase) {
            case AS_DOUBLE:
                return Double.longBitsToDouble(valueBits);
            case AS_INT:
                return (double) valueBits;
            default:
                return 0.0;
        }
    }

    // ---- histogram, exponential histogram and summary

    public long count() {
        return count;
    }

    /** The sum, 0 when absent (the exporter does not record presence). */
    public double sum() {
        return sum;
    }

    /** The minimum, 0 when absent. */
    public double min() {
        return min;
    }

    /** The maximum, 0 when absent. */
    public double max() {
        return max;
    }

    public void writeBucketCounts(RowBinaryWriter out) {
        bucketCounts.write(out);
    }

    public void writeExplicitBounds(RowBinaryWriter out) {
        explicitBounds.write(out);
    }

    public int scale() {
        return scale;
    }

    public long zeroCount() {
        return zeroCount;
    }

    public int positiveOffset() {
        return positiveOffset;
    }

    public void writePositiveBucketCounts(RowBinaryWriter out) {
        positiveBucketCounts.write(out);
    }

    public int negativeOffset() {
        return negativeOffset;
    }

    public void writeNegativeBucketCounts(RowBinaryWriter out) {
        negativeBucketCounts.write(out);
    }

    public int quantileCount() {
        return quantileCount;
    }

    public double quantile(int i) {
        return quantiles[2 * i];
    }

    public double quantileValue(int i) {
        return quantiles[2 * i + 1];
    }
}
