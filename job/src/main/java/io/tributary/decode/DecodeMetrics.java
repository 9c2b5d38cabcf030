package io.tributary.decode;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * The decode operator's metrics, under the task's {@code tributary} group and a {@code signal}
 * key group naming the signal (see docs/operations.md, Metrics).
 */
public final class DecodeMetrics {

    /** Kafka records that reached the decoder. */
    public final Counter recordsRead;
    /** Bytes of those records' values. */
    public final Counter bytesRead;
    /** Rows decoded: spans, log records or metric data points. */
    public final Counter rowsDecoded;
    /** Records that could not be decoded (sent to the dead-letter path). */
    public final Counter decodeFailures;

    public DecodeMetrics(MetricGroup group) {
        recordsRead = group.counter("recordsRead");
        bytesRead = group.counter("bytesRead");
        rowsDecoded = group.counter("rowsDecoded");
        decodeFailures = group.counter("decodeFailures");
    }
}
