package io.tributary.otlp;

import java.io.IOException;

/** Bytes that are not a valid protobuf message: what protobuf-java's parser would refuse. */
public final class InvalidProtobufException extends IOException {
    private static final long serialVersionUID = 1L;

    public InvalidProtobufException(String detail) {
        super("invalid OTLP protobuf: " + detail);
    }
}
