package io.tributary.clickhouse;

import java.io.IOException;

/** An INSERT that ClickHouse refused, with the server's error code and message. */
public final class ClickHouseException extends IOException {
    private static final long serialVersionUID = 1L;

    private final int httpStatus;
    private final int errorCode;
    private final boolean retryable;

    public ClickHouseException(String message, int httpStatus, int errorCode, boolean retryable) {
        super(message);
        this.httpStatus = httpStatus;
        this.errorCode = errorCode;
        this.retryable = retryable;
    }

    public int httpStatus() {
        return httpStatus;
    }

    /** ClickHouse's error code (X-ClickHouse-Exception-Code), or -1 when the reply had none. */
    public int errorCode() {
        return errorCode;
    }

    public boolean retryable() {
        return retryable;
    }
}
