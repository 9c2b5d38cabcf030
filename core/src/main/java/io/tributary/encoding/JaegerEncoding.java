package io.tributary.encoding;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.tributary.encoding.jaeger.JaegerToOtlp;
import io.tributary.encoding.jaeger.model.JaegerModel.Span;
import io.tributary.otlp.LenientUtf8;
import io.tributary.otlp.Signal;
import io.tributary.otlp.json.JsonTokens;
import io.tributary.otlp.Utf8;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Jaeger spans, as the collector's kafkareceiver reads them ({@code
 * receiver/kafkareceiver/internal/unmarshaler/jaeger_unmarshaler.go}, contrib v0.153): each record
 * is one {@code jaeger.api_v2.Span} (jaeger-idl {@code model.proto}, compiled from {@code
 * src/main/proto/jaeger/model.proto}), translated by {@link JaegerToOtlp} into one resource with
 * the span's process.
 *
 * <ul>
 *   <li>{@code jaeger_proto} ({@code JaegerProtoSpanUnmarshaler}): the span's protobuf bytes.
 *       Strings that are not UTF-8, which gogo's {@code Unmarshal} takes as they are, are read with
 *       U+FFFD, as OTLP records are ({@link LenientUtf8}).
 *   <li>{@code jaeger_json} ({@code JaegerJSONSpanUnmarshaler}, gogo {@code jsonpb.Unmarshal}):
 *       the span in protobuf's JSON mapping, read by protobuf-java's {@link JsonFormat}: ids are
 *       base64 (16 or 8 bytes), times RFC 3339, durations seconds with an {@code s}. An unknown key
 *       refuses the record, as jsonpb's default does. As jsonpb reads it through Go's {@code
 *       json.Decoder}, only the first JSON value counts (what follows it is not read), it must be
 *       strict JSON, and {@code null} is an all-default span; invalid UTF-8 is read with U+FFFD, as
 *       Go's decoder reads it.
 * </ul>
 */
public final class JaegerEncoding implements RecordEncoding {

    /** Longest reason a refusal gives: JsonFormat quotes the JSON it did not expect, whole. */
    private static final int MAX_REASON = 300;

    /** Go's decoder has no limit on a string's length; nesting stops where the OTLP reader's does. */
    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(Integer.MAX_VALUE).maxNestingDepth(1000).build())
            .build();
    private static final JsonFormat.Parser JSON_SPAN = JsonFormat.parser();

    @Override
    public List<String> names() {
        return List.of("jaeger_proto", "jaeger_json");
    }

    @Override
    public Set<Signal> signals() {
        return EnumSet.of(Signal.TRACES);
    }

    @Override
    public RecordDecoder decoder(String name, Signal signal) {
        switch (name) {
            case "jaeger_proto":
                return (value, headers) -> JaegerToOtlp.traces(protoSpan(value)).toByteArray();
            case "jaeger_json":
                return (value, headers) -> JaegerToOtlp.traces(jsonSpan(value)).toByteArray();
            default:
                return null;
        }
    }

    private static Span protoSpan(byte[] value) throws IOException {
        try {
            return Span.parseFrom(value);
        } catch (InvalidProtocolBufferException e) {
            if (!LenientUtf8.isInvalidUtf8(e)) {
                throw new IOException("invalid Jaeger protobuf span: " + e.getMessage(), e);
            }
            try {
                return LenientUtf8.parse(value, Span.getDefaultInstance());
            } catch (InvalidProtocolBufferException again) {
                throw new IOException("invalid Jaeger protobuf span: " + again.getMessage(), again);
            }
        }
    }

    private static Span jsonSpan(byte[] value) throws IOException {
        byte[] json = Utf8.isValid(value, 0, value.length)
                ? value : new String(value, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8);
        int end;
        // Jackson checks the syntax (JsonFormat reads through Gson's lenient mode, which takes
        // comments, single quotes and bare words) and finds where the first value ends
        try (JsonParser p = JSON.createParser(json)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                throw new IOException("invalid Jaeger JSON span: no JSON value");
            }
            if (t == JsonToken.VALUE_NULL) {
                return Span.getDefaultInstance(); // jsonpb leaves every field of the span at its default
            }
            if (t != JsonToken.START_OBJECT) {
                throw new IOException("invalid Jaeger JSON span: the document is " + JsonTokens.describe(t) + ", not an object");
            }
            p.skipChildren();
            end = (int) p.currentLocation().getByteOffset();
        } catch (JacksonException e) {
            throw new IOException(reason("invalid Jaeger JSON span: " + e.getOriginalMessage()), e);
        }
        Span.Builder span = Span.newBuilder();
        try {
            JSON_SPAN.merge(new String(json, 0, end, StandardCharsets.UTF_8), span);
        } catch (InvalidProtocolBufferException e) {
            throw new IOException(reason("invalid Jaeger JSON span: " + e.getMessage()), e);
        }
        return span.build();
    }


    private static String reason(String message) {
        return message.length() <= MAX_REASON ? message : message.substring(0, MAX_REASON) + "…";
    }
}
