package io.tributary.config;

import java.util.Locale;

/** Where the Kafka source starts when the job has no checkpoint or savepoint to restore. */
public enum StartingOffsets {
    /** The group's committed offsets; partitions without one start at the earliest offset. */
    COMMITTED,
    EARLIEST,
    LATEST;

    static StartingOffsets parse(String s) {
        try {
            return valueOf(s.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("must be one of committed, earliest, latest");
        }
    }
}
