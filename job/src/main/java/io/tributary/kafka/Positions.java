package io.tributary.kafka;

import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.kafka.common.TopicPartition;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Where partitions resume, in a form that travels in source events (splits are not
 * serializable): topic, partition and the offset of the next record to read.
 */
final class Positions implements Serializable {
    private static final long serialVersionUID = 1L;

    final String[] topics;
    final int[] partitions;
    final long[] offsets;

    private Positions(String[] topics, int[] partitions, long[] offsets) {
        this.topics = topics;
        this.partitions = partitions;
        this.offsets = offsets;
    }

    /** The splits' partitions at their starting offsets. */
    static Positions of(Collection<KafkaPartitionSplit> splits) {
        int n = splits.size();
        String[] t = new String[n];
        int[] p = new int[n];
        long[] o = new long[n];
        int i = 0;
        for (KafkaPartitionSplit s : splits) {
            t[i] = s.getTopic();
            p[i] = s.getPartition();
            o[i] = s.getStartingOffset();
            i++;
        }
        return new Positions(t, p, o);
    }

    int size() {
        return offsets.length;
    }

    TopicPartition partition(int i) {
        return new TopicPartition(topics[i], partitions[i]);
    }

    /** Splits that start at these positions and have no stopping offset (the run gives them theirs). */
    List<KafkaPartitionSplit> splits() {
        List<KafkaPartitionSplit> out = new ArrayList<>(size());
        for (int i = 0; i < size(); i++) {
            out.add(new KafkaPartitionSplit(partition(i), offsets[i]));
        }
        return out;
    }
}
