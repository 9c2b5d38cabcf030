package io.tributary.decode;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;

import java.io.IOException;

/**
 * Decodes a Kafka record value into an OTLP export request of one signal, from protobuf or
 * OTLP/JSON. The {@code Export*ServiceRequest} and {@code *Data} messages share one wire and
 * JSON shape, so either kind of record decodes.
 *
 * @param <M> the request type
 */
public final class OtlpDecoder<M extends Message> {

    private final Encoding encoding;
    private final M defaultInstance;

    public OtlpDecoder(Encoding encoding, M defaultInstance) {
        this.encoding = encoding;
        this.defaultInstance = defaultInstance;
    }

    /**
     * @throws IOException when the bytes are not a valid request in the detected encoding; the
     *     message says which encoding was tried and why it failed
     */
    @SuppressWarnings("unchecked")
    public M decode(byte[] value) throws IOException {
        if (encoding.of(value) == Encoding.OTLP_JSON) {
            try {
                return OtlpJsonParser.parse(value, 0, value.length, defaultInstance);
            } catch (com.fasterxml.jackson.core.JacksonException e) {
                throw new IOException("invalid OTLP/JSON: " + e.getOriginalMessage(), e);
            }
        }
        try {
            return (M) defaultInstance.getParserForType().parseFrom(value);
        } catch (InvalidProtocolBufferException e) {
            throw new IOException("invalid OTLP protobuf: " + e.getMessage(), e);
        }
    }
}
