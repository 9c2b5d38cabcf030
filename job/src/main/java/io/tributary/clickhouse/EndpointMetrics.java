package io.tributary.clickhouse;


import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

import java.util.concurrent.atomic.LongAdder;

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
            g.counter("requests", new AdderCounter(e.requests()));
            g.counter("errors", new AdderCounter(e.errors()));
            Histogram latency = g.histogram("latencyMs", new DescriptiveStatisticsHistogram(1000));
            e.onLatency(latency::update);
        }
    }

    /** The client's own count (thread-safe, uncontended), as a Flink counter. */
    private static final class AdderCounter implements Counter {
        private final LongAdder count;

        AdderCounter(LongAdder count) {
            this.count = count;
        }

        @Override
        public void inc() {
            count.increment();
        }

        @Override
        public void inc(long n) {
            count.add(n);
        }

        @Override
        public void dec() {
            count.decrement();
        }

        @Override
        public void dec(long n) {
            count.add(-n);
        }

        @Override
        public long getCount() {
            return count.sum();
        }
    }
}
