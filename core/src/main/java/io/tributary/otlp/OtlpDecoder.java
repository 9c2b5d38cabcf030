package io.tributary.otlp;

import io.tributary.otlp.json.OtlpJsonParser;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.UnsafeByteOperations;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Decodes a Kafka record value into an OTLP export request of one signal, from protobuf or
 * OTLP/JSON. The {@code Export*ServiceRequest} and {@code *Data} messages share one wire and
 * JSON shape, so either kind of record decodes. Strings that are not valid UTF-8, which the
 * collector accepts, are read with U+FFFD in place of the invalid bytes.
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
            // invalid UTF-8, which the collector accepts, gets U+FFFD in place of what is not UTF-8
            // (as in protobuf records) before Jackson sees it: Jackson refuses some of it, and reads
            // some (an overlong four-byte form) as broken UTF-16 without complaint
            byte[] json = UnsafeByteOperations.unsafeWrap(value).isValidUtf8()
                    ? value : new String(value, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8);
            try {
                return OtlpJsonParser.parse(json, 0, json.length, defaultInstance);
            } catch (com.fasterxml.jackson.core.JacksonException e) {
                throw new IOException("invalid OTLP/JSON: " + e.getOriginalMessage(), e);
            }
        }
        try {
            return (M) defaultInstance.getParserForType().parseFrom(value);
        } catch (InvalidProtocolBufferException e) {
            if (LenientUtf8.isInvalidUtf8(e)) {
                try {
                    return LenientUtf8.parse(value, defaultInstance);
                } catch (InvalidProtocolBufferException again) {
                    throw new IOException("invalid OTLP protobuf: " + again.getMessage(), again);
                }
            }
            throw new IOException("invalid OTLP protobuf: " + e.getMessage(), e);
        }
    }
}
