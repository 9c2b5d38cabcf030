package io.tributary.encoding.zipkin;

import io.tributary.encoding.RecordDecoder;
import io.tributary.encoding.RecordEncoding;
import io.tributary.otlp.Signal;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Zipkin v2 trace records as the collector's kafkareceiver reads them: {@code zipkin_json} (a JSON
 * array of spans) and {@code zipkin_proto} ({@code ListOfSpans}), each span translated as {@code
 * pkg/translator/zipkin/zipkinv2} translates it. The spans are read by our own readers after
 * zipkin-go's rules rather than by the zipkin2 Java library's decoders, which read the same bytes
 * into other values (they lower-case span and service names, refuse upper-case hex ids and accept
 * 8-byte proto trace ids that zipkin-go refuses); the library writes the records of the tests.
 */
public final class ZipkinEncoding implements RecordEncoding {

    @Override
    public List<String> names() {
        return List.of("zipkin_proto", "zipkin_json");
    }

    @Override
    public Set<Signal> signals() {
        return EnumSet.of(Signal.TRACES);
    }

    @Override
    public RecordDecoder decoder(String name, Signal signal) {
        switch (name) {
            case "zipkin_json":
                return (value, headers) -> ZipkinV2Translator.toTraces(ZipkinJson.decode(value)).toByteArray();
            case "zipkin_proto":
                return (value, headers) -> ZipkinV2Translator.toTraces(ZipkinProto.decode(value)).toByteArray();
            default:
                return null;
        }
    }
}
