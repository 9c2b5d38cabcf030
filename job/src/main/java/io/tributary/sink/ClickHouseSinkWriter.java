package io.tributary.sink;

import io.tributary.kafka.RefusedRecords;
import io.tributary.metrics.SinkMetrics;

import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Gathers rows per table into batches and sends each closed batch as one INSERT.
 *
 * <p>A batch closes at {@code maxRows}, {@code maxBytes} or {@code maxAge}, whichever comes first,
 * and on {@link #flush}; and when the open batches of all tables together reach {@code maxBytes},
 * the largest closes. Closed batches are compressed and sent by a pool of {@code maxInFlight}
 * sender threads; when all are busy, {@link #write} blocks, so backpressure reaches the Kafka
 * source instead of memory growing. Memory held is at most about {@code (1 + maxInFlight) x
 * maxBytes} uncompressed, however many tables are written.
 *
 * <p>A batch is retried with exponential backoff on connection errors, 5xx replies without a
 * ClickHouse code and retryable ClickHouse codes; the compressed body is kept, so a retry resends
 * the same bytes. A batch refused for good because of some rows' values (a constraint, a value out
 * of range: {@link ClickHouseErrors#isAboutTheRows}) is split in halves until the refused rows are
 * those of single Kafka records; those records go to the dead-letter topic (read back from Kafka by
 * their coordinates) and the rest is written. Any other permanent error, or retries exhausted,
 * fails the job with ClickHouse's message on the next call from Flink: no batch is dropped.
 */
final class ClickHouseSinkWriter implements SinkWriter<EncodedRows> {

    private static final Logger LOG = LoggerFactory.getLogger(ClickHouseSinkWriter.class);
    /** More refused records than this in one batch points at the table, not the records. */
    static final int MAX_REFUSED_PER_BATCH = 100;

    private final SinkSettings settings;
    private final InsertClient client;
    private final ProcessingTimeService time;
    private final SinkMetrics metrics;
    private final RefusedRecords deadLetters;
    private final Map<String, String> querySettings;
    private final Map<String, String> isolationSettings;
    private final Batch[] open;
    private final Semaphore permits;
    private final ExecutorService senders;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final long maxAgeMillis;
    private volatile boolean closed;
    /** Bytes in the open batches of all tables (writer thread only). */
    private long openBytes;

    ClickHouseSinkWriter(
            SinkSettings settings,
            InsertClient client,
            ProcessingTimeService time,
            SinkMetrics metrics,
            int subtask) {
        this.settings = settings;
        this.client = client;
        this.time = time;
        this.metrics = metrics;
        this.deadLetters = new RefusedRecords(
                settings.kafkaBootstrap(), settings.kafkaProperties(), settings.deadLetterTopic());
        Map<String, String> query = new HashMap<>(settings.insertSettings());
        if (settings.asyncInsert()) {
            query.put("async_insert", "1");
            query.put("wait_for_async_insert", "1");
        }
        this.querySettings = Map.copyOf(query);
        query.remove("async_insert");
        query.remove("wait_for_async_insert");
        this.isolationSettings = Map.copyOf(query);
        this.open = new Batch[settings.insertSql().size()];
        this.permits = new Semaphore(settings.maxInFlight());
        this.maxAgeMillis = settings.maxAge().toMillis();
        AtomicInteger n = new AtomicInteger();
        this.senders =
                Executors.newFixedThreadPool(
                        settings.maxInFlight(),
                        r -> {
                            Thread t = new Thread(r, "tributary-clickhouse-sender-" + subtask + "-" + n.incrementAndGet());
                            t.setDaemon(true);
                            return t;
                        });
    }

    @Override
    public void write(EncodedRows element, Context context) throws IOException, InterruptedException {
        checkFailure();
        int t = element.table;
        Batch b = open[t];
        if (b == null) {
            long now = time.getCurrentProcessingTime();
            b = new Batch(t, now);
            open[t] = b;
            Batch created = b;
            time.registerTimer(now + maxAgeMillis, ts -> onMaxAge(created));
        }
        b.add(element);
        openBytes += element.data.length;
        metrics.buffered(t, element.rows);
        if (b.rows >= settings.maxRows() || b.bytes >= settings.maxBytes()) {
            dispatch(t);
        } else if (openBytes >= settings.maxBytes()) {
            // The open batches of all tables share one byte budget: send the largest.
            int largest = t;
            for (int i = 0; i < open.length; i++) {
                if (open[i] != null && open[i].bytes > open[largest].bytes) {
                    largest = i;
                }
            }
            dispatch(largest);
        }
    }

    private void onMaxAge(Batch batch) throws IOException, InterruptedException {
        if (closed) {
            return;
        }
        checkFailure();
        if (open[batch.table] == batch) {
            dispatch(batch.table);
        }
    }

    @Override
    public void flush(boolean endOfInput) throws IOException, InterruptedException {
        checkFailure();
        for (int t = 0; t < open.length; t++) {
            if (open[t] != null) {
                dispatch(t);
            }
        }
        // Wait until every outstanding INSERT has finished: only then may the barrier pass.
        permits.acquire(settings.maxInFlight());
        permits.release(settings.maxInFlight());
        checkFailure();
        deadLetters.forget();
    }

    private void dispatch(int t) throws InterruptedException {
        Batch b = open[t];
        open[t] = null;
        openBytes -= b.bytes;
        permits.acquire();
        metrics.inFlight(1);
        try {
            senders.execute(() -> send(b));
        } catch (RuntimeException e) {
            metrics.inFlight(-1);
            permits.release();
            throw e;
        }
    }

    private void send(Batch b) {
        try {
            try {
                insert(b, b.chunks, b.rows, b.bytes, querySettings);
            } catch (ClickHouseException e) { // refused for good (retryable ones come out as IOException)
                if (!ClickHouseErrors.isAboutTheRows(e.errorCode())) {
                    throw new IOException("INSERT of " + b.rows + " rows into " + table(b) + " refused: " + e.getMessage(), e);
                }
                // Some record's rows are refused for good: find which, write the rest, then set them aside.
                LOG.warn("INSERT into {} refused ({}); looking for the records it is about", table(b), e.getMessage());
                List<Integer> refused = new ArrayList<>();
                Map<Integer, ClickHouseException> reasons = new HashMap<>();
                isolate(b, 0, b.chunks.size(), refused, reasons);
                if (refused.size() == b.chunks.size() && refused.size() > 1) {
                    throw new IOException("INSERT into " + table(b) + " refused the rows of every one of its "
                            + refused.size() + " records, which points at the table, not the records: " + e.getMessage(), e);
                }
                for (int i : refused) {
                    EncodedRows r = b.sources.get(i);
                    if (deadLetters.send(r.topic, r.partition, r.offset, reasons.get(i))) {
                        metrics.deadLetters.inc();
                    }
                }
            }
        } catch (Throwable e) {
            failure.compareAndSet(null, e);
        } finally {
            metrics.buffered(b.table, -b.rows);
            metrics.inFlight(-1);
            permits.release();
        }
    }

    /**
     * Writes chunks {@code [from, to)} of a batch whose INSERT was refused because of some rows,
     * halving until the refused chunks are single records, which it collects. Gives up (fails the
     * job) when more than {@link #MAX_REFUSED_PER_BATCH} records are refused.
     */
    private void isolate(Batch b, int from, int to, List<Integer> refused, Map<Integer, ClickHouseException> reasons)
            throws IOException, InterruptedException {
        int mid = (from + to) >>> 1;
        for (int[] half : new int[][] {{from, mid}, {mid, to}}) {
            if (half[0] == half[1]) {
                continue;
            }
            int rows = 0;
            long bytes = 0;
            for (int i = half[0]; i < half[1]; i++) {
                rows += b.sources.get(i).rows;
                bytes += b.chunks.get(i).length;
            }
            try {
                // not async: a refusal must be about these rows only
                insert(b, b.chunks.subList(half[0], half[1]), rows, bytes, isolationSettings);
            } catch (ClickHouseException e) {
                if (!ClickHouseErrors.isAboutTheRows(e.errorCode())) {
                    throw new IOException("INSERT of " + rows + " rows into " + table(b) + " refused: " + e.getMessage(), e);
                }
                if (half[1] - half[0] == 1) {
                    refused.add(half[0]);
                    reasons.put(half[0], e);
                    if (refused.size() > MAX_REFUSED_PER_BATCH) {
                        throw new IOException("INSERT into " + table(b) + " refused the rows of more than "
                                + MAX_REFUSED_PER_BATCH + " records of one batch; stopping: " + e.getMessage(), e);
                    }
                } else {
                    isolate(b, half[0], half[1], refused, reasons);
                }
            }
        }
    }

    /**
     * Sends chunks as one INSERT, retrying with backoff on retryable errors with the same
     * compressed bytes.
     *
     * @throws ClickHouseException a permanent refusal
     * @throws IOException retries exhausted
     */
    private void insert(Batch b, List<byte[]> chunks, int rows, long bytes, Map<String, String> query)
            throws IOException, InterruptedException {
        byte[] body = settings.compression().compress(chunks, bytes);
        String sql = settings.insertSql().get(b.table);
        long backoff = settings.retryInitialBackoff().toMillis();
        for (int attempt = 1; ; attempt++) {
            long start = System.nanoTime();
            try {
                client.insert(sql, query, body, settings.compression());
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                metrics.sent(b.table, rows, bytes, body.length, ms);
                return;
            } catch (ClickHouseException e) {
                if (!e.retryable()) {
                    throw e;
                }
                if (attempt >= settings.retryMaxAttempts()) {
                    throw failed(b, attempt, e);
                }
                retryLater(b, attempt, e, backoff);
            } catch (IOException e) {
                // connection refused, reset, timed out: the server may be back soon
                if (attempt >= settings.retryMaxAttempts()) {
                    throw failed(b, attempt, e);
                }
                retryLater(b, attempt, e, backoff);
            }
            backoff = Math.min(backoff * 2, settings.retryMaxBackoff().toMillis());
            if (closed) {
                throw new IOException("sink closed while retrying an INSERT into " + table(b));
            }
        }
    }

    private void retryLater(Batch b, int attempt, Exception e, long backoffMillis)
            throws InterruptedException {
        metrics.retries.inc();
        long pause = backoffMillis / 2 + ThreadLocalRandom.current().nextLong(backoffMillis / 2 + 1);
        LOG.warn(
                "INSERT of {} rows into {} failed (attempt {} of {}), retrying in {} ms: {}",
                b.rows, table(b), attempt, settings.retryMaxAttempts(), pause, e.getMessage());
        Thread.sleep(pause);
    }

    private IOException failed(Batch b, int attempt, IOException e) {
        return new IOException(
                "INSERT of " + b.rows + " rows into " + table(b) + " failed after " + attempt
                        + " attempt(s): " + e.getMessage(),
                e);
    }

    private String table(Batch b) {
        return settings.database() + "." + settings.tableNames().get(b.table);
    }

    private void checkFailure() throws IOException {
        Throwable t = failure.get();
        if (t != null) {
            if (t instanceof IOException) {
                throw new IOException(t.getMessage(), t);
            }
            throw new IOException("sending a batch to ClickHouse failed: " + t, t);
        }
    }

    @Override
    public void close() throws Exception {
        closed = true;
        senders.shutdownNow();
        senders.awaitTermination(10, TimeUnit.SECONDS);
        deadLetters.close();
        client.close();
    }
}
