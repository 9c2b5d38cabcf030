package io.tributary.metrics;

import io.tributary.clickhouse.ClickHouseClient;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

import java.util.function.LongSupplier;

/**
 * Each ClickHouse endpoint's health, under the sink's {@code tributary} group and its {@code
 * endpoint} key group (host:port): {@code healthy} (1, or 0 while taken out after a failure),
 * {@code requests}, {@code errors} and {@code latencyMs}. In Prometheus:
 * {@code flink_taskmanager_job_task_operator_tributary_endpoint_healthy{endpoint="ch-1:8123"}}.
 */
public final class EndpointMetrics {

    private EndpointMetrics() {}

    /** Registers the metrics of every endpoint of {@code client}. */
    public static void register(MetricGroup tributary, ClickHouseClient client) {
        for (ClickHouseClient.EndpointState e : client.endpoints()) {
            MetricGroup g = tributary.addGroup("endpoint", e.label());
            g.gauge("healthy", () -> e.healthy() ? 1 : 0);
            g.counter("requests", new ReadOnlyCounter(e::requests));
            g.counter("errors", new ReadOnlyCounter(e::errors));
            Histogram latency = g.histogram("latencyMs", new DescriptiveStatisticsHistogram(1000));
            e.onLatency(latency::update);
        }
    }

    /** A counter kept by the client, shown as a Flink counter. */
    private static final class ReadOnlyCounter implements Counter {
        private final LongSupplier count;

        ReadOnlyCounter(LongSupplier count) {
            this.count = count;
        }

        @Override
        public void inc() {
            throw new UnsupportedOperationException("counted by the ClickHouse client");
        }

        @Override
        public void inc(long n) {
            throw new UnsupportedOperationException("counted by the ClickHouse client");
        }

        @Override
        public void dec() {
            throw new UnsupportedOperationException("counted by the ClickHouse client");
        }

        @Override
        public void dec(long n) {
            throw new UnsupportedOperationException("counted by the ClickHouse client");
        }

        @Override
        public long getCount() {
            return count.getAsLong();
        }
    }
}
