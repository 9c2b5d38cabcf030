package io.tributary.sink;

import io.tributary.clickhouse.InsertClient;

import org.apache.flink.api.connector.sink2.Committer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Exactly once: inserts the batches of a checkpoint once it has completed, each with its
 * deduplication token, up to {@code maxInFlight} at a time. Flink keeps the batches in the
 * checkpoint until this returns, and calls it again with them after a restore, so a batch may be
 * sent twice; its token makes ClickHouse store it once. A batch that cannot be written after the
 * configured retries fails the job, which restores and tries again: none is dropped.
 */
final class ClickHouseCommitter implements Committer<SealedBatch> {

    private final BatchInserter inserter;
    private final ExecutorService senders;
    private final int maxInFlight;

    ClickHouseCommitter(SinkSettings settings, InsertClient client, SinkMetrics metrics, int subtask,
            ServerFacts facts, BatchInserter.LiveTables liveTables) throws IOException {
        this.inserter = new BatchInserter(settings, client, metrics, facts, liveTables);
        this.maxInFlight = settings.maxInFlight();
        AtomicInteger n = new AtomicInteger();
        this.senders =
                Executors.newFixedThreadPool(
                        maxInFlight,
                        r -> {
                            Thread t = new Thread(r, "tributary-clickhouse-committer-" + subtask + "-" + n.incrementAndGet());
                            t.setDaemon(true);
                            return t;
                        });
    }

    @Override
    public void commit(Collection<CommitRequest<SealedBatch>> requests) throws IOException, InterruptedException {
        List<Future<?>> pending = new ArrayList<>(requests.size());
        for (CommitRequest<SealedBatch> r : requests) {
            SealedBatch b = r.getCommittable();
            pending.add(senders.submit(() -> {
                inserter.write(b);
                return null;
            }));
        }
        IOException failed = null;
        for (Future<?> f : pending) {
            try {
                f.get();
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (failed == null) {
                    // the cause is kept: a failure that suppresses restarts must stay one
                    failed = cause instanceof IOException
                            ? new IOException(cause.getMessage(), cause)
                            : new IOException("committing a batch to ClickHouse failed: " + cause, cause);
                } else {
                    failed.addSuppressed(cause);
                }
            }
        }
        if (failed != null) {
            throw failed;
        }
        inserter.forgetDeadLetters();
    }

    @Override
    public void close() throws Exception {
        senders.shutdownNow();
        senders.awaitTermination(10, TimeUnit.SECONDS);
        inserter.close();
    }
}
