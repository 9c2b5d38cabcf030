package io.tributary.sink;

import java.util.Locale;

/**
 * What the sink does when a table refuses a batch as a whole ({@code sink.table-refusal}): its
 * columns are not those the rows were encoded in (changed incompatibly, or a batch from a
 * checkpoint taken before the change), it has refused every record of several batches in a row or
 * too many of one, a view refused rows the table stored and keeps no deduplication window to send
 * parts again, or the error is one the job does not know (see {@link BatchInserter}).
 */
public enum TableRefusalAction {
    /** Stop the job once, naming the table and ClickHouse's message; no restart. */
    FAIL("fail"),
    /** Send the batch's records to the dead-letter topic with the reason, and go on. */
    DEAD_LETTER("dead-letter");

    private final String id;

    TableRefusalAction(String id) {
        this.id = id;
    }

    /** The setting's value. */
    public String id() {
        return id;
    }

    /** Parses {@code fail|dead-letter}. */
    public static TableRefusalAction parse(String s) {
        String v = s.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        for (TableRefusalAction a : values()) {
            if (a.id.equals(v)) {
                return a;
            }
        }
        throw new IllegalArgumentException("must be fail or dead-letter; got '" + s + "'");
    }
}
