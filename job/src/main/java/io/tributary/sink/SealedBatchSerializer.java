package io.tributary.sink;

import io.tributary.schema.OtelTable;

import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;

/**
 * Checkpoint form of a {@link SealedBatch} (an exactly-once committable). The table is kept by
 * its {@link OtelTable} name, not its ordinal, so reordering the enum never moves rows to another
 * table; the body is kept compressed. Version 1; other versions are refused.
 */
public final class SealedBatchSerializer implements SimpleVersionedSerializer<SealedBatch> {

    static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(SealedBatch b) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(b.body.length + 64 + b.records() * 48);
        out.writeUTF(OtelTable.values()[b.table].name());
        out.writeUTF(b.compression.name());
        out.writeInt(b.rawBytes);
        out.writeInt(b.rows);
        out.writeLong(b.checksum);
        out.writeInt(b.records());
        for (int i = 0; i < b.records(); i++) {
            out.writeUTF(b.topics[i]);
            out.writeInt(b.partitions[i]);
            out.writeLong(b.offsets[i]);
            out.writeInt(b.rowCounts[i]);
            out.writeInt(b.lengths[i]);
        }
        out.writeInt(b.body.length);
        out.write(b.body);
        return out.getCopyOfBuffer();
    }

    @Override
    public SealedBatch deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION) {
            throw new IOException("unknown version " + version + " of a ClickHouse sink committable (this release reads "
                    + VERSION + "); restore with the release that took the checkpoint");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        int table = OtelTable.valueOf(in.readUTF()).ordinal();
        Compression compression = Compression.valueOf(in.readUTF());
        int rawBytes = in.readInt();
        int rows = in.readInt();
        long checksum = in.readLong();
        int n = in.readInt();
        String[] topics = new String[n];
        int[] partitions = new int[n];
        long[] offsets = new long[n];
        int[] rowCounts = new int[n];
        int[] lengths = new int[n];
        for (int i = 0; i < n; i++) {
            topics[i] = in.readUTF();
            partitions[i] = in.readInt();
            offsets[i] = in.readLong();
            rowCounts[i] = in.readInt();
            lengths[i] = in.readInt();
        }
        byte[] body = new byte[in.readInt()];
        in.readFully(body);
        return new SealedBatch(table, compression, body, rawBytes, rows, checksum, topics, partitions, offsets, rowCounts, lengths);
    }
}
