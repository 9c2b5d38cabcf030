package io.tributary.sink;

import io.tributary.clickhouse.body.Body;
import io.tributary.clickhouse.body.BodyWriter;
import io.tributary.clickhouse.body.Compression;
import io.tributary.clickhouse.body.SegmentPool;
import io.tributary.nativeformat.NativeBlock;
import io.tributary.tables.EncodedRows;
import io.tributary.tables.OtelTable;

import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The rows gathered for one table until the batch closes, all encoded in one layout ({@link
 * #header}), with where each Kafka record they come from is and how many rows and bytes it gave.
 * In RowBinary they are compressed as they arrive into the INSERT body ({@link BodyWriter}); in
 * Native each value goes to its column as it arrives ({@link NativeBlock}), and the block is
 * written and compressed when the batch is sealed. Written by the sink's task thread, then sealed
 * by a sender thread.
 */
final class Batch {

    final int table;
    final byte[] header;
    final long createdAtMillis;
    final InsertFormat format;
    private final Compression compression;
    private final SegmentPool pool;
    /** RowBinary: the body, written as rows arrive. */
    private final BodyWriter body;
    /** Native: the columns; given back once sealed, so an INSERT in flight holds only its compressed body. */
    private NativeBlock block;
    private final NativeBlocks blocks;
    /** Exactly once: the checksum of the rows, part of the batch's token. */
    private final CRC32C crc;
    private String[] topics = new String[16];
    private int[] partitions = new int[16];
    private long[] offsets = new long[16];
    private int[] rowCounts = new int[16];
    private int[] lengths = new int[16];
    private int records;
    int rows;
    /** Uncompressed bytes of the rows (the header not counted): RowBinary, or the Native columns. */
    long bytes;

    /**
     * @param blocks the Native blocks to take this batch's from, or null for RowBinary (also
     *     RowBinary when the layout has a column Native is not written for)
     */
    Batch(int table, byte[] header, long createdAtMillis, Compression compression, SegmentPool pool, boolean checksum,
            NativeBlocks blocks) {
        this.table = table;
        this.header = header;
        this.createdAtMillis = createdAtMillis;
        this.compression = compression;
        this.pool = pool;
        this.crc = checksum ? new CRC32C() : null;
        this.blocks = blocks;
        this.block = blocks == null ? null : blocks.take(header);
        this.format = block == null ? InsertFormat.ROWBINARY : InsertFormat.NATIVE;
        if (block == null) {
            this.body = compression.open(pool);
            body.write(header, 0, header.length);
        } else {
            this.body = null;
        }
    }

    /**
     * Copies the record's rows into the batch (they are lent only for the call).
     *
     * @return the bytes the batch grew by against the budget: the rows' RowBinary, or in Native the
     *     bytes the columns took (an empty array is one byte of RowBinary but an 8-byte offset)
     */
    long add(EncodedRows e) {
        long grew;
        if (format == InsertFormat.NATIVE) {
            block.addRows(e.data, 0, e.length, e.rows);
            long used = block.used();
            grew = used - bytes; // bytes is what the columns used after the last record
        } else {
            body.write(e.data, 0, e.length);
            grew = e.length;
        }
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
        bytes += grew;
        return grew;
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
        Body sealed;
        long rawBytes;
        if (format == InsertFormat.NATIVE) {
            BodyWriter w = compression.open(pool);
            long[] written = new long[1];
            block.writeTo((b, off, len) -> {
                w.write(b, off, len);
                written[0] += len;
            });
            blocks.give(header, block);
            block = null;
            sealed = w.finish();
            rawBytes = written[0];
        } else {
            sealed = body.finish();
            rawBytes = header.length + bytes;
        }
        if (rawBytes > Integer.MAX_VALUE) {
            throw new IllegalStateException("a batch of " + rawBytes + " bytes; sink.batch.max-bytes keeps them below 2 GB");
        }
        return new SealedBatch(table, format, compression, header, sealed, (int) rawBytes, rows, checksum, token, t, p,
                o, Arrays.copyOf(rowCounts, records), Arrays.copyOf(lengths, records));
    }

    /** Drops the batch, giving its buffers back. */
    void abandon() {
        if (body != null) {
            body.abandon();
        }
        if (block != null) {
            blocks.give(header, block);
            block = null;
        }
    }
}
