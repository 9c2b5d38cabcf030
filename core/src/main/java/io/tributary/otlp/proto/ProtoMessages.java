package io.tributary.otlp.proto;

import io.tributary.otlp.InvalidProtobufException;
import io.tributary.otlp.LenientUtf8;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;

/**
 * protobuf-java messages of parts of a record, for the values the wire readers hand to the
 * object-based renderers (an array or map attribute value, attributes for the JSON flavour).
 * Invalid UTF-8 is read as everywhere else, with U+FFFD.
 */
public final class ProtoMessages {

    private ProtoMessages() {}

    /** The message encoded in {@code b[off, off + len)}. */
    @SuppressWarnings("unchecked")
    public static <M extends Message> M parse(byte[] b, int off, int len, M defaultInstance) throws InvalidProtobufException {
        try {
            return (M) defaultInstance.getParserForType().parseFrom(b, off, len);
        } catch (InvalidProtocolBufferException e) {
            if (LenientUtf8.isInvalidUtf8(e)) {
                byte[] copy = java.util.Arrays.copyOfRange(b, off, off + len);
                try {
                    return LenientUtf8.parse(copy, defaultInstance);
                } catch (InvalidProtocolBufferException again) {
                    throw new InvalidProtobufException(again.getMessage());
                }
            }
            throw new InvalidProtobufException(e.getMessage());
        }
    }
}
