package io.tributary.sink;

import java.util.ArrayList;
import java.util.List;

/** The rows gathered for one table until the batch closes: chunks as they arrived. */
final class Batch {

    final int table;
    final long createdAtMillis;
    final List<byte[]> chunks = new ArrayList<>();
    int rows;
    long bytes;

    Batch(int table, long createdAtMillis) {
        this.table = table;
        this.createdAtMillis = createdAtMillis;
    }

    void add(byte[] chunk, int rowCount) {
        chunks.add(chunk);
        rows += rowCount;
        bytes += chunk.length;
    }
}
