package io.tributary.kafka;

import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceOutput;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * How many bytes of Kafka records a source reader may read past the barrier of the last completed
 * checkpoint. Exactly once, every row read after that barrier is held (sealed in the writer, then
 * in the committer's part of the checkpoint) until the next checkpoint completes, so this bounds
 * what a checkpoint holds; once spent, the reader reads nothing until a checkpoint completes. A
 * paused source lets Flink take that checkpoint (its trigger is a mail the task runs while the
 * source has nothing), where blocking in the sink would stop the barrier too.
 *
 * <p>Not thread-safe: the reader's task thread only.
 */
final class ReadBudget {

    private final long bytes;
    private long read;
    private long readAtCompletedBarrier;
    private final TreeMap<Long, Long> readAtBarrier = new TreeMap<>();
    private CompletableFuture<Void> refilled = CompletableFuture.completedFuture(null);
    private long pauses;

    ReadBudget(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("budget must be positive");
        }
        this.bytes = bytes;
    }

    /** True when the budget is spent; {@link #refilled()} completes when a checkpoint frees it. */
    boolean spent() {
        if (read - readAtCompletedBarrier < bytes) {
            return false;
        }
        if (refilled.isDone()) {
            refilled = new CompletableFuture<>();
            pauses++;
        }
        return true;
    }

    CompletableFuture<Void> refilled() {
        return refilled;
    }

    /** Bytes read since the barrier of the last completed checkpoint. */
    long held() {
        return read - readAtCompletedBarrier;
    }

    /** Times the reader paused for a checkpoint. */
    long pauses() {
        return pauses;
    }

    /** The reader's state is taken for checkpoint {@code id}: records read so far are before its barrier. */
    void barrier(long id) {
        readAtBarrier.put(id, read);
    }

    void completed(long id) {
        Map.Entry<Long, Long> at = readAtBarrier.floorEntry(id);
        if (at != null) {
            readAtCompletedBarrier = Math.max(readAtCompletedBarrier, at.getValue());
            readAtBarrier.headMap(id, true).clear();
        }
        if (!refilled.isDone() && read - readAtCompletedBarrier < bytes) {
            refilled.complete(null);
        }
    }

    /** {@code output}, counting the bytes of the records it collects. */
    ReaderOutput<SourceRecord> counting(ReaderOutput<SourceRecord> output) {
        if (counting == null || counting.out != output) {
            counting = new CountingReaderOutput(output);
        }
        return counting;
    }

    private CountingReaderOutput counting;

    private void count(SourceRecord r) {
        read += r.value.length;
    }

    private class CountingSourceOutput implements SourceOutput<SourceRecord> {
        final SourceOutput<SourceRecord> out;

        CountingSourceOutput(SourceOutput<SourceRecord> out) {
            this.out = out;
        }

        @Override
        public void collect(SourceRecord record) {
            count(record);
            out.collect(record);
        }

        @Override
        public void collect(SourceRecord record, long timestamp) {
            count(record);
            out.collect(record, timestamp);
        }

        @Override
        public void emitWatermark(Watermark watermark) {
            out.emitWatermark(watermark);
        }

        @Override
        public void markIdle() {
            out.markIdle();
        }

        @Override
        public void markActive() {
            out.markActive();
        }
    }

    private final class CountingReaderOutput extends CountingSourceOutput implements ReaderOutput<SourceRecord> {
        private final Map<String, CountingSourceOutput> splits = new HashMap<>();

        CountingReaderOutput(ReaderOutput<SourceRecord> out) {
            super(out);
        }

        @Override
        public SourceOutput<SourceRecord> createOutputForSplit(String splitId) {
            return splits.computeIfAbsent(splitId,
                    id -> new CountingSourceOutput(((ReaderOutput<SourceRecord>) out).createOutputForSplit(id)));
        }

        @Override
        public void releaseOutputForSplit(String splitId) {
            splits.remove(splitId);
            ((ReaderOutput<SourceRecord>) out).releaseOutputForSplit(splitId);
        }
    }
}
