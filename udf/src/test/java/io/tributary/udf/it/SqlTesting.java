package io.tributary.udf.it;

import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What the SQL integration tests share: a MiniCluster whose metrics they can read, and results as lists. */
final class SqlTesting {

    private SqlTesting() {}

    /** A MiniCluster of one TaskManager with four slots, reporting to {@code reporter}. */
    static MiniClusterExtension miniCluster(InMemoryReporter reporter) {
        return new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                .setConfiguration(reporter.addToConfiguration(new Configuration()))
                .setNumberTaskManagers(1)
                .setNumberSlotsPerTaskManager(4)
                .build());
    }

    /** The counters named {@code name} of {@code job}'s operators, summed (kept after the job ends). */
    static long counter(InMemoryReporter reporter, JobID job, String name) {
        long n = 0;
        for (Map.Entry<MetricGroup, Map<String, Metric>> g : reporter.getMetricsByGroup().entrySet()) {
            Metric m = g.getValue().get(name);
            if (m instanceof Counter && job.toString().equals(g.getKey().getAllVariables().get("<job_id>"))) {
                n += ((Counter) m).getCount();
            }
        }
        return n;
    }

    /** Every row of a (bounded) result. */
    static List<Row> collect(TableResult r) throws Exception {
        List<Row> out = new ArrayList<>();
        try (CloseableIterator<Row> it = r.collect()) {
            it.forEachRemaining(out::add);
        }
        return out;
    }
}
