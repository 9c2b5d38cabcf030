package io.tributary.kafka;

import org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumState;
import org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumStateSerializer;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.kafka.common.TopicPartition;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Checkpoint form of {@link ResumableEnumState}. Versions below {@link #FIRST_OWN_VERSION} are the
 * Kafka connector's own ({@code KafkaSourceEnumStateSerializer}, versions 0-3 in 5.0), which
 * releases up to 0.1 wrote: they are read with it and hand back nothing. Version 1001 is the
 * Kafka state (with its version) followed by the handed-back positions.
 */
public final class ResumableEnumStateSerializer implements SimpleVersionedSerializer<ResumableEnumState> {

    static final int FIRST_OWN_VERSION = 1000;
    static final int VERSION = 1001;

    private final KafkaSourceEnumStateSerializer kafka = new KafkaSourceEnumStateSerializer();

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(ResumableEnumState state) throws IOException {
        byte[] inner = kafka.serialize(state.kafka());
        DataOutputSerializer out = new DataOutputSerializer(inner.length + 16 + state.handedBack().size() * 32);
        out.writeInt(kafka.getVersion());
        out.writeInt(inner.length);
        out.write(inner);
        out.writeInt(state.handedBack().size());
        for (KafkaPartitionSplit s : state.handedBack()) {
            out.writeUTF(s.getTopic());
            out.writeInt(s.getPartition());
            out.writeLong(s.getStartingOffset());
        }
        return out.getCopyOfBuffer();
    }

    /**
     * @throws IOException for a state this release cannot read: an unknown version, or bytes that
     *     are cut or damaged (never a runtime exception, nor an allocation the bytes do not hold)
     */
    @Override
    public ResumableEnumState deserialize(int version, byte[] serialized) throws IOException {
        if (version < FIRST_OWN_VERSION) {
            return new ResumableEnumState(kafka(version, serialized), List.of());
        }
        if (version != VERSION) {
            throw new IOException("unknown version " + version + " of the Kafka source's enumerator state (this"
                    + " release reads the Kafka connector's versions and " + VERSION + "); restore with the release that"
                    + " took the checkpoint");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        int innerVersion = in.readInt();
        int innerLength = in.readInt();
        if (innerLength < 0 || innerLength > in.available()) {
            throw damaged("its Kafka part claims " + innerLength + " bytes, " + in.available() + " are left");
        }
        byte[] inner = new byte[innerLength];
        in.readFully(inner);
        int n = in.readInt();
        // a position is at least a topic name's length, a partition and an offset
        if (n < 0 || n > in.available() / (2 + 4 + 8)) {
            throw damaged("it claims " + n + " handed-back positions in " + in.available() + " bytes");
        }
        List<KafkaPartitionSplit> handedBack = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String topic = in.readUTF();
            int partition = in.readInt();
            long offset = in.readLong();
            try {
                handedBack.add(new KafkaPartitionSplit(new TopicPartition(topic, partition), offset));
            } catch (RuntimeException e) {
                throw damaged("handed-back position " + i + ": " + e.getMessage(), e);
            }
        }
        return new ResumableEnumState(kafka(innerVersion, inner), handedBack);
    }

    /** The connector's state, whose reader throws runtime exceptions for damaged bytes. */
    private KafkaSourceEnumState kafka(int version, byte[] serialized) throws IOException {
        try {
            return kafka.deserialize(version, serialized);
        } catch (RuntimeException e) {
            throw damaged("the Kafka connector cannot read its part (version " + version + "): " + e, e);
        }
    }

    private static IOException damaged(String why) {
        return damaged(why, null);
    }

    private static IOException damaged(String why, Throwable cause) {
        return new IOException("the Kafka source's enumerator state in the checkpoint is cut or damaged: " + why, cause);
    }
}
