package io.tributary.encoding.zipkin;

import io.tributary.encoding.RecordDecoder;
import io.tributary.encoding.RecordEncoding;
import io.tributary.otlp.Signal;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Zipkin trace records as the collector's kafkareceiver reads them: {@code zipkin_json} (a JSON
 * array of v2 spans) and {@code zipkin_proto} ({@code ListOfSpans}), each span translated as {@code
 * pkg/translator/zipkin/zipkinv2} translates it; {@code zipkin_thrift} (v1 spans) as its v1
 * translator does ({@link ZipkinThrift}). The spans are read by our own readers after
 * zipkin-go's rules rather than by the zipkin2 Java library's decoders, which read the same bytes
 * into other values (they lower-case span and service names, refuse upper-case hex ids and accept
 * 8-byte proto trace ids that zipkin-go refuses); the library writes the records of the tests.
 */
public final class ZipkinEncoding implements RecordEncoding {

    @Override
    public List<String> names() {
        return List.of("zipkin_proto", "zipkin_json", "zipkin_thrift");
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
            case "zipkin_thrift":
                return (value, headers) -> ZipkinThrift.decode(value).toByteArray();
            default:
                return null;
        }
    }
}
