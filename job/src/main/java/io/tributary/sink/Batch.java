package io.tributary.sink;

import io.tributary.clickhouse.body.BodyWriter;
import io.tributary.clickhouse.body.Compression;
import io.tributary.clickhouse.body.SegmentPool;
import io.tributary.tables.EncodedRows;
import io.tributary.tables.OtelTable;

import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The rows gathered for one table until the batch closes, all encoded in one layout ({@link
 * #header}): compressed as they arrive into the INSERT body ({@link BodyWriter}), with where each
 * Kafka record they come from is and how many rows and bytes it gave. Written by the sink's task
 * thread, then sealed by a sender thread.
 */
final class Batch {

    final int table;
    final byte[] header;
    final long createdAtMillis;
    private final Compression compression;
    private final BodyWriter body;
    /** Exactly once: the checksum of the rows, part of the batch's token. */
    private final CRC32C crc;
    private String[] topics = new String[16];
    private int[] partitions = new int[16];
    private long[] offsets = new long[16];
    private int[] rowCounts = new int[16];
    private int[] lengths = new int[16];
    private int records;
    int rows;
    /** Uncompressed bytes of the rows (the header not counted). */
    long bytes;

    Batch(int table, byte[] header, long createdAtMillis, Compression compression, SegmentPool pool, boolean checksum) {
        this.table = table;
        this.header = header;
        this.createdAtMillis = createdAtMillis;
        this.compression = compression;
        this.body = compression.open(pool);
        this.crc = checksum ? new CRC32C() : null;
        body.write(header, 0, header.length);
    }

    /** Copies the record's rows into the batch (they are lent only for the call). */
    void add(EncodedRows e) {
        body.write(e.data, 0, e.length);
        if (crc != null) {
            crc.update(e.data, 0, e.length);
        }
        if (records == offsets.length) {
            int n = records * 2;
            topics = Arrays.copyOf(topics, n);
            partitions = Arrays.copyOf(partitions, n);
            offsets = Arrays.copyOf(offsets, n);
            rowCounts = Arrays.copyOf(rowCounts, n);
            lengths = Arrays.copyOf(lengths, n);
        }
        topics[records] = e.topic;
        partitions[records] = e.partition;
        offsets[records] = e.offset;
        rowCounts[records] = e.rows;
        lengths[records] = e.length;
        records++;
        rows += e.rows;
        bytes += e.length;
    }

    /** True when rows of {@code header}'s layout may join this batch. */
    boolean sameLayout(byte[] other) {
        return other == header || Arrays.equals(other, header);
    }

    /** Closes the batch: the rest of its body compressed and, exactly once, its token made. */
    SealedBatch seal() {
        String[] t = Arrays.copyOf(topics, records);
        int[] p = Arrays.copyOf(partitions, records);
        long[] o = Arrays.copyOf(offsets, records);
        long checksum = crc == null ? 0 : crc.getValue();
        String token = crc == null ? null : SealedBatch.token(OtelTable.values()[table], t, p, o, rows, checksum);
        return new SealedBatch(table, compression, header, body.finish(), (int) (header.length + bytes), rows, checksum,
                token, t, p, o, Arrays.copyOf(rowCounts, records), Arrays.copyOf(lengths, records));
    }

    /** Drops the batch, giving its buffers back. */
    void abandon() {
        body.abandon();
    }
}
