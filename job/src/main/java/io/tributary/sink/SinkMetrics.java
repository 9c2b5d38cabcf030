package io.tributary.sink;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The sink's metrics, registered under the task's {@code tributary} group, and per table under
 * its {@code table} key group ({@code rowsWritten}, {@code batchesSent}, {@code bytesUncompressed},
 * {@code bytesCompressed}, {@code rowsBuffered}). Names are documented in docs/operations.md (Metrics); they are part
 * of the interface dashboards depend on. Updated from the writer thread and from sender threads,
 * so every metric here is thread-safe.
 */
public final class SinkMetrics {

    /** Rows ClickHouse accepted. */
    public final Counter rowsWritten;
    /** INSERT requests that succeeded. */
    public final Counter batchesSent;
    /** RowBinary bytes before compression, of accepted batches. */
    public final Counter bytesUncompressed;
    /** Request body bytes after compression, of accepted batches. */
    public final Counter bytesCompressed;
    /** INSERT attempts that failed and were retried. */
    public final Counter retries;
    /** Batches (or parts) sent in halves after memory or size refusals. */
    public final Counter batchesSplit;
    /**
     * Rows of INSERTs that ClickHouse reported as not written, repeats it had stored before (its
     * summary of 26.7 still counts a dropped repeat's rows as written, so there this stays 0).
     */
    public final Counter rowsDeduplicated;
    /** Records whose rows ClickHouse refused for good, set aside (to the dead-letter topic). */
    public final Counter deadLetters;
    private final Histogram insertLatencyMs;
    private final Histogram batchRows;
    private final AtomicLong rowsBuffered = new AtomicLong();
    private final AtomicLong inFlight = new AtomicLong();
    private final TableMetrics[] tables;
    private final java.util.Map<String, Counter> retriesByCause = new java.util.HashMap<>();

    /**
     * Why INSERT attempts are retried, the {@code cause} key group of {@code insertRetries}: no
     * connection, a timeout (the server may have stored the rows: the retry waits and carries the
     * same deduplication token), memory or size, a retryable ClickHouse error, an HTTP error from
     * something in front of ClickHouse, and an answer that did not come from ClickHouse or reported
     * fewer rows than sent.
     */
    public static final List<String> RETRY_CAUSES = List.of("connection", "timeout", "memory", "clickhouse", "http", "answer");

    /** Counts a retried attempt and its cause (one of {@link #RETRY_CAUSES}). */
    public void retry(String cause) {
        retries.inc();
        Counter c = retriesByCause.get(cause);
        if (c != null) {
            c.inc();
        }
    }

    /** @param tableNames the sink's tables, by index; "" for a table whose signal does not run */
    public SinkMetrics(MetricGroup group, List<String> tableNames) {
        this.tables = new TableMetrics[tableNames.size()];
        for (int t = 0; t < tables.length; t++) {
            if (!tableNames.get(t).isEmpty()) {
                tables[t] = new TableMetrics(group.addGroup("table", tableNames.get(t)));
            }
        }
        rowsWritten = group.counter("rowsWritten", new ThreadSafeSimpleCounter());
        batchesSent = group.counter("batchesSent", new ThreadSafeSimpleCounter());
        bytesUncompressed = group.counter("bytesUncompressed", new ThreadSafeSimpleCounter());
        bytesCompressed = group.counter("bytesCompressed", new ThreadSafeSimpleCounter());
        retries = group.counter("insertRetries", new ThreadSafeSimpleCounter());
        for (String cause : RETRY_CAUSES) {
            retriesByCause.put(cause, group.addGroup("cause", cause).counter("insertRetries", new ThreadSafeSimpleCounter()));
        }
        batchesSplit = group.counter("batchesSplit", new ThreadSafeSimpleCounter());
        deadLetters = group.counter("deadLetters", new ThreadSafeSimpleCounter());
        rowsDeduplicated = group.counter("rowsDeduplicated", new ThreadSafeSimpleCounter());
        insertLatencyMs = group.histogram("insertLatencyMs", new DescriptiveStatisticsHistogram(1000));
        batchRows = group.histogram("batchRows", new DescriptiveStatisticsHistogram(1000));
        group.gauge("rowsBuffered", rowsBuffered::get);
        group.gauge("insertsInFlight", inFlight::get);
    }

    public void buffered(int table, long delta) {
        rowsBuffered.addAndGet(delta);
        TableMetrics t = tables[table];
        if (t != null) {
            t.rowsBuffered.addAndGet(delta);
        }
    }

    public void inFlight(long delta) {
        inFlight.addAndGet(delta);
    }

    /** Records an accepted batch. */
    public synchronized void sent(int table, int rows, long uncompressed, long compressed, long latencyMs) {
        TableMetrics t = tables[table];
        // null: a table whose signal no longer runs, written from a checkpoint taken when it did
        if (t != null) {
            t.rowsWritten.inc(rows);
            t.batchesSent.inc();
            t.bytesUncompressed.inc(uncompressed);
            t.bytesCompressed.inc(compressed);
        }
        rowsWritten.inc(rows);
        batchesSent.inc();
        bytesUncompressed.inc(uncompressed);
        bytesCompressed.inc(compressed);
        insertLatencyMs.update(latencyMs);
        batchRows.update(rows);
    }

    /** One table's share. */
    private static final class TableMetrics {
        final Counter rowsWritten;
        final Counter batchesSent;
        final Counter bytesUncompressed;
        final Counter bytesCompressed;
        final AtomicLong rowsBuffered = new AtomicLong();

        TableMetrics(MetricGroup g) {
            rowsWritten = g.counter("rowsWritten", new ThreadSafeSimpleCounter());
            batchesSent = g.counter("batchesSent", new ThreadSafeSimpleCounter());
            bytesUncompressed = g.counter("bytesUncompressed", new ThreadSafeSimpleCounter());
            bytesCompressed = g.counter("bytesCompressed", new ThreadSafeSimpleCounter());
            g.gauge("rowsBuffered", rowsBuffered::get);
        }
    }
}
