package io.tributary.jdbc;

import org.apache.flink.runtime.throwable.ThrowableAnnotation;
import org.apache.flink.runtime.throwable.ThrowableType;

/**
 * A ClickHouse JDBC table used in a way ClickHouse cannot serve (an upsert, an update, a delete, a
 * password in the table's options). Marked non-recoverable: the job fails at once with the message
 * instead of restarting into the same error.
 */
@ThrowableAnnotation(ThrowableType.NonRecoverableError)
public final class ClickHouseRefusalException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ClickHouseRefusalException(String message) {
        super(message);
    }
}
