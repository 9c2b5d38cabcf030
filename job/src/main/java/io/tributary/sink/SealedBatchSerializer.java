package io.tributary.sink;

import io.tributary.clickhouse.body.Body;
import io.tributary.clickhouse.body.Compression;
import io.tributary.tables.OtelTable;

import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;

/**
 * Checkpoint form of a {@link SealedBatch} (an exactly-once committable). Everything its INSERT
 * needs travels with it, nothing is taken from the settings of the release that restores it: the
 * table by its {@link OtelTable} name (not its ordinal, so reordering the enum never moves rows;
 * its name in the database comes from the settings, so a renamed table or a signal turned off
 * still gets its rows), the deduplication token as it was made, and the body with its {@code
 * RowBinaryWithNamesAndTypes} header, kept compressed.
 *
 * <p>Version 3 names the body's {@link InsertFormat}. Version 2 bodies are all RowBinary. Version 1
 * (release 0.1) had no header and no stored token: such a batch is inserted as 0.1 did, with 0.1's
 * columns and token ({@link SealedBatch#legacy()}). Other versions are refused, naming the release
 * to use.
 */
public final class SealedBatchSerializer implements SimpleVersionedSerializer<SealedBatch> {

    static final int VERSION = 3;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(SealedBatch b) throws IOException {
        if (b.legacy()) {
            throw new IOException("a batch restored from a 0.1 checkpoint is inserted, never checkpointed again");
        }
        DataOutputSerializer out = new DataOutputSerializer((int) b.body.length() + b.header.length + 256 + b.records() * 48);
        out.writeUTF(OtelTable.values()[b.table].name());
        out.writeUTF(b.compression.name());
        out.writeUTF(b.format.name());
        out.writeUTF(b.token == null ? "" : b.token);
        out.writeInt(b.header.length);
        out.write(b.header);
        out.writeInt(b.rawBytes);
        out.writeInt(b.rows);
        out.writeLong(b.checksum);
        writeRecords(b, out);
        byte[] body = b.body.toByteArray();
        out.writeInt(body.length);
        out.write(body);
        return out.getCopyOfBuffer();
    }

    private static void writeRecords(SealedBatch b, DataOutputSerializer out) throws IOException {
        out.writeInt(b.records());
        for (int i = 0; i < b.records(); i++) {
            out.writeUTF(b.topics[i]);
            out.writeInt(b.partitions[i]);
            out.writeLong(b.offsets[i]);
            out.writeInt(b.rowCounts[i]);
            out.writeInt(b.lengths[i]);
        }
    }

    @Override
    public SealedBatch deserialize(int version, byte[] serialized) throws IOException {
        if (version < 1 || version > VERSION) {
            throw new IOException("unknown version " + version + " of a ClickHouse sink committable (this release reads 1"
                    + " to " + VERSION + "); restore with the release that took the checkpoint");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        String kind = in.readUTF();
        int table;
        try {
            table = OtelTable.valueOf(kind).ordinal();
        } catch (IllegalArgumentException e) {
            throw new IOException("a batch in the checkpoint is for table " + kind + ", which this release does not"
                    + " write; restore with the release that took the checkpoint", e);
        }
        String codec = in.readUTF();
        Compression compression;
        try {
            compression = Compression.valueOf(codec);
        } catch (IllegalArgumentException e) {
            throw new IOException("a batch in the checkpoint is compressed with " + codec + ", which this release does"
                    + " not know", e);
        }
        InsertFormat format = InsertFormat.ROWBINARY;
        if (version >= 3) {
            String f = in.readUTF();
            try {
                format = InsertFormat.valueOf(f);
            } catch (IllegalArgumentException e) {
                throw new IOException("a batch in the checkpoint is in format " + f + ", which this release does not"
                        + " know", e);
            }
        }
        String token = null;
        byte[] header = null;
        if (version >= 2) {
            token = in.readUTF();
            if (token.isEmpty()) {
                token = null;
            }
            header = new byte[length(in, 1, "header")];
            in.readFully(header);
        }
        int rawBytes = in.readInt();
        int rows = in.readInt();
        long checksum = in.readLong();
        // a record takes 22 bytes at least: every count is held to the bytes that are left
        int n = length(in, 22, "record count");
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
            if (rowCounts[i] < 0 || lengths[i] < 0) {
                throw new IOException("a batch in the checkpoint is damaged: a record with " + rowCounts[i] + " rows of "
                        + lengths[i] + " bytes");
            }
        }
        byte[] body = new byte[length(in, 1, "body length")];
        in.readFully(body);
        if (n == 0 || rows < 0 || rawBytes < 0) {
            throw new IOException("a batch in the checkpoint is damaged: " + n + " records, " + rows + " rows, "
                    + rawBytes + " bytes");
        }
        if (format == InsertFormat.NATIVE && header == null) {
            throw new IOException("a batch in the checkpoint is damaged: Native without a header");
        }
        return new SealedBatch(table, format, compression, header, Body.of(body), rawBytes, rows, checksum, token, topics, partitions,
                offsets, rowCounts, lengths);
    }

    /**
     * A length or count read from the state, refused as damage when negative or larger than what
     * is left could hold at {@code bytesEach} bytes per element.
     */
    private static int length(DataInputDeserializer in, int bytesEach, String what) throws IOException {
        int n = in.readInt();
        if (n < 0 || (long) n * bytesEach > in.available()) {
            throw new IOException("a batch in the checkpoint is damaged: its " + what + " is " + n + " with "
                    + in.available() + " bytes left");
        }
        return n;
    }
}
