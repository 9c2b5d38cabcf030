package io.tributary.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumState;
import org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumStateSerializer;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.util.List;

/** The enumerator's state: the connector's own versions (earlier releases) read, ours round-trips, others refused. */
class ResumableEnumStateSerializerTest {

    private static final KafkaPartitionSplit ASSIGNED = new KafkaPartitionSplit(new TopicPartition("spans", 0), 10);
    private static final KafkaPartitionSplit UNASSIGNED = new KafkaPartitionSplit(new TopicPartition("spans", 1), 20);

    @Test
    void readsTheConnectorsOwnStateAsReleasesUpTo01WroteItAndRoundTripsHandedBackPositions() throws Exception {
        KafkaSourceEnumStateSerializer kafka = new KafkaSourceEnumStateSerializer();
        KafkaSourceEnumState state = new KafkaSourceEnumState(List.of(ASSIGNED), List.of(UNASSIGNED), true);
        ResumableEnumStateSerializer ours = new ResumableEnumStateSerializer();
        ResumableEnumState old = ours.deserialize(kafka.getVersion(), kafka.serialize(state));
        assertThat(old.handedBack()).isEmpty();
        assertThat(old.kafka().assignedSplits()).containsExactly(ASSIGNED);
        assertThat(old.kafka().unassignedSplits()).containsExactly(UNASSIGNED);
        assertThat(old.kafka().initialDiscoveryFinished()).isTrue();

        KafkaPartitionSplit left = new KafkaPartitionSplit(new TopicPartition("logs", 3), 4_242);
        ResumableEnumState again = ours.deserialize(ours.getVersion(), ours.serialize(new ResumableEnumState(state, List.of(left))));
        assertThat(again.handedBack()).containsExactly(left);
        assertThat(again.kafka().assignedSplits()).containsExactly(ASSIGNED);
        assertThatThrownBy(() -> ours.deserialize(1_002, new byte[0])).hasMessageContaining("unknown version 1002");
    }
}
