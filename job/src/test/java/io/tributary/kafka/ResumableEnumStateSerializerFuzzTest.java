package io.tributary.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.tributary.testing.Fuzzing;

import org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumStateSerializer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Coverage-guided fuzzing of {@link ResumableEnumStateSerializer#deserialize}, which reads the
 * Kafka source's enumerator state back from a checkpoint (the first byte picks the version: the
 * connector's 0 to 3, ours 1001, or an unknown 1002): whatever the bytes, a state comes back or an
 * {@link IOException} says why not; never another exception, and never an allocation the bytes do
 * not hold (the fuzz JVM's heap is small, so one fails as a finding). A state read back and
 * serialized again reads back the same. The Kafka connector's own reader (its versions, and the
 * Kafka part of ours) sizes lists by the counts it reads, so a few bytes can ask it for gigabytes:
 * that is reported upstream's, and left out here.
 */
class ResumableEnumStateSerializerFuzzTest {

    private static final int[] VERSIONS = {0, 1, 2, 3, ResumableEnumStateSerializer.VERSION, ResumableEnumStateSerializer.VERSION + 1};
    private static final ResumableEnumStateSerializer SERIALIZER = new ResumableEnumStateSerializer();

    @FuzzTest(maxDuration = Fuzzing.SHORT)
    void aCheckpointedStateReadsBackOrIsRefusedWithAnIOException(byte[] input) throws IOException {
        if (input.length == 0) {
            return;
        }
        int version = VERSIONS[(input[0] & 0xFF) % VERSIONS.length];
        byte[] state = Arrays.copyOfRange(input, 1, input.length);
        ResumableEnumState read;
        try {
            read = SERIALIZER.deserialize(version, state);
        } catch (IOException refused) {
            return;
        } catch (OutOfMemoryError e) {
            if (connectorRunsOutOfMemory(version, state)) {
                return; // the connector's own reader sizes its lists by counts it reads: reported, not ours
            }
            throw Fuzzing.finding(e);
        } catch (Throwable e) {
            throw Fuzzing.finding(e);
        }
        byte[] written = SERIALIZER.serialize(read);
        ResumableEnumState again = SERIALIZER.deserialize(SERIALIZER.getVersion(), written);
        assertThat(again.handedBack()).isEqualTo(read.handedBack());
        // the connector keeps its splits in sets: their order is its own
        assertThat(again.kafka().assignedSplits()).containsExactlyInAnyOrderElementsOf(read.kafka().assignedSplits());
        assertThat(again.kafka().unassignedSplits()).containsExactlyInAnyOrderElementsOf(read.kafka().unassignedSplits());
        assertThat(again.kafka().initialDiscoveryFinished()).isEqualTo(read.kafka().initialDiscoveryFinished());
    }

    /** Whether the connector's reader alone runs out of memory on the Kafka part of the state. */
    private static boolean connectorRunsOutOfMemory(int version, byte[] state) {
        byte[] kafka = state;
        int kafkaVersion = version;
        if (version >= ResumableEnumStateSerializer.FIRST_OWN_VERSION) {
            ByteBuffer b = ByteBuffer.wrap(state);
            if (b.remaining() < 8) {
                return false;
            }
            kafkaVersion = b.getInt();
            int length = b.getInt();
            if (length < 0 || length > b.remaining()) {
                return false;
            }
            kafka = Arrays.copyOfRange(state, 8, 8 + length);
        }
        try {
            new KafkaSourceEnumStateSerializer().deserialize(kafkaVersion, kafka);
            return false;
        } catch (OutOfMemoryError e) {
            return true;
        } catch (Exception e) {
            return false;
        }
    }
}
