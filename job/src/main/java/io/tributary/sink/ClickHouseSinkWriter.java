package io.tributary.sink;

import io.tributary.clickhouse.InsertClient;
import io.tributary.clickhouse.body.SegmentPool;
import io.tributary.tables.EncodedRows;

import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Gathers rows per table into batches and seals each closed batch: compresses it into one INSERT
 * body. At least once, a sealed batch is sent at once ({@link BatchInserter}); exactly once, it is
 * kept and handed over in {@link #prepareCommit} as a committable, which the committer inserts
 * after the checkpoint completes.
 *
 * <p>A batch closes at {@code maxRows}, {@code maxBytes} or (at least once) {@code maxAge},
 * whichever comes first, and on {@link #flush}; and when the open batches of all tables together
 * reach {@code maxBytes}, the largest closes. Closed batches are sealed (and sent) by a pool of
 * {@code maxInFlight} threads; when all are busy, {@link #write} blocks, so backpressure reaches
 * the Kafka source instead of memory growing. {@link #flush} waits for all of them: at least once,
 * that is what makes a completed checkpoint cover only rows ClickHouse has. A failure in a sender
 * thread fails the job on the next call from Flink.
 */
final class ClickHouseSinkWriter implements CommittingSinkWriter<EncodedRows, SealedBatch> {

    private final SinkSettings settings;
    private final BatchInserter inserter;
    private final ProcessingTimeService time;
    private final SinkMetrics metrics;
    private final boolean exactlyOnce;
    private final Batch[] open;
    private final Semaphore permits;
    private final ExecutorService senders;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    /** Exactly once: sealed batches waiting for the next checkpoint. */
    private final List<SealedBatch> sealed = new ArrayList<>();
    /**
     * The batches' buffers: at least once, a written batch's segments go back and take the next
     * one's bytes. Exactly once, batches leave for the committer and their segments with them.
     */
    private final SegmentPool pool;
    private final long maxAgeMillis;
    /** Native: the batches' blocks; null for RowBinary. */
    private final NativeBlocks blocks;
    private volatile boolean closed;
    /** Bytes in the open batches of all tables (writer thread only). */
    private long openBytes;

    ClickHouseSinkWriter(
            SinkSettings settings,
            InsertClient client,
            ProcessingTimeService time,
            SinkMetrics metrics,
            int subtask,
            ServerFacts facts,
            BatchInserter.LiveTables liveTables) throws IOException {
        this.settings = settings;
        this.inserter = new BatchInserter(settings, client, metrics, facts, liveTables);
        this.time = time;
        this.metrics = metrics;
        this.exactlyOnce = settings.delivery() == Delivery.EXACTLY_ONCE;
        this.open = new Batch[settings.tables().size()];
        this.permits = new Semaphore(settings.maxInFlight());
        // the batches in flight and those filling, at the usual 5-10x compression of telemetry
        this.pool = new SegmentPool(exactlyOnce ? 0 : 4 * (settings.maxInFlight() + settings.tables().size()));
        this.maxAgeMillis = settings.maxAge().toMillis();
        this.blocks = settings.format() == InsertFormat.NATIVE ? new NativeBlocks(settings.maxBytes() + settings.maxBytes() / 2) : null;
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
        if (b != null && !b.sameLayout(element.header)) {
            dispatch(t); // rows of another layout go into a batch of their own
            b = null;
        }
        if (b == null) {
            long now = time.getCurrentProcessingTime();
            // every batch gets a checksum: its token, at least once too, makes a resent INSERT a repeat
            b = new Batch(t, element.header, now, settings.compression(), pool, true, blocks);
            open[t] = b;
            if (!exactlyOnce) {
                // Exactly once, rows are written when the checkpoint completes whatever their age.
                Batch created = b;
                time.registerTimer(now + maxAgeMillis, ts -> onMaxAge(created));
            }
        }
        openBytes += b.add(element);
        metrics.buffered(t, element.rows);
        if (b.rows >= settings.maxRows() || b.bytes >= settings.maxBytes()) {
            dispatch(t);
        } else if (openBytes >= settings.maxBytes()) {
            // The open batches of all tables share one byte budget: close the largest.
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
        // Wait until every closed batch is sealed (and, at least once, written): only then may
        // the barrier pass.
        permits.acquire(settings.maxInFlight());
        permits.release(settings.maxInFlight());
        checkFailure();
        if (!exactlyOnce) {
            inserter.forgetDeadLetters();
        }
    }

    /**
     * Exactly once: the batches sealed since the last checkpoint ({@link #flush} has just closed
     * and sealed the open ones), for the committer to insert once this checkpoint completes.
     */
    @Override
    public Collection<SealedBatch> prepareCommit() {
        synchronized (sealed) {
            List<SealedBatch> out = new ArrayList<>(sealed);
            sealed.clear();
            for (SealedBatch b : out) {
                metrics.buffered(b.table, -b.rows);
            }
            return out;
        }
    }

    private void dispatch(int t) throws InterruptedException {
        Batch b = open[t];
        open[t] = null;
        openBytes -= b.bytes;
        permits.acquire();
        metrics.inFlight(1);
        try {
            senders.execute(() -> seal(b));
        } catch (RuntimeException e) {
            metrics.inFlight(-1);
            permits.release();
            throw e;
        }
    }

    private void seal(Batch b) {
        boolean kept = false;
        try {
            SealedBatch s = b.seal();
            if (exactlyOnce) {
                synchronized (sealed) {
                    sealed.add(s);
                }
                kept = true;
            } else {
                inserter.write(s);
                s.body.release(); // written: its segments take the next batches' bytes
            }
        } catch (Throwable e) {
            failure.compareAndSet(null, e);
        } finally {
            if (!kept) {
                metrics.buffered(b.table, -b.rows);
            }
            metrics.inFlight(-1);
            permits.release();
        }
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

    /**
     * Ends the senders and gives back what the batches hold (compression contexts outside the
     * heap, pooled segments): the open batches and, exactly once, the sealed ones no checkpoint
     * took (a restart resends them from Kafka). Then closes the client and the dead-letter clients.
     */
    @Override
    public void close() throws Exception {
        closed = true;
        senders.shutdownNow();
        boolean ended = senders.awaitTermination(10, TimeUnit.SECONDS);
        try {
            for (int t = 0; t < open.length; t++) {
                if (open[t] != null) {
                    open[t].abandon();
                    open[t] = null;
                }
            }
            if (ended) { // a sender still running may still be reading its batch
                synchronized (sealed) {
                    sealed.forEach(b -> b.body.release());
                    sealed.clear();
                }
            }
        } finally {
            inserter.close();
        }
    }
}
