package io.tributary.metrics;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/** The decode operator's metrics, under the task's {@code tributary} group (see README). */
public final class DecodeMetrics {

    /** Kafka records that reached the decoder. */
    public final Counter recordsRead;
    /** Bytes of those records' values. */
    public final Counter bytesRead;
    /** Spans decoded into rows. */
    public final Counter spansDecoded;
    /** Records that could not be decoded (sent to the dead-letter path). */
    public final Counter decodeFailures;

    public DecodeMetrics(MetricGroup group) {
        recordsRead = group.counter("recordsRead");
        bytesRead = group.counter("bytesRead");
        spansDecoded = group.counter("spansDecoded");
        decodeFailures = group.counter("decodeFailures");
    }
}
