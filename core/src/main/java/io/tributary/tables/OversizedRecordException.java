package io.tributary.tables;

/**
 * A record that would render more rows or RowBinary bytes than {@link RecordBounds} allow: it is
 * refused whole (to the dead-letter topic) instead of taking the task's memory. The message names
 * the setting that bounds it.
 */
public final class OversizedRecordException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public OversizedRecordException(String message) {
        super(message);
    }
}
