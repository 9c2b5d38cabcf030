package io.tributary.sink;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * A closed batch, compressed and ready to send: the request body plus, for each Kafka record whose
 * rows it holds, where that record is and how many rows and bytes it gave. Immutable, so a retry
 * resends the same bytes; in exactly-once mode it is also the committable that a checkpoint keeps
 * until the INSERT is done ({@link SealedBatchSerializer}).
 */
public final class SealedBatch {

    /** Index of the target table ({@code OtelTable} ordinal). */
    final int table;
    final Compression compression;
    final byte[] body;
    final int rawBytes;
    final int rows;
    /** CRC-32C of the uncompressed rows: tells apart batches that cover the same offsets. */
    final long checksum;
    final String[] topics;
    final int[] partitions;
    final long[] offsets;
    final int[] rowCounts;
    final int[] lengths;

    SealedBatch(
            int table,
            Compression compression,
            byte[] body,
            int rawBytes,
            int rows,
            long checksum,
            String[] topics,
            int[] partitions,
            long[] offsets,
            int[] rowCounts,
            int[] lengths) {
        this.table = table;
        this.compression = compression;
        this.body = body;
        this.rawBytes = rawBytes;
        this.rows = rows;
        this.checksum = checksum;
        this.topics = topics;
        this.partitions = partitions;
        this.offsets = offsets;
        this.rowCounts = rowCounts;
        this.lengths = lengths;
    }

    /**
     * Compresses an open batch's rows and keeps where each record's rows came from; with {@code
     * checksum} (exactly once, for the {@link #token}) also checksums them, else the checksum is 0.
     */
    static SealedBatch seal(Batch b, Compression compression, boolean checksum) {
        int n = b.sources.size();
        String[] topics = new String[n];
        int[] partitions = new int[n];
        long[] offsets = new long[n];
        int[] rowCounts = new int[n];
        int[] lengths = new int[n];
        CRC32C crc = new CRC32C();
        for (int i = 0; i < n; i++) {
            EncodedRows r = b.sources.get(i);
            topics[i] = r.topic;
            partitions[i] = r.partition;
            offsets[i] = r.offset;
            rowCounts[i] = r.rows;
            lengths[i] = r.data.length;
            if (checksum) {
                crc.update(r.data);
            }
        }
        return new SealedBatch(b.table, compression, compression.compress(b.chunks, b.bytes), (int) b.bytes, b.rows,
                checksum ? crc.getValue() : 0, topics, partitions, offsets, rowCounts, lengths);
    }

    /** Number of Kafka records whose rows the batch holds. */
    int records() {
        return offsets.length;
    }

    /** Rows of records {@code [from, to)}. */
    int rows(int from, int to) {
        int sum = 0;
        for (int i = from; i < to; i++) {
            sum += rowCounts[i];
        }
        return sum;
    }

    /** Uncompressed bytes of records {@code [from, to)}. */
    long bytes(int from, int to) {
        long sum = 0;
        for (int i = from; i < to; i++) {
            sum += lengths[i];
        }
        return sum;
    }

    /** The rows of each record, uncompressed (to split a refused batch). */
    List<byte[]> chunks() {
        byte[] raw = compression.decompress(body, rawBytes);
        List<byte[]> out = new ArrayList<>(lengths.length);
        int at = 0;
        for (int len : lengths) {
            byte[] c = new byte[len];
            System.arraycopy(raw, at, c, 0, len);
            out.add(c);
            at += len;
        }
        return out;
    }

    /**
     * The {@code insert_deduplication_token} of this batch in {@code table} (qualified name): the
     * first and last record's coordinates, the record and row counts and the checksum of the rows.
     * The same batch always gets the same token; a batch of other rows (a topic deleted and created
     * again, offsets reset) does not, so ClickHouse drops only true repeats.
     */
    String token(String table) {
        int last = offsets.length - 1;
        return "tributary:" + table + ":" + topics[0] + "-" + partitions[0] + "@" + offsets[0]
                + ".." + topics[last] + "-" + partitions[last] + "@" + offsets[last]
                + ":" + offsets.length + ":" + rows + ":" + HexFormat.of().toHexDigits((int) checksum);
    }
}
