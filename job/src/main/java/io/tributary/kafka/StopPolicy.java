package io.tributary.kafka;

import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.kafka.common.TopicPartition;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;

/**
 * Where this run stops reading each partition, applied to every split the run reads, however the
 * split reached it (assigned fresh, restored from a checkpoint or savepoint of an unbounded or a
 * bounded run, or handed back by a reader of an earlier run): a bounded run stops at the end
 * offsets read once when the job was built, an unbounded one never stops. A split keeps no
 * stopping offset of an earlier run.
 */
public final class StopPolicy implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Null: unbounded. */
    private final HashMap<TopicPartition, Long> endOffsets;

    private StopPolicy(HashMap<TopicPartition, Long> endOffsets) {
        this.endOffsets = endOffsets;
    }

    /** Never stop. */
    public static StopPolicy unbounded() {
        return new StopPolicy(null);
    }

    /**
     * Stop each partition at {@code endOffsets} (exclusive); a partition missing from it did not
     * exist when they were read, so the run reads nothing of it.
     */
    public static StopPolicy at(Map<TopicPartition, Long> endOffsets) {
        return new StopPolicy(new HashMap<>(endOffsets));
    }

    public boolean bounded() {
        return endOffsets != null;
    }

    /** The run's stopping offset of a partition (exclusive), or {@link KafkaPartitionSplit#NO_STOPPING_OFFSET}. */
    public long stop(TopicPartition tp) {
        if (endOffsets == null) {
            return KafkaPartitionSplit.NO_STOPPING_OFFSET;
        }
        return endOffsets.getOrDefault(tp, 0L);
    }

    /** The split with this run's stopping offset. */
    public KafkaPartitionSplit apply(KafkaPartitionSplit split) {
        long stop = stop(split.getTopicPartition());
        if (split.getStoppingOffset().orElse(KafkaPartitionSplit.NO_STOPPING_OFFSET) == stop) {
            return split;
        }
        return new KafkaPartitionSplit(split.getTopicPartition(), split.getStartingOffset(), stop);
    }

    /**
     * Where a split that the reader finished leaves its partition: at its stopping offset (the
     * records before it were read; offsets up to it may also be transaction markers), or at its
     * starting offset when that was already past the stop.
     */
    static KafkaPartitionSplit finished(KafkaPartitionSplit split) {
        long stop = split.getStoppingOffset().orElseThrow(
                () -> new IllegalStateException("split " + split + " has no stopping offset, so it cannot finish"));
        long at = Math.max(split.getStartingOffset(), stop);
        return new KafkaPartitionSplit(split.getTopicPartition(), at, stop);
    }

    @Override
    public String toString() {
        return endOffsets == null ? "unbounded" : "stop at " + endOffsets;
    }
}
