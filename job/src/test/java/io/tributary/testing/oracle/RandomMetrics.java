package io.tributary.testing.oracle;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Exemplar;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogram;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.Sum;
import io.opentelemetry.proto.metrics.v1.Summary;
import io.opentelemetry.proto.metrics.v1.SummaryDataPoint;
import io.opentelemetry.proto.resource.v1.Resource;

import java.util.SplittableRandom;

/**
 * Generated metrics requests for the differential tests, values and attributes from {@link
 * RandomOtlp}: every metric type and a metric without data, metadata, several resources (or none)
 * and scopes (or none), aggregation temporalities beyond the enum, flags of every width, values
 * absent, int or double (NaN, infinities, -0, extremes), optional sums, minima and maxima present
 * or not, histograms with bounds and counts of any length, exponential histograms with negative
 * scales, offsets and buckets, summaries with quantiles, exemplars with and without ids and values,
 * now and then an id of a wrong length.
 */
final class RandomMetrics {

    private static final double[] DOUBLES = {0.0, -0.0, 1.5, -2.25, 1e21, 1e-7, 123456.789, Double.NaN,
        Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, Double.MAX_VALUE, 100.0, 0.1};
    private static final long[] LONGS = {0, 1, -1, 42, 127, 128, 16_384, Long.MIN_VALUE, Long.MAX_VALUE, -123456789012L};
    private static final int[] INTS = {0, 1, -1, 20, -20, 127, 128, Integer.MIN_VALUE, Integer.MAX_VALUE};

    private final RandomOtlp gen;
    private final SplittableRandom random;

    RandomMetrics(RandomOtlp gen, SplittableRandom random) {
        this.gen = gen;
        this.random = random;
    }

    ExportMetricsServiceRequest request() {
        ExportMetricsServiceRequest.Builder req = ExportMetricsServiceRequest.newBuilder();
        for (int r = random.nextInt(3) + 1; r > 0; r--) {
            ResourceMetrics.Builder rm = ResourceMetrics.newBuilder();
            if (random.nextInt(5) > 0) {
                Resource.Builder res = Resource.newBuilder().addAllAttributes(gen.attributes(6));
                if (random.nextBoolean()) {
                    res.addAttributes(KeyValue.newBuilder().setKey("service.name").setValue(gen.value(0)));
                }
                res.setDroppedAttributesCount(random.nextInt(3));
                rm.setResource(res);
            }
            rm.setSchemaUrl(random.nextBoolean() ? "" : gen.string());
            for (int s = random.nextInt(3); s >= 0; s--) {
                ScopeMetrics.Builder sm = ScopeMetrics.newBuilder();
                if (random.nextInt(4) > 0) {
                    sm.setScope(InstrumentationScope.newBuilder().setName(gen.string()).setVersion(gen.string())
                            .addAllAttributes(gen.attributes(3))
                            .setDroppedAttributesCount(random.nextInt(4) == 0 ? bigInt() : random.nextInt(3)));
                }
                sm.setSchemaUrl(random.nextBoolean() ? "" : gen.string());
                for (int n = random.nextInt(5); n > 0; n--) {
                    sm.addMetrics(metric());
                }
                rm.addScopeMetrics(sm);
            }
            req.addResourceMetrics(rm);
        }
        return req.build();
    }

    Metric metric() {
        Metric.Builder m = Metric.newBuilder().setName(random.nextInt(6) == 0 ? gen.string() : "metric." + random.nextInt(20))
                .setDescription(random.nextBoolean() ? "" : gen.string())
                .setUnit(random.nextBoolean() ? "" : random.nextBoolean() ? "ms" : gen.string());
        if (random.nextInt(5) == 0) {
            m.addAllMetadata(gen.attributes(3));
        }
        switch (random.nextInt(11)) {
            case 0:
            case 1: {
                Gauge.Builder g = Gauge.newBuilder();
                for (int i = points(); i > 0; i--) {
                    g.addDataPoints(number());
                }
                return m.setGauge(g).build();
            }
            case 2:
            case 3: {
                Sum.Builder s = Sum.newBuilder().setAggregationTemporalityValue(temporality())
                        .setIsMonotonic(random.nextBoolean());
                for (int i = points(); i > 0; i--) {
                    s.addDataPoints(number());
                }
                return m.setSum(s).build();
            }
            case 4:
            case 5: {
                Histogram.Builder h = Histogram.newBuilder().setAggregationTemporalityValue(temporality());
                for (int i = points(); i > 0; i--) {
                    h.addDataPoints(histogram());
                }
                return m.setHistogram(h).build();
            }
            case 6:
            case 7: {
                ExponentialHistogram.Builder h = ExponentialHistogram.newBuilder().setAggregationTemporalityValue(temporality());
                for (int i = points(); i > 0; i--) {
                    h.addDataPoints(exponential());
                }
                return m.setExponentialHistogram(h).build();
            }
            case 8:
            case 9: {
                Summary.Builder s = Summary.newBuilder();
                for (int i = points(); i > 0; i--) {
                    s.addDataPoints(summary());
                }
                return m.setSummary(s).build();
            }
            default:
                return m.build(); // no data
        }
    }

    private int points() {
        return random.nextInt(8) == 0 ? 0 : random.nextInt(4) + 1;
    }

    private int temporality() {
        int[] ts = {0, 1, 2, 2, 1, 3, 99, -1, Integer.MAX_VALUE};
        return ts[random.nextInt(ts.length)];
    }

    private int bigInt() {
        return INTS[random.nextInt(INTS.length)];
    }

    private int flags() {
        return random.nextInt(4) == 0 ? random.nextInt() : random.nextInt(2);
    }

