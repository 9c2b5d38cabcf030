package io.tributary.encoding.zipkin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import io.tributary.encoding.Encodings;
import io.tributary.encoding.RecordHeaders;
import io.tributary.otlp.Signal;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;

import zipkin2.Endpoint;
import zipkin2.codec.SpanBytesEncoder;

/**
 * Zipkin v2 records written by the zipkin2 library (its JSON v2 and proto3 encoders), translated
 * as the collector's {@code pkg/translator/zipkin/zipkinv2/to_translator.go} translates them; the
 * expected requests are built by hand from its rules, each cited where it is used.
 */
class ZipkinEncodingTest {

    private static ExportTraceServiceRequest decode(String encoding, byte[] value) throws Exception {
        return ExportTraceServiceRequest.parseFrom(Encodings.decoder(encoding, Signal.TRACES).decode(value, RecordHeaders.NONE));
    }

    @Test
    void jsonAndProtoFromTheZipkinLibraryAsTheCollectorTranslatesThem() throws Exception {
        ExportTraceServiceRequest want = sorted(ZipkinFixtures.expected());
        assertThat(sorted(decode("zipkin_json", SpanBytesEncoder.JSON_V2.encodeList(ZipkinFixtures.spans())))).isEqualTo(want);
        assertThat(sorted(decode("zipkin_proto", SpanBytesEncoder.PROTO3.encodeList(ZipkinFixtures.spans())))).isEqualTo(want);
    }

    @Test
    void theResourceKeysComeFromTheFirstSpanOfAServiceAndOthersDropThem() throws Exception {
        // with equal keys Go's sort puts the later span first: its host.name is the resource's
        String json = "[{\"traceId\":\"1\",\"id\":\"1\",\"name\":\"a\",\"timestamp\":1,\"localEndpoint\":{\"serviceName\":\"s\"},"
                + "\"tags\":{\"host.name\":\"first\"}},"
                + "{\"traceId\":\"1\",\"id\":\"2\",\"name\":\"b\",\"timestamp\":1,\"localEndpoint\":{\"serviceName\":\"s\"},"
                + "\"tags\":{\"host.name\":\"second\",\"otlp.service.name.source\":\"x\"}}]";
        ExportTraceServiceRequest r = decode("zipkin_json", json.getBytes(StandardCharsets.UTF_8));
        assertThat(r.getResourceSpansCount()).isEqualTo(1);
        assertThat(r.getResourceSpans(0).getResource().getAttributesList())
                .as("otlp.service.name.source names the key of the service's name").containsExactlyInAnyOrder(
                        str("host.name", "second"), str("x", "s"));
        assertThat(r.getResourceSpans(0).getScopeSpans(0).getSpansList()).extracting(Span::getName).containsExactly("b", "a");
        assertThat(r.getResourceSpans(0).getScopeSpans(0).getSpans(1).getAttributesList()).as("dropped, not moved").isEmpty();
    }

    @Test
    void jsonRulesOfZipkinGo() throws Exception {
        // keys without regard to case, upper-case hex, an absent timestamp flagged, a null element skipped
        String json = "[null,{\"TRACEID\":\"ABCDEF\",\"Id\":\"00000000000000FF\",\"name\":\"Mixed Case\",\"duration\":7,"
                + "\"localEndpoint\":{\"serviceName\":\"Svc\",\"ipv6\":\"::ffff:10.0.0.1\"},\"tags\":{\"n\":null}}]";
        Span s = decode("zipkin_json", json.getBytes(StandardCharsets.UTF_8)).getResourceSpans(0).getScopeSpans(0).getSpans(0);
        assertThat(s.getTraceId()).isEqualTo(ByteString.copyFrom(HexFormat.of().parseHex("00000000000000000000000000abcdef")));
        assertThat(s.getName()).isEqualTo("Mixed Case");
        assertThat(s.getStartTimeUnixNano()).isZero();
        assertThat(s.getEndTimeUnixNano()).isEqualTo(7000);
        assertThat(s.getAttributesList()).containsExactly(str("n", ""), str("network.local.address", "10.0.0.1"),
                kv("otel.zipkin.absentField.startTime", AnyValue.newBuilder().setBoolValue(true)));
        assertThat(decode("zipkin_json", "null".getBytes(StandardCharsets.UTF_8)).getResourceSpansCount()).isZero();
    }

