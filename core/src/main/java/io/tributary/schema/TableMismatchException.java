package io.tributary.schema;

import java.io.IOException;

/** The tables do not fit what the job writes, or do not exist: a setting or a table to fix, not to retry. */
public final class TableMismatchException extends IOException {
    private static final long serialVersionUID = 1L;

    public TableMismatchException(String message) {
        super(message);
    }
}
