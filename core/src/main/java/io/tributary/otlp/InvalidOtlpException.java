package io.tributary.otlp;

/** Input that is well-formed protobuf or JSON but not valid OTLP (for example an id of 5 bytes). */
public final class InvalidOtlpException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public InvalidOtlpException(String message) {
        super(message);
    }

    public InvalidOtlpException(String message, Throwable cause) {
        super(message, cause);
    }
}