    private double aDouble() {
        return random.nextInt(3) == 0 ? random.nextDouble() * 1000 : DOUBLES[random.nextInt(DOUBLES.length)];
    }

    private long aLong() {
        return random.nextInt(3) == 0 ? random.nextLong() : LONGS[random.nextInt(LONGS.length)];
    }

    private long count() {
        return random.nextInt(4) == 0 ? aLong() : random.nextInt(10_000);
    }

    NumberDataPoint number() {
        NumberDataPoint.Builder p = NumberDataPoint.newBuilder().addAllAttributes(gen.attributes(5))
                .setStartTimeUnixNano(gen.time()).setTimeUnixNano(gen.time()).setFlags(flags());
        switch (random.nextInt(3)) {
            case 0:
                p.setAsDouble(aDouble());
                break;
            case 1:
                p.setAsInt(aLong());
                break;
            default:
                break; // no value
        }
        for (int e = exemplarCount(); e > 0; e--) {
            p.addExemplars(exemplar());
        }
        return p.build();
    }

    HistogramDataPoint histogram() {
        HistogramDataPoint.Builder p = HistogramDataPoint.newBuilder().addAllAttributes(gen.attributes(5))
                .setStartTimeUnixNano(gen.time()).setTimeUnixNano(gen.time()).setFlags(flags())
                .setCount(count());
        if (random.nextInt(3) > 0) {
            p.setSum(aDouble());
        }
        int bounds = random.nextInt(6) == 0 ? 0 : random.nextInt(20);
        double b = -random.nextInt(100);
        for (int i = 0; i < bounds; i++) {
            b += random.nextInt(5) == 0 ? aDouble() : random.nextInt(1000);
            p.addExplicitBounds(b);
        }
        // usually one count more than bounds, as the spec wants; not always, as senders do
        int counts = random.nextInt(5) == 0 ? random.nextInt(25) : bounds + 1;
        for (int i = 0; i < counts; i++) {
            p.addBucketCounts(count());
        }
        if (random.nextBoolean()) {
            p.setMin(aDouble());
        }
        if (random.nextBoolean()) {
            p.setMax(aDouble());
        }
        for (int e = exemplarCount(); e > 0; e--) {
            p.addExemplars(exemplar());
        }
        return p.build();
    }

    ExponentialHistogramDataPoint exponential() {
        ExponentialHistogramDataPoint.Builder p = ExponentialHistogramDataPoint.newBuilder()
                .addAllAttributes(gen.attributes(5))
                .setStartTimeUnixNano(gen.time()).setTimeUnixNano(gen.time()).setFlags(flags())
                .setCount(count()).setScale(random.nextInt(4) == 0 ? bigInt() : random.nextInt(30) - 10)
                .setZeroCount(count());
        if (random.nextInt(3) > 0) {
            p.setSum(aDouble());
        }
        if (random.nextBoolean()) {
            p.setZeroThreshold(aDouble());
        }
        if (random.nextInt(4) > 0) {
            p.setPositive(buckets());
        }
        if (random.nextBoolean()) {
            p.setNegative(buckets());
        }
        if (random.nextBoolean()) {
            p.setMin(aDouble());
        }
        if (random.nextBoolean()) {
            p.setMax(aDouble());
        }
        for (int e = exemplarCount(); e > 0; e--) {
            p.addExemplars(exemplar());
        }
        return p.build();
    }

    private ExponentialHistogramDataPoint.Buckets buckets() {
        ExponentialHistogramDataPoint.Buckets.Builder b = ExponentialHistogramDataPoint.Buckets.newBuilder()
                .setOffset(random.nextInt(4) == 0 ? bigInt() : random.nextInt(200) - 100);
        for (int i = random.nextInt(6) == 0 ? 0 : random.nextInt(40); i > 0; i--) {
            b.addBucketCounts(count());
        }
        return b.build();
    }

    SummaryDataPoint summary() {
        SummaryDataPoint.Builder p = SummaryDataPoint.newBuilder().addAllAttributes(gen.attributes(5))
                .setStartTimeUnixNano(gen.time()).setTimeUnixNano(gen.time()).setFlags(flags())
                .setCount(count()).setSum(aDouble());
        for (int i = random.nextInt(6); i > 0; i--) {
            SummaryDataPoint.ValueAtQuantile.Builder q = SummaryDataPoint.ValueAtQuantile.newBuilder();
            if (random.nextInt(5) > 0) {
                q.setQuantile(random.nextInt(3) == 0 ? aDouble() : random.nextInt(101) / 100.0);
            }
            if (random.nextInt(5) > 0) {
                q.setValue(aDouble());
            }
            p.addQuantileValues(q);
        }
        return p.build();
    }

    private int exemplarCount() {
        return random.nextInt(3) == 0 ? random.nextInt(4) : 0;
    }

    Exemplar exemplar() {
        Exemplar.Builder e = Exemplar.newBuilder().addAllFilteredAttributes(gen.attributes(3)).setTimeUnixNano(gen.time())
                .setSpanId(random.nextInt(300) == 0 ? wrongId() : gen.id(8))
                .setTraceId(random.nextInt(300) == 0 ? wrongId() : gen.id(16));
        switch (random.nextInt(3)) {
            case 0:
                e.setAsDouble(aDouble());
                break;
            case 1:
                e.setAsInt(aLong());
                break;
            default:
                break; // no value
        }
        return e.build();
    }

    /** An id of a length pdata refuses. */
    private ByteString wrongId() {
        int[] lengths = {1, 7, 9, 15, 17, 32};
        byte[] b = new byte[lengths[random.nextInt(lengths.length)]];
        random.nextBytes(b);
        return ByteString.copyFrom(b);
    }
}
