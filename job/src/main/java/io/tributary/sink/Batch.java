package io.tributary.sink;

import java.util.ArrayList;
import java.util.List;

/**
 * The rows gathered for one table until the batch closes: chunks as they arrived, each the rows of
 * one Kafka record, with where that record is.
 */
final class Batch {

    final int table;
    final long createdAtMillis;
    final List<byte[]> chunks = new ArrayList<>();
    final List<EncodedRows> sources = new ArrayList<>();
    int rows;
    long bytes;

    Batch(int table, long createdAtMillis) {
        this.table = table;
        this.createdAtMillis = createdAtMillis;
    }

    void add(EncodedRows e) {
        chunks.add(e.data);
        sources.add(e);
        rows += e.rows;
        bytes += e.data.length;
    }
}
