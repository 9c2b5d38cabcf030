package io.tributary.decode;

import com.google.protobuf.InvalidProtocolBufferException;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

import java.io.IOException;

/** Decodes a Kafka record value into an OTLP traces request, protobuf or JSON. */
public final class TracesDecoder {

    private final Encoding encoding;

    public TracesDecoder(Encoding encoding) {
        this.encoding = encoding;
    }

    /**
     * @throws IOException when the bytes are not a valid request in the detected encoding; the
     *     message says which encoding was tried and why it failed
     */
    public ExportTraceServiceRequest decode(byte[] value) throws IOException {
        Encoding e = encoding.of(value);
        if (e == Encoding.OTLP_JSON) {
            try {
                return OtlpJsonTraces.parse(value, 0, value.length);
            } catch (com.fasterxml.jackson.core.JacksonException ex) {
                throw new IOException("invalid OTLP/JSON: " + ex.getOriginalMessage(), ex);
            }
        }
        try {
            return ExportTraceServiceRequest.parseFrom(value);
        } catch (InvalidProtocolBufferException ex) {
            throw new IOException("invalid OTLP protobuf: " + ex.getMessage(), ex);
        }
    }
}
