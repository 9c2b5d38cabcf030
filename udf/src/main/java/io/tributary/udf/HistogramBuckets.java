package io.tributary.udf;

import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.FunctionHint;
import org.apache.flink.table.functions.AggregateFunction;

import java.util.Arrays;

/**
 * {@code HISTOGRAM_BUCKETS(value DOUBLE)}: an aggregate of the bucket counts of an explicit-bounds
 * histogram, as OTLP and the exporter's {@code BucketCounts} hold them: one count per bucket,
 * {@code bounds.length + 1} of them, bucket {@code i} holding the values in {@code (bounds[i-1],
 * bounds[i]]} (a value equal to a bound counts in that bound's bucket, as the spanmetrics
 * connector's {@code sort.SearchFloat64s} places it) and the last one those above every bound.
 * The bounds are the spanmetrics connector's defaults in milliseconds, {@link #DEFAULT_BOUNDS_MS}.
 * NULL values are not counted.
 *
 * <pre>{@code
 * CREATE TEMPORARY SYSTEM FUNCTION HISTOGRAM_BUCKETS AS 'io.tributary.udf.HistogramBuckets';
 * SELECT ServiceName, HISTOGRAM_BUCKETS(Duration / 1e6) FROM spans GROUP BY ServiceName;
 * }</pre>
 */
@FunctionHint(output = @DataTypeHint(value = "ARRAY<BIGINT NOT NULL>", bridgedTo = long[].class))
public final class HistogramBuckets extends AggregateFunction<long[], HistogramBuckets.Counts> {
    private static final long serialVersionUID = 1L;

    /** The spanmetrics connector's default explicit buckets for durations in milliseconds. */
    public static final double[] DEFAULT_BOUNDS_MS = {2, 4, 6, 8, 10, 50, 100, 200, 400, 800, 1000, 1400, 2000, 5000, 10_000, 15_000};

    /** The accumulator: a count per bucket. */
    public static final class Counts {
        public @DataTypeHint(value = "ARRAY<BIGINT NOT NULL>", bridgedTo = long[].class) long[] counts = new long[DEFAULT_BOUNDS_MS.length + 1];
    }

    @Override
    public Counts createAccumulator() {
        return new Counts();
    }

    public void accumulate(Counts acc, Double value) {
        if (value != null) {
            acc.counts[bucket(value)]++;
        }
    }

    public void retract(Counts acc, Double value) {
        if (value != null) {
            acc.counts[bucket(value)]--;
        }
    }

    public void merge(Counts acc, Iterable<Counts> others) {
        for (Counts o : others) {
            for (int i = 0; i < acc.counts.length; i++) {
                acc.counts[i] += o.counts[i];
            }
        }
    }

    @Override
    public long[] getValue(Counts acc) {
        return acc.counts.clone();
    }

    /** The bucket of {@code v}: the first bound not below it (NaN goes last, as Go's search puts it). */
    static int bucket(double v) {
        int i = Arrays.binarySearch(DEFAULT_BOUNDS_MS, v);
        return i >= 0 ? i : -i - 1;
    }
}