    @Test
    void recordsTheCollectorRefusesAreRefusedWithTheirReason() {
        String[][] cases = {
            {"zipkin_json", "{\"traceId\":\"1\"}", "not an array"},
            {"zipkin_json", "[{\"traceId\":\"1\",\"id\":\"0\"}]", "valid span id required"},
            {"zipkin_json", "[{\"traceId\":\"\",\"id\":\"1\"}]", "empty traceId"},
            {"zipkin_json", "[{\"traceId\":\"1\",\"id\":\"1\",\"tags\":{\"n\":1}}]", "tag 'n' is not a string"},
            {"zipkin_json", "[{\"traceId\":\"1\",\"id\":\"1\",\"timestamp\":-1}]", "not an unsigned integer"},
            {"zipkin_json", "[{\"traceId\":\"1\",\"id\":\"1\",\"localEndpoint\":{\"ipv4\":\"1.2.3\"}}]", "not an IP address"},
            {"zipkin_json", "[{\"traceId\":\"1\",\"id\":\"1\",\"annotations\":[{\"value\":\"x\"}]}]", "valid annotation timestamp"},
            {"zipkin_json", "[{\"traceId\":\"1\",\"id\":\"1\",\"annotations\":[{\"timestamp\":1,\"value\":\"a|nope|1\"}]}]",
                "annotation attributes"},
            {"zipkin_json", "[{\"traceId\":\"1\",\"id\":\"1\",\"annotations\":[{\"timestamp\":1,\"value\":\"a|{}|-0\"}]}]",
                "is not a uint32"},
            {"zipkin_json", "[{\"traceId\":null,\"id\":\"1\"}]", "traceId is null"},
        };
        for (String[] c : cases) {
            assertThatThrownBy(() -> decode(c[0], c[1].getBytes(StandardCharsets.UTF_8))).as(c[1]).hasMessageContaining(c[2]);
        }
        zipkin2.Span span64 = zipkin2.Span.newBuilder().traceId("48485a3953bb6124").id("1").build();
        assertThatThrownBy(() -> decode("zipkin_proto", SpanBytesEncoder.PROTO3.encode(span64)))
                .hasMessageContaining("trace id has length 8 yet wanted length 16");
        assertThatThrownBy(() -> Encodings.decoder("zipkin_json", Signal.LOGS))
                .hasMessageContaining("'zipkin_json' is an encoding of traces, not of logs");
    }

    @Test
    void nullAttributesOfAnAnnotationAreNone() throws Exception {
        String json = "[{\"traceId\":\"1\",\"id\":\"1\",\"annotations\":[{\"timestamp\":1,\"value\":\"a|null|2\"}]}]";
        Span.Event e = decode("zipkin_json", json.getBytes(StandardCharsets.UTF_8)).getResourceSpans(0).getScopeSpans(0).getSpans(0)
                .getEvents(0);
        assertThat(e.getName()).isEqualTo("a");
        assertThat(e.getAttributesList()).isEmpty();
        assertThat(e.getDroppedAttributesCount()).isEqualTo(2);
    }

    @Test
    void goPrintsIpAddressesSo() {
        assertThat(GoIp.format(GoIp.parse("2001:0db8:0000:0000:0001:0000:0000:0001"))).isEqualTo("2001:db8::1:0:0:1");
        assertThat(GoIp.format(GoIp.parse("::1"))).isEqualTo("::1");
        assertThat(GoIp.format(GoIp.parse("::"))).isEqualTo("::");
        assertThat(GoIp.format(GoIp.parse("1:0:0:2:0:0:0:3"))).isEqualTo("1:0:0:2::3");
        assertThat(GoIp.format(GoIp.parse("::ffff:192.0.2.1"))).isEqualTo("192.0.2.1");
        assertThat(GoIp.format(new byte[] {1, 2})).isEqualTo("?0102");
        assertThat(GoIp.parse("01.2.3.4")).as("Go refuses leading zeros").isNull();
        assertThat(GoIp.parse("1::2::3")).isNull();
        assertThat(GoIp.parse("1:2:3:4:5:6:7:8:9")).isNull();
        assertThat(GoIp.parse("::\u0663")).as("ASCII digits only").isNull();
    }

    /** Spans, attributes and resources in a canonical order: the rows do not depend on it. */
    private static ExportTraceServiceRequest sorted(ExportTraceServiceRequest r) {
        ExportTraceServiceRequest.Builder b = r.toBuilder();
        for (ResourceSpans.Builder rs : b.getResourceSpansBuilderList()) {
            List<KeyValue> res = rs.getResource().getAttributesList().stream().sorted(Comparator.comparing(KeyValue::getKey)).toList();
            rs.getResourceBuilder().clearAttributes().addAllAttributes(res);
            for (ScopeSpans.Builder ss : rs.getScopeSpansBuilderList()) {
                for (Span.Builder s : ss.getSpansBuilderList()) {
                    List<KeyValue> a = s.getAttributesList().stream().sorted(Comparator.comparing(KeyValue::getKey)).toList();
                    s.clearAttributes().addAllAttributes(a);
                }
            }
        }
        return b.build();
    }

    private static ByteString id(String hex) {
        return ZipkinFixtures.id(hex);
    }

    private static KeyValue str(String k, String v) {
        return ZipkinFixtures.str(k, v);
    }

    private static KeyValue kv(String k, AnyValue.Builder v) {
        return ZipkinFixtures.kv(k, v);
    }
}
