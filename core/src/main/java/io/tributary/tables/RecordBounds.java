package io.tributary.tables;

import java.io.Serializable;

/**
 * How much one Kafka record may render: at most {@code maxRows} rows and {@code maxBytes} bytes of
 * RowBinary over all its tables. Without a bound a small record can render gigabytes, because the
 * resource and scope columns are copied into every row: 270 KB of protobuf (a 64 KiB resource
 * attribute and 100,000 empty spans) render 6.5 GB. {@link RecordRows} stops at the first row past
 * either bound and the record goes to the dead-letter topic.
 *
 * @param maxRows rows per record, all tables together ({@value #MAX_ROWS_KEY})
 * @param maxBytes RowBinary bytes per record, all tables together ({@value #MAX_BYTES_KEY})
 */
public record RecordBounds(int maxRows, int maxBytes) implements Serializable {

    public static final String MAX_ROWS_KEY = "decode.max-rows-per-record";
    public static final String MAX_BYTES_KEY = "decode.max-bytes-per-record";

    /**
     * Ten times {@code sink.batch.max-rows}: far above what exporters put in one record (the
     * collector's batch processor sends 8,192 by default; a large Prometheus scrape some
     * 100,000), and with the smallest rows the job writes still well within {@link
     * #DEFAULT_MAX_BYTES}. It bounds the per-row costs the byte bound does not see (the SQL
     * functions build an object per row).
     */
    public static final int DEFAULT_MAX_ROWS = 1_000_000;
    /**
     * {@code sink.batch.max-bytes}' default: a record's rows always fit one INSERT, and a record
     * holds at most this much (plus, while a buffer doubles, its copy) of a TaskManager's heap of
     * 1-2 GiB: room for a few slots decoding at once.
     */
    public static final int DEFAULT_MAX_BYTES = 64 << 20;

    /** The defaults, for what runs without the job's settings (the SQL functions). */
    public static final RecordBounds DEFAULT = new RecordBounds(DEFAULT_MAX_ROWS, DEFAULT_MAX_BYTES);

    public RecordBounds {
        if (maxRows <= 0 || maxBytes <= 0) {
            throw new IllegalArgumentException("bounds must be positive: " + maxRows + " rows, " + maxBytes + " bytes");
        }
    }
}
