package io.tributary.sink;

import java.util.Locale;

/** What the ClickHouse sink promises about each row ({@code sink.delivery}). */
public enum Delivery {
    /**
     * Every row is written before the checkpoint that covers it completes; after a failure the
     * rows since the last completed checkpoint are written again (duplicates, never a loss).
     */
    AT_LEAST_ONCE("at-least-once"),
    /**
     * Rows are sealed into batches at each checkpoint and inserted once it completes, each INSERT
     * with an {@code insert_deduplication_token} derived from its content, so an INSERT repeated
     * after a failure is dropped by ClickHouse instead of stored twice.
     */
    EXACTLY_ONCE("exactly-once");

    private final String id;

    Delivery(String id) {
        this.id = id;
    }

    /** The setting's value. */
    public String id() {
        return id;
    }

    /** Parses {@code at-least-once|exactly-once}. */
    public static Delivery parse(String s) {
        String v = s.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        for (Delivery d : values()) {
            if (d.id.equals(v)) {
                return d;
            }
        }
        throw new IllegalArgumentException("must be at-least-once or exactly-once; got '" + s + "'");
    }
}
