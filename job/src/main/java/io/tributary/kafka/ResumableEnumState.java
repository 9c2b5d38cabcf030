package io.tributary.kafka;

import org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumState;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;

import java.util.List;

/**
 * The enumerator's checkpoint: the Kafka enumerator's own state, plus the positions that bounded
 * readers handed back when they finished (their tasks keep no state once finished), from which a
 * later run of the job continues those partitions.
 *
 * @param kafka the Kafka enumerator's state
 * @param handedBack splits at the positions readers handed back
 */
public record ResumableEnumState(KafkaSourceEnumState kafka, List<KafkaPartitionSplit> handedBack) {

    public ResumableEnumState {
        handedBack = List.copyOf(handedBack);
    }
}
