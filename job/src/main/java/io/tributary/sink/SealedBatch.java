package io.tributary.sink;

import io.tributary.clickhouse.body.Body;
import io.tributary.clickhouse.body.BodyWriter;
import io.tributary.clickhouse.body.Compression;
import io.tributary.clickhouse.body.SegmentPool;
import io.tributary.nativeformat.NativeBlock;
import io.tributary.tables.OtelTable;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A closed batch, compressed and ready to send: the request body plus, for each Kafka record whose
 * rows it holds, where that record is and how many rows and bytes it gave. Immutable, so a retry
 * resends the same bytes; in exactly-once mode it is also the committable that a checkpoint keeps
 * until the INSERT is done ({@link SealedBatchSerializer}).
 *
 * <p>The body is in the batch's {@link #format}: {@code RowBinaryWithNamesAndTypes}, the {@link
 * #header} naming the columns and types the rows were encoded in, then the rows; or a {@code
 * Native} block of those columns. So a batch carries what its INSERT needs whatever the settings
 * of the release that inserts it, and ClickHouse checks it against the table. Batches of release
 * 0.1's checkpoints have no header ({@link #legacy()}): plain RowBinary of that release's columns.
 * The per-record lengths are of the rows in RowBinary in both formats.
 */
public final class SealedBatch {

    /** Which table ({@link OtelTable} ordinal). */
    final int table;
    final InsertFormat format;
    final Compression compression;
    /** The columns and types of the rows ({@code RowBinaryWithNamesAndTypes} header, either format); null for a 0.1 batch. */
    final byte[] header;
    final Body body;
    /** Bytes of the body before compression, header included (Native: the block's). */
    final int rawBytes;
    final int rows;
    /** CRC-32C of the uncompressed rows: tells apart batches that cover the same offsets. */
    final long checksum;
    /** The {@code insert_deduplication_token} (exactly once), or null. */
    final String token;
    final String[] topics;
    final int[] partitions;
    final long[] offsets;
    final int[] rowCounts;
    final int[] lengths;

    SealedBatch(
            int table,
            InsertFormat format,
            Compression compression,
            byte[] header,
            Body body,
            int rawBytes,
            int rows,
            long checksum,
            String token,
            String[] topics,
            int[] partitions,
            long[] offsets,
            int[] rowCounts,
            int[] lengths) {
        if (format == InsertFormat.NATIVE && header == null) {
            throw new IllegalArgumentException("a Native batch has a header");
        }
        this.table = table;
        this.format = format;
        this.compression = compression;
        this.header = header;
        this.body = body;
        this.rawBytes = rawBytes;
        this.rows = rows;
        this.checksum = checksum;
        this.token = token;
        this.topics = topics;
        this.partitions = partitions;
        this.offsets = offsets;
        this.rowCounts = rowCounts;
        this.lengths = lengths;
    }

    /** True for a batch of a 0.1 checkpoint: plain RowBinary, without a header. */
    boolean legacy() {
        return header == null;
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

    /** Uncompressed bytes of the rows of records {@code [from, to)}. */
    long bytes(int from, int to) {
        long sum = 0;
        for (int i = from; i < to; i++) {
            sum += lengths[i];
        }
        return sum;
    }

    /** The rows of each record in RowBinary, uncompressed (to split a refused batch). */
    List<byte[]> chunks() {
        byte[] raw = compression.decompress(body, rawBytes);
        int at = header == null ? 0 : header.length;
        if (format == InsertFormat.NATIVE) {
            raw = nativeRows(raw);
            at = 0;
        }
        List<byte[]> out = new ArrayList<>(lengths.length);
        for (int len : lengths) {
            byte[] c = new byte[len];
            System.arraycopy(raw, at, c, 0, len);
            out.add(c);
            at += len;
        }
        return out;
    }

    /**
     * The rows of a Native body in RowBinary, checked against what the batch says of its records:
     * a block that does not give back exactly their rows and bytes is a bug, never split on.
     */
    private byte[] nativeRows(byte[] block) {
        NativeBlock.Rows r = NativeBlock.rows(block, bytes(0, records()));
        int[] ends = r.rowEnds();
        int row = 0;
        long at = 0;
        for (int i = 0; i < lengths.length; i++) {
            row += rowCounts[i];
            at += lengths[i];
            if (row > ends.length || (row > 0 && ends[row - 1] != at)) {
                throw new IllegalStateException("a Native batch's block does not hold the rows of its " + records()
                        + " records (record " + i + ")");
            }
        }
        if (row != ends.length || at != r.data().length) {
            throw new IllegalStateException("a Native batch's block holds " + ends.length + " rows, its records "
                    + row);
        }
        return r.data();
    }

    /**
     * A body of the rows of records {@code [from, to)}, in this batch's format, with its header.
     *
     * @param all every record's rows ({@link #chunks})
     */
    Body body(List<byte[]> all, int from, int to) {
        List<byte[]> chunks = all.subList(from, to);
        if (format == InsertFormat.NATIVE) {
            NativeBlock block = NativeBlock.forHeader(header);
            for (int i = from; i < to; i++) {
                block.addRows(all.get(i), 0, all.get(i).length, rowCounts[i]);
            }
            BodyWriter w = compression.open(new SegmentPool(0));
            block.writeTo(w::write);
            return w.finish();
        }
        if (header == null) {
            return compression.compress(chunks);
        }
        List<byte[]> parts = new ArrayList<>(chunks.size() + 1);
        parts.add(header);
        parts.addAll(chunks);
        return compression.compress(parts);
    }

    /**
     * The {@code insert_deduplication_token} of a batch: which of the exporter's tables, the first
     * and last record's coordinates, the record and row counts and the checksum of the rows. It
     * depends on nothing that settings or releases change (not the table's name, not the
     * database), so the same batch always gets the same token; a batch of other rows (a topic
     * deleted and created again, offsets reset) does not, so ClickHouse drops only true repeats.
     */
    static String token(OtelTable table, String[] topics, int[] partitions, long[] offsets, int rows, long checksum) {
        int last = offsets.length - 1;
        return "tributary:2:" + table.name() + ":" + topics[0] + "-" + partitions[0] + "@" + offsets[0]
                + ".." + topics[last] + "-" + partitions[last] + "@" + offsets[last]
                + ":" + offsets.length + ":" + rows + ":" + HexFormat.of().toHexDigits((int) checksum);
    }

    /**
     * The token release 0.1 gave a batch of its checkpoints, for the table's qualified name: a
     * batch restored from such a checkpoint must repeat it, in case 0.1 had inserted it already.
     */
    String legacyToken(String qualifiedTable) {
        int last = offsets.length - 1;
        return "tributary:" + qualifiedTable + ":" + topics[0] + "-" + partitions[0] + "@" + offsets[0]
                + ".." + topics[last] + "-" + partitions[last] + "@" + offsets[last]
                + ":" + offsets.length + ":" + rows + ":" + HexFormat.of().toHexDigits((int) checksum);
    }
}
