package io.tributary.kafka;

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

    @Override
    public ResumableEnumState deserialize(int version, byte[] serialized) throws IOException {
        if (version < FIRST_OWN_VERSION) {
            return new ResumableEnumState(kafka.deserialize(version, serialized), List.of());
        }
        if (version != VERSION) {
            throw new IOException("unknown version " + version + " of the Kafka source's enumerator state (this"
                    + " release reads the Kafka connector's versions and " + VERSION + "); restore with the release that"
                    + " took the checkpoint");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        int innerVersion = in.readInt();
        byte[] inner = new byte[in.readInt()];
        in.readFully(inner);
        int n = in.readInt();
        List<KafkaPartitionSplit> handedBack = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String topic = in.readUTF();
            int partition = in.readInt();
            handedBack.add(new KafkaPartitionSplit(new TopicPartition(topic, partition), in.readLong()));
        }
        return new ResumableEnumState(kafka.deserialize(innerVersion, inner), handedBack);
    }
}
