package io.tributary.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumState;
import org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumStateSerializer;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.io.IOException;

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

    /**
     * Found by ResumableEnumStateSerializerFuzzTest: lengths and counts in a damaged state asked for
     * arrays of any size (a negative one threw, a huge one ran out of memory), and the connector's
     * reader threw runtime exceptions; each is an IOException that says the state is damaged.
     */
    @Test
    void aDamagedStateIsRefusedWithAnIOExceptionAndNoAllocationItDoesNotHold() throws Exception {
        ResumableEnumStateSerializer ours = new ResumableEnumStateSerializer();
        KafkaSourceEnumStateSerializer kafka = new KafkaSourceEnumStateSerializer();
        byte[] inner = kafka.serialize(new KafkaSourceEnumState(List.of(ASSIGNED), List.of(UNASSIGNED), true));
        java.util.function.IntFunction<byte[]> innerLength = n -> {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(12 + inner.length);
            return b.putInt(kafka.getVersion()).putInt(n).put(inner).putInt(0).array();
        };
        byte[] valid = innerLength.apply(inner.length);
        assertThat(ours.deserialize(ours.getVersion(), valid).handedBack()).isEmpty();
        for (int n : new int[] {-1, Integer.MIN_VALUE, inner.length + 5, Integer.MAX_VALUE}) {
            assertThatThrownBy(() -> ours.deserialize(ours.getVersion(), innerLength.apply(n)))
                    .isInstanceOf(IOException.class).hasMessageContaining("cut or damaged").hasMessageContaining("claims " + n);
        }
        for (int n : new int[] {-1, 1, 1_000_000_000}) {
            byte[] positions = valid.clone();
            java.nio.ByteBuffer.wrap(positions).putInt(positions.length - 4, n);
            assertThatThrownBy(() -> ours.deserialize(ours.getVersion(), positions))
                    .isInstanceOf(IOException.class).hasMessageContaining("claims " + n + " handed-back positions");
        }
        // a position the connector's split refuses (an offset below its special values)
        byte[] badOffset = java.nio.ByteBuffer.allocate(valid.length + 2 + 1 + 4 + 8).put(valid, 0, valid.length - 4)
                .putInt(1).putShort((short) 1).put((byte) 'x').putInt(0).putLong(-42).array();
        assertThatThrownBy(() -> ours.deserialize(ours.getVersion(), badOffset))
                .isInstanceOf(IOException.class).hasMessageContaining("handed-back position 0");
        // the connector's reader: a negative count of splits
        byte[] negative = inner.clone();
        java.nio.ByteBuffer.wrap(negative).putInt(0, -5);
        assertThatThrownBy(() -> ours.deserialize(kafka.getVersion(), negative))
                .isInstanceOf(IOException.class).hasMessageContaining("the Kafka connector cannot read its part");
    }
}
