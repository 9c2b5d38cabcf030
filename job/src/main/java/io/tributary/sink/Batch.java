package io.tributary.sink;

import io.tributary.tables.EncodedRows;

import java.util.ArrayList;
import java.util.List;

/**
 * The rows gathered for one table until the batch closes: chunks as they arrived, each the rows of
 * one Kafka record, with where that record is, all encoded in one layout ({@link #header}).
 */
final class Batch {

    final int table;
    final byte[] header;
    final long createdAtMillis;
    final List<byte[]> chunks = new ArrayList<>();
    final List<EncodedRows> sources = new ArrayList<>();
    int rows;
    long bytes;

    Batch(int table, byte[] header, long createdAtMillis) {
        this.table = table;
        this.header = header;
        this.createdAtMillis = createdAtMillis;
    }

    void add(EncodedRows e) {
        chunks.add(e.data);
        sources.add(e);
        rows += e.rows;
        bytes += e.data.length;
    }

    /** True when rows of {@code header}'s layout may join this batch. */
    boolean sameLayout(byte[] other) {
        return other == header || java.util.Arrays.equals(other, header);
    }
}
