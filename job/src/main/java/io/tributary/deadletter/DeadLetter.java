package io.tributary.deadletter;

import io.tributary.kafka.SourceRecord;

/**
 * A record that could not be turned into rows, on its way to the dead-letter topic: the original
 * record and why it failed. A POJO so Flink serializes it without Kryo.
 */
public final class DeadLetter {

    public SourceRecord record;
    /** The exception class that says what went wrong (the root cause's). */
    public String errorClass;
    /** What went wrong, with the place in the record where known. */
    public String errorMessage;
    /** When it failed, milliseconds since the epoch. */
    public long failedAt;

    public DeadLetter() {}

    /** The most characters of an error message a letter carries (a reader may quote what it refused). */
    public static final int MAX_MESSAGE = 2000;

    /** {@code message}, cut to {@link #MAX_MESSAGE} characters. */
    public static String bounded(String message) {
        return message.length() <= MAX_MESSAGE ? message : message.substring(0, MAX_MESSAGE) + "... ("
                + message.length() + " characters)";
    }

    public DeadLetter(SourceRecord record, Throwable error, long failedAt) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        this.record = record;
        this.errorClass = root.getClass().getName();
        this.errorMessage = bounded(String.valueOf(error.getMessage()));
        this.failedAt = failedAt;
    }
}
