package io.tributary.encoding;

import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.tributary.otlp.profiles.ExportProfilesServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.OtlpDecoder;
import io.tributary.otlp.Signal;
import io.tributary.otlp.json.OtlpJsonToWire;

import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * OTLP: {@code otlp_proto} (the request's protobuf, read where it lies), {@code otlp_json} (read
 * in one pass into protobuf wire bytes, see {@link OtlpJsonToWire}) and {@code auto}, decided per
 * record ({@link Encoding#of}).
 */
public final class OtlpEncoding implements RecordEncoding {

    @Override
    public List<String> names() {
        return List.of("auto", "otlp_proto", "otlp_json");
    }

    @Override
    public Set<Signal> signals() {
        return EnumSet.allOf(Signal.class);
    }

    @Override
    public RecordDecoder decoder(String name, Signal signal) {
        Encoding encoding;
        try {
            encoding = Encoding.parse(name);
        } catch (IllegalArgumentException e) {
            return null;
        }
        return decoder(encoding, signal);
    }

    /** The decoder of OTLP records in {@code encoding}. */
    public static RecordDecoder decoder(Encoding encoding, Signal signal) {
        if (encoding == Encoding.OTLP_PROTO) {
            return (value, headers) -> value;
        }
        JsonRecords json = new JsonRecords(request(signal));
        if (encoding == Encoding.OTLP_JSON) {
            return (value, headers) -> json.wire(value);
        }
        return (value, headers) -> encoding.of(value) == Encoding.OTLP_JSON ? json.wire(value) : value;
    }

    static Message request(Signal signal) {
        switch (signal) {
            case TRACES:
                return ExportTraceServiceRequest.getDefaultInstance();
            case LOGS:
                return ExportLogsServiceRequest.getDefaultInstance();
            case METRICS:
                return ExportMetricsServiceRequest.getDefaultInstance();
            default:
                return ExportProfilesServiceRequest.getDefaultInstance();
        }
    }

    /**
     * OTLP/JSON records of one request type as protobuf wire bytes: by {@link OtlpJsonToWire}, and
     * the few it leaves (odd forms and invalid records, see there) through protobuf-java messages,
     * which also word the refusals.
     */
    static final class JsonRecords {
        private final OtlpJsonToWire wire;
        private final OtlpDecoder<? extends Message> messages;

        JsonRecords(Message defaultInstance) {
            this.wire = new OtlpJsonToWire(defaultInstance.getDescriptorForType());
            this.messages = new OtlpDecoder<>(Encoding.OTLP_JSON, defaultInstance);
        }

        /** The record as protobuf, in a buffer reused by the next call. */
        byte[] wire(byte[] json) throws IOException {
            byte[] b = wire.toWire(json);
            return b != null ? b : messages.decode(json).toByteArray();
        }
    }
}
