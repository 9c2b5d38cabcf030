package io.tributary.otlp;

/**
 * Bytes that are not a valid protobuf message: what protobuf-java's parser would refuse. Unchecked,
 * as {@link InvalidOtlpException} is: it can surface from a column writer in the middle of a row,
 * and the decode operator sends the record to the dead letters either way.
 */
public final class InvalidProtobufException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public InvalidProtobufException(String detail) {
        super("invalid OTLP protobuf: " + detail);
    }
}
