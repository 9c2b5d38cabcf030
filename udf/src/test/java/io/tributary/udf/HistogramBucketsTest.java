package io.tributary.udf;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class HistogramBucketsTest {

    @Test
    void bucketsAreUpperInclusiveAsTheSpanmetricsConnectorPlacesValues() {
        assertThat(HistogramBuckets.bucket(0)).isZero();
        assertThat(HistogramBuckets.bucket(2)).isZero();
        assertThat(HistogramBuckets.bucket(2.000001)).isEqualTo(1);
        assertThat(HistogramBuckets.bucket(4)).isEqualTo(1);
        assertThat(HistogramBuckets.bucket(15_000)).isEqualTo(15);
        assertThat(HistogramBuckets.bucket(15_000.000001)).isEqualTo(16);
        assertThat(HistogramBuckets.bucket(Double.POSITIVE_INFINITY)).isEqualTo(16);
        assertThat(HistogramBuckets.bucket(Double.NaN)).isEqualTo(16);
    }

    @Test
    void accumulatesMergesAndRetracts() {
        HistogramBuckets f = new HistogramBuckets();
        HistogramBuckets.Counts a = f.createAccumulator();
        for (double v : new double[] {1, 2, 3, 50, 20_000}) {
            f.accumulate(a, v);
        }
        f.accumulate(a, null);
        HistogramBuckets.Counts b = f.createAccumulator();
        f.accumulate(b, 2.0);
        f.accumulate(b, 7.5);
        f.merge(a, List.of(b));
        f.retract(a, 3.0);
        assertThat(f.getValue(a)).containsExactly(3, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1);
    }
}
