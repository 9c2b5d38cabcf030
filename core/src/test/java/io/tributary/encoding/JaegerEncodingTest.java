package io.tributary.encoding;

import static io.tributary.testing.Otlp.b;
import static io.tributary.testing.Otlp.bytes;
import static io.tributary.testing.Otlp.d;
import static io.tributary.testing.Otlp.i;
import static io.tributary.testing.Otlp.kv;
import static io.tributary.testing.Otlp.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.Duration;
import com.google.protobuf.Timestamp;
import com.google.protobuf.util.JsonFormat;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span.Event;
import io.opentelemetry.proto.trace.v1.Span.Link;
import io.opentelemetry.proto.trace.v1.Span.SpanKind;
import io.opentelemetry.proto.trace.v1.Status;
import io.opentelemetry.proto.trace.v1.Status.StatusCode;
import io.tributary.encoding.jaeger.model.JaegerModel;
import io.tributary.encoding.jaeger.model.JaegerModel.Log;
import io.tributary.encoding.jaeger.model.JaegerModel.Process;
import io.tributary.encoding.jaeger.model.JaegerModel.Span;
import io.tributary.encoding.jaeger.model.JaegerModel.SpanRef;
import io.tributary.encoding.jaeger.model.JaegerModel.SpanRefType;
import io.tributary.encoding.jaeger.model.JaegerModel.ValueType;
import io.tributary.otlp.Signal;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * Jaeger spans made with the Jaeger model's messages (compiled from jaeger-idl's {@code
 * model.proto}), written as {@code jaeger_proto} (their protobuf bytes) and as {@code jaeger_json}
 * (protobuf's JSON of them, as Jaeger's jsonpb writes it), each against the request the collector
 * makes of it, built here by hand from the rules of contrib v0.153's {@code
 * pkg/translator/jaeger/jaegerproto_to_traces.go} (the function each test names) and of {@code
 * receiver/kafkareceiver/internal/unmarshaler/jaeger_unmarshaler.go}. Both encodings must give the
 * same request for every span.
 */
class JaegerEncodingTest {

    private static final RecordDecoder PROTO = Encodings.decoder("jaeger_proto", Signal.TRACES);
    private static final RecordDecoder JSON = Encodings.decoder("jaeger_json", Signal.TRACES);

    private static final ByteString TRACE_ID = hex("0102030405060708090a0b0c0d0e0f10");
    private static final ByteString SPAN_ID = hex("1112131415161718");
    private static final ByteString PARENT_ID = hex("2122232425262728");
    private static final ByteString OTHER_ID = hex("3132333435363738");
    private static final ByteString OTHER_TRACE = hex("41424344454647484142434445464748");
    /** 2026-01-02T03:04:05.123456789Z. */
    private static final Timestamp START = Timestamp.newBuilder().setSeconds(1_767_323_045L).setNanos(123_456_789).build();
    private static final long START_NS = 1_767_323_045_123_456_789L;
    private static final Duration DURATION = Duration.newBuilder().setSeconds(1).setNanos(500_000_000).build();
    private static final long DURATION_NS = 1_500_000_000L;

    // ---- records

    private static ExportTraceServiceRequest decode(Span span) throws Exception {
        ExportTraceServiceRequest fromProto = ExportTraceServiceRequest.parseFrom(PROTO.decode(span.toByteArray(), RecordHeaders.NONE));
        String json = JsonFormat.printer().print(span);
        ExportTraceServiceRequest fromJson = ExportTraceServiceRequest.parseFrom(JSON.decode(utf8(json), RecordHeaders.NONE));
        assertThat(fromJson).as("jaeger_json of the same span").isEqualTo(fromProto);
        return fromProto;
    }

    /** A span with ids, name, times and a process of service {@code svc}. */
    private static Span.Builder jaegerSpan() {
        return Span.newBuilder().setTraceId(TRACE_ID).setSpanId(SPAN_ID).setOperationName("op")
                .setStartTime(START).setDuration(DURATION).setProcess(Process.newBuilder().setServiceName("svc"));
    }

    /** What the collector makes of {@link #jaegerSpan()} before tags, logs and references. */
    private static io.opentelemetry.proto.trace.v1.Span.Builder otlpSpan() {
        return io.opentelemetry.proto.trace.v1.Span.newBuilder().setTraceId(TRACE_ID).setSpanId(SPAN_ID).setName("op")
                .setStartTimeUnixNano(START_NS).setEndTimeUnixNano(START_NS + DURATION_NS);
    }

    private static ExportTraceServiceRequest request(Resource resource, InstrumentationScope scope,
            io.opentelemetry.proto.trace.v1.Span.Builder span) {
        return ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder().setResource(resource)
                .addScopeSpans(ScopeSpans.newBuilder().setScope(scope).addSpans(span))).build();
    }

    private static Resource svc() {
        return Resource.newBuilder().addAttributes(kv("service.name", str("svc"))).build();
    }

    /** The request's one span, after checking it is the only one, in resource {@code svc} and an empty scope. */
    private static io.opentelemetry.proto.trace.v1.Span onlySpan(Span span) throws Exception {
        ExportTraceServiceRequest r = decode(span);
        assertThat(r.getResourceSpansCount()).isEqualTo(1);
        assertThat(r.getResourceSpans(0).getResource()).isEqualTo(svc());
        assertThat(r.getResourceSpans(0).getScopeSpansCount()).isEqualTo(1);
        assertThat(r.getResourceSpans(0).getScopeSpans(0).getScope()).isEqualTo(InstrumentationScope.getDefaultInstance());
        assertThat(r.getResourceSpans(0).getScopeSpans(0).getSpansCount()).isEqualTo(1);
        return r.getResourceSpans(0).getScopeSpans(0).getSpans(0);
    }

    private static JaegerModel.KeyValue tag(String key, String v) {
        return JaegerModel.KeyValue.newBuilder().setKey(key).setVType(ValueType.STRING).setVStr(v).build();
    }

    private static JaegerModel.KeyValue tag(String key, boolean v) {
        return JaegerModel.KeyValue.newBuilder().setKey(key).setVType(ValueType.BOOL).setVBool(v).build();
    }

    private static JaegerModel.KeyValue tag(String key, long v) {
        return JaegerModel.KeyValue.newBuilder().setKey(key).setVType(ValueType.INT64).setVInt64(v).build();
    }

    private static JaegerModel.KeyValue tag(String key, double v) {
        return JaegerModel.KeyValue.newBuilder().setKey(key).setVType(ValueType.FLOAT64).setVFloat64(v).build();
    }

    private static SpanRef ref(SpanRefType type, ByteString traceId, ByteString spanId) {
        return SpanRef.newBuilder().setRefType(type).setTraceId(traceId).setSpanId(spanId).build();
    }

    private static Link link(ByteString traceId, ByteString spanId, String refType) {
        return Link.newBuilder().setTraceId(traceId).setSpanId(spanId).addAttributes(kv("opentracing.ref_type", str(refType))).build();
    }

    private static Status status(StatusCode code, String message) {
        return Status.newBuilder().setCode(code).setMessage(message).build();
    }

    private static ByteString hex(String h) {
        return ByteString.copyFrom(HexFormat.of().parseHex(h));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    // ---- a whole span

    @Test
    void aClientSpanAsJaegerClientsWriteIt() throws Exception {
        Span span = jaegerSpan()
                .setProcess(Process.newBuilder().setServiceName("frontend")
                        .addTags(tag("hostname", "web-1")).addTags(tag("ip", "10.0.0.7"))
                        .addTags(tag("jaeger.version", "Go-2.30.0")).addTags(tag("client-uuid", "3f1c")))
                .addReferences(ref(SpanRefType.CHILD_OF, TRACE_ID, PARENT_ID))
                .setFlags(1)
                .addTags(tag("otel.scope.name", "io.opentelemetry.http")).addTags(tag("span.kind", "client"))
                .addTags(tag("http.method", "GET")).addTags(tag("http.status_code", 503L))
                .addTags(tag("http.status_message", "Service Unavailable")).addTags(tag("sampler.param", true))
                .addLogs(Log.newBuilder().setTimestamp(START)
                        .addFields(tag("event", "retry")).addFields(tag("attempt", 2L)))
                .addWarnings("clock skew adjusted")
                .setProcessId("p1")
                .build();
        // jProcessToInternalResource: service.name, the tags, hostname → host.name in hostname's place
        // (appended, then Remove moves the last entry into the removed one's place), jaeger.version →
        // opencensus.exporterversion "Jaeger-<v>" the same way
        Resource resource = Resource.newBuilder()
                .addAttributes(kv("service.name", str("frontend"))).addAttributes(kv("host.name", str("web-1")))
                .addAttributes(kv("ip", str("10.0.0.7"))).addAttributes(kv("opencensus.exporterversion", str("Jaeger-Go-2.30.0")))
                .addAttributes(kv("client-uuid", str("3f1c"))).build();
        // getScope: otel.scope.name is the scope; jSpanToInternal: span.kind → Client;
        // setInternalSpanStatus: 503 → Error with http.status_message, both kept; the CHILD_OF
        // reference is the parent and no link; the log is an event named by its event field;
        // flags, warnings and process_id are not carried
        io.opentelemetry.proto.trace.v1.Span.Builder expected = otlpSpan().setParentSpanId(PARENT_ID)
                .setKind(SpanKind.SPAN_KIND_CLIENT)
                // span.kind removed: the last tag, sampler.param, takes its place
                .addAttributes(kv("sampler.param", b(true))).addAttributes(kv("http.method", str("GET")))
                .addAttributes(kv("http.status_code", i(503))).addAttributes(kv("http.status_message", str("Service Unavailable")))
                .setStatus(status(StatusCode.STATUS_CODE_ERROR, "Service Unavailable"))
                .addEvents(Event.newBuilder().setTimeUnixNano(START_NS).setName("retry").addAttributes(kv("attempt", i(2))));
        assertThat(decode(span)).isEqualTo(request(resource,
                InstrumentationScope.newBuilder().setName("io.opentelemetry.http").build(), expected));
    }

    // ---- resource: jProcessToInternalResource

    @Test
    void noProcessAnUnnamedProcessOrTheNoServiceMarkerIsAnEmptyResourceWithoutAnUnknownServiceDefault() throws Exception {
        for (Span span : List.of(
                jaegerSpan().clearProcess().build(),
                jaegerSpan().setProcess(Process.newBuilder().setServiceName("")).build(),
                jaegerSpan().setProcess(Process.newBuilder().setServiceName("OTLPResourceNoServiceName").addTags(tag("ip", "10.0.0.7"))).build())) {
            ExportTraceServiceRequest r = decode(span);
            assertThat(r.getResourceSpans(0).getResource()).as(span.getProcess().toString()).isEqualTo(Resource.getDefaultInstance());
            assertThat(r.getResourceSpans(0).getScopeSpans(0).getSpans(0)).isEqualTo(otlpSpan().build());
        }
    }

    @Test
    void anEmptyServiceNameWithTagsGivesTheTagsAndNoServiceName() throws Exception {
        ExportTraceServiceRequest r = decode(jaegerSpan().setProcess(Process.newBuilder().addTags(tag("ip", "10.0.0.7"))).build());
        assertThat(r.getResourceSpans(0).getResource()).isEqualTo(Resource.newBuilder().addAttributes(kv("ip", str("10.0.0.7"))).build());
    }

    @Test
    void processTagsAreTypedAndAServiceNameTagReplacesTheServiceNameInItsPlace() throws Exception {
        ExportTraceServiceRequest r = decode(jaegerSpan().setProcess(Process.newBuilder().setServiceName("svc")
                .addTags(tag("cores", 8L)).addTags(tag("service.name", "renamed")).addTags(tag("load", 0.5))).build());
        assertThat(r.getResourceSpans(0).getResource()).isEqualTo(Resource.newBuilder()
                .addAttributes(kv("service.name", str("renamed"))).addAttributes(kv("cores", i(8))).addAttributes(kv("load", d(0.5))).build());
    }

    @Test
    void hostnameAndJaegerVersionAreRenamedOnlyWhenTheNewKeyIsAbsent() throws Exception {
        // translateHostnameAttr copies the value with its type; translateJaegerVersionAttr reads it
        // with Str(), "" for a value that is not a string
        ExportTraceServiceRequest renamed = decode(jaegerSpan().setProcess(Process.newBuilder().setServiceName("svc")
                .addTags(tag("hostname", 42L)).addTags(tag("jaeger.version", 3L)).addTags(tag("last", "x"))).build());
        // [svc, hostname, jaeger.version, last] + host.name, hostname removed: [svc, host.name, jaeger.version, last];
        // + opencensus.exporterversion, jaeger.version removed: [svc, host.name, opencensus.exporterversion, last]
        assertThat(renamed.getResourceSpans(0).getResource()).isEqualTo(Resource.newBuilder()
                .addAttributes(kv("service.name", str("svc"))).addAttributes(kv("host.name", i(42)))
                .addAttributes(kv("opencensus.exporterversion", str("Jaeger-"))).addAttributes(kv("last", str("x"))).build());

        ExportTraceServiceRequest kept = decode(jaegerSpan().setProcess(Process.newBuilder().setServiceName("svc")
                .addTags(tag("hostname", "a")).addTags(tag("host.name", "b"))
                .addTags(tag("jaeger.version", "Java-1.8")).addTags(tag("opencensus.exporterversion", "OC"))).build());
        assertThat(kept.getResourceSpans(0).getResource()).isEqualTo(Resource.newBuilder()
                .addAttributes(kv("service.name", str("svc"))).addAttributes(kv("hostname", str("a"))).addAttributes(kv("host.name", str("b")))
                .addAttributes(kv("jaeger.version", str("Java-1.8"))).addAttributes(kv("opencensus.exporterversion", str("OC"))).build());
    }

    // ---- tags: jTagsToInternalAttributes

    @Test
    void tagsAreTypedByTheirValueTypeAndARepeatedKeyKeepsItsPlaceAndTheLastValue() throws Exception {
        io.opentelemetry.proto.trace.v1.Span s = onlySpan(jaegerSpan()
                .addTags(tag("s", "v")).addTags(tag("bool", true)).addTags(tag("int", -7L)).addTags(tag("double", 1.25))
                .addTags(JaegerModel.KeyValue.newBuilder().setKey("bin").setVType(ValueType.BINARY).setVBinary(ByteString.copyFrom(new byte[] {0, (byte) 0xFF})))
                .addTags(JaegerModel.KeyValue.newBuilder().setKey("future").setVTypeValue(9).setVStr("ignored"))
                .addTags(tag("s", 2L))
                .build());
        assertThat(s.getAttributesList()).containsExactly(kv("s", i(2)), kv("bool", b(true)), kv("int", i(-7)), kv("double", d(1.25)),
                kv("bin", bytes((byte) 0, (byte) 0xFF)), kv("future", str("<Unknown Jaeger TagType \"9\">")));
    }

    // ---- kind: jSpanKindToInternal

    @Test
    void spanKindIsTheTagsExactLowerCaseNameAndTheTagIsRemoved() throws Exception {
        String[] names = {"client", "server", "producer", "consumer", "internal", "SERVER", "rpc"};
        SpanKind[] kinds = {SpanKind.SPAN_KIND_CLIENT, SpanKind.SPAN_KIND_SERVER, SpanKind.SPAN_KIND_PRODUCER,
            SpanKind.SPAN_KIND_CONSUMER, SpanKind.SPAN_KIND_INTERNAL, SpanKind.SPAN_KIND_UNSPECIFIED, SpanKind.SPAN_KIND_UNSPECIFIED};
        for (int k = 0; k < names.length; k++) {
            assertThat(onlySpan(jaegerSpan().addTags(tag("span.kind", names[k])).addTags(tag("x", "y")).build()))
                    .as(names[k]).isEqualTo(otlpSpan().setKind(kinds[k]).addAttributes(kv("x", str("y"))).build());
        }
        assertThat(onlySpan(jaegerSpan().addTags(tag("span.kind", 3L)).build())).as("not a string: Str() is \"\"")
                .isEqualTo(otlpSpan().build());
    }

    // ---- status: setInternalSpanStatus

    @Test
    void errorTrueIsErrorWithTheDescriptionOrElseTheHttpStatusMessage() throws Exception {
        assertThat(onlySpan(jaegerSpan().addTags(tag("error", true)).addTags(tag("otel.status_description", "boom"))
                .addTags(tag("http.status_message", "Bad Gateway")).build()))
                .isEqualTo(otlpSpan().setStatus(status(StatusCode.STATUS_CODE_ERROR, "boom"))
                        .addAttributes(kv("http.status_message", str("Bad Gateway"))).build());
        assertThat(onlySpan(jaegerSpan().addTags(tag("error", true)).addTags(tag("http.status_message", "Bad Gateway")).build()))
                .isEqualTo(otlpSpan().setStatus(status(StatusCode.STATUS_CODE_ERROR, "Bad Gateway"))
                        .addAttributes(kv("http.status_message", str("Bad Gateway"))).build());
        // error wins over otel.status_code, which is removed all the same
        assertThat(onlySpan(jaegerSpan().addTags(tag("error", true)).addTags(tag("otel.status_code", "OK")).build()))
                .isEqualTo(otlpSpan().setStatus(status(StatusCode.STATUS_CODE_ERROR, "")).build());
    }

    @Test
    void errorCountsOnlyAsTheBoolTrue() throws Exception {
        for (JaegerModel.KeyValue error : List.of(tag("error", "true"), tag("error", false), tag("error", 1L))) {
            io.opentelemetry.proto.trace.v1.Span s = onlySpan(jaegerSpan().addTags(error).build());
            assertThat(s.hasStatus()).as(error.toString()).isFalse();
            assertThat(s.getAttributesCount()).as("error stays an attribute").isEqualTo(1);
        }
    }

    @Test
    void otelStatusCodeIsReadCaseInsensitivelyAndAlwaysRemoved() throws Exception {
        Object[][] cases = {
            {"ok", StatusCode.STATUS_CODE_OK}, {"Ok", StatusCode.STATUS_CODE_OK}, {"OK", StatusCode.STATUS_CODE_OK},
            {"error", StatusCode.STATUS_CODE_ERROR}, {"ERROR", StatusCode.STATUS_CODE_ERROR},
            {"UNSET", StatusCode.STATUS_CODE_UNSET}, {"STATUS_CODE_ERROR", StatusCode.STATUS_CODE_UNSET}, {"", StatusCode.STATUS_CODE_UNSET}};
        for (Object[] c : cases) {
            assertThat(onlySpan(jaegerSpan().addTags(tag("otel.status_code", (String) c[0])).addTags(tag("otel.status_description", "d"))
                    .addTags(tag("http.status_code", 500L)).build()))
                    .as((String) c[0])
                    .isEqualTo(otelStatus((StatusCode) c[1], "d").addAttributes(kv("http.status_code", i(500))).build());
        }
        // not a string: Str() is "", a status all the same (Unset, with the description)
        assertThat(onlySpan(jaegerSpan().addTags(tag("otel.status_code", 1L)).build())).isEqualTo(otelStatus(StatusCode.STATUS_CODE_UNSET, "").build());
    }

    private static io.opentelemetry.proto.trace.v1.Span.Builder otelStatus(StatusCode code, String message) {
        return otlpSpan().setStatus(status(code, message));
    }

    @Test
    void httpStatusCodeDecidesOnlyWithoutErrorAndOtelStatusCode() throws Exception {
        // getStatusCodeFromHTTPStatusAttr: 4xx Error for clients, Unset for servers; otherwise
        // StatusCodeFromHTTP: 100 <= c < 399 Unset, anything else Error (399 included, 0 too)
        Object[][] cases = {
            {SpanKind.SPAN_KIND_CLIENT, 404L, StatusCode.STATUS_CODE_ERROR},
            {SpanKind.SPAN_KIND_SERVER, 404L, null},
            {SpanKind.SPAN_KIND_INTERNAL, 404L, StatusCode.STATUS_CODE_ERROR},
            {SpanKind.SPAN_KIND_UNSPECIFIED, 499L, StatusCode.STATUS_CODE_ERROR},
            {SpanKind.SPAN_KIND_SERVER, 500L, StatusCode.STATUS_CODE_ERROR},
            {SpanKind.SPAN_KIND_SERVER, 200L, null},
            {SpanKind.SPAN_KIND_CLIENT, 100L, null},
            {SpanKind.SPAN_KIND_CLIENT, 398L, null},
            {SpanKind.SPAN_KIND_CLIENT, 399L, StatusCode.STATUS_CODE_ERROR},
            {SpanKind.SPAN_KIND_CLIENT, 99L, StatusCode.STATUS_CODE_ERROR},
            {SpanKind.SPAN_KIND_CLIENT, 0L, StatusCode.STATUS_CODE_ERROR},
        };
        for (Object[] c : cases) {
            SpanKind kind = (SpanKind) c[0];
            String kindTag = kind == SpanKind.SPAN_KIND_UNSPECIFIED ? "none"
                    : kind.name().substring("SPAN_KIND_".length()).toLowerCase(Locale.ROOT);
            // span.kind removed: http.status_message takes its place
            io.opentelemetry.proto.trace.v1.Span.Builder expected = otlpSpan().setKind(kind)
                    .addAttributes(kv("http.status_message", str("m"))).addAttributes(kv("http.status_code", i((Long) c[1])));
            if (c[2] != null) {
                expected.setStatus(status((StatusCode) c[2], "m"));
            }
            assertThat(onlySpan(jaegerSpan().addTags(tag("span.kind", kindTag)).addTags(tag("http.status_code", (Long) c[1]))
                    .addTags(tag("http.status_message", "m")).build()))
                    .as(kindTag + " " + c[1]).isEqualTo(expected.build());
        }
    }

    @Test
    void httpStatusCodeIsAnIntOrADecimalStringAndNothingElse() throws Exception {
        assertThat(onlySpan(jaegerSpan().addTags(tag("http.status_code", "503")).build()).getStatus())
                .isEqualTo(status(StatusCode.STATUS_CODE_ERROR, ""));
        assertThat(onlySpan(jaegerSpan().addTags(tag("http.status_code", "+503")).build()).getStatus())
                .as("strconv.ParseInt takes a sign").isEqualTo(status(StatusCode.STATUS_CODE_ERROR, ""));
        for (JaegerModel.KeyValue notACode : List.of(tag("http.status_code", 503.0), tag("http.status_code", "503.0"),
                tag("http.status_code", " 503"), tag("http.status_code", "\u0665\u0660\u0663"), tag("http.status_code", "99999999999999999999"))) {
            assertThat(onlySpan(jaegerSpan().addTags(notACode).build()).hasStatus()).as(notACode.toString()).isFalse();
        }
    }

    // ---- scope: getScope

    @Test
    void theScopeIsTheFirstOtelScopeNameAndOnlyThenItsVersion() throws Exception {
        ExportTraceServiceRequest r = decode(jaegerSpan().addTags(tag("a", "1")).addTags(tag("otel.scope.version", "1.2"))
                .addTags(tag("otel.scope.name", "lib")).addTags(tag("otel.scope.name", "second")).build());
        assertThat(r.getResourceSpans(0).getScopeSpans(0).getScope())
                .isEqualTo(InstrumentationScope.newBuilder().setName("lib").setVersion("1.2").build());
        assertThat(r.getResourceSpans(0).getScopeSpans(0).getSpans(0).getAttributesList())
                .as("a later otel.scope.name stays an attribute").containsExactly(kv("a", str("1")), kv("otel.scope.name", str("second")));

        ExportTraceServiceRequest noName = decode(jaegerSpan().addTags(tag("otel.scope.version", "1.2")).build());
        assertThat(noName.getResourceSpans(0).getScopeSpans(0).getScope()).isEqualTo(InstrumentationScope.getDefaultInstance());
        assertThat(noName.getResourceSpans(0).getScopeSpans(0).getSpans(0).getAttributesList()).containsExactly(kv("otel.scope.version", str("1.2")));
    }

    @Test
    void theScopeTagsAreReadAsTheirVStrWhateverTheirType() throws Exception {
        // getAndDeleteTag takes GetVStr() of the Jaeger tag, not the typed value
        ExportTraceServiceRequest r = decode(jaegerSpan().addTags(tag("otel.scope.name", 5L))
                .addTags(JaegerModel.KeyValue.newBuilder().setKey("otel.scope.version").setVType(ValueType.INT64).setVInt64(2).setVStr("v2")).build());
        assertThat(r.getResourceSpans(0).getScopeSpans(0).getScope()).isEqualTo(InstrumentationScope.newBuilder().setVersion("v2").build());
        assertThat(r.getResourceSpans(0).getScopeSpans(0).getSpans(0).getAttributesCount()).isZero();
    }

    @Test
    void otelLibraryNameIsNotTheScopeInJaeger() throws Exception {
        ExportTraceServiceRequest r = decode(jaegerSpan().addTags(tag("otel.library.name", "lib")).addTags(tag("otel.library.version", "1")).build());
        assertThat(r.getResourceSpans(0).getScopeSpans(0).getScope()).isEqualTo(InstrumentationScope.getDefaultInstance());
        assertThat(r.getResourceSpans(0).getScopeSpans(0).getSpans(0).getAttributesList())
                .containsExactly(kv("otel.library.name", str("lib")), kv("otel.library.version", str("1")));
    }

    // ---- removals keep pdata's order

    @Test
    void removedTagsLeaveTheLastAttributeInTheirPlace() throws Exception {
        // [a, span.kind, b, error, c, w3c.tracestate, d]: span.kind → [a, d, b, error, c, w3c.tracestate];
        // error → [a, d, b, w3c.tracestate, c]; w3c.tracestate → [a, d, b, c]
        io.opentelemetry.proto.trace.v1.Span s = onlySpan(jaegerSpan().addTags(tag("a", "1")).addTags(tag("span.kind", "server"))
                .addTags(tag("b", "2")).addTags(tag("error", true)).addTags(tag("c", "3")).addTags(tag("w3c.tracestate", "k=v"))
                .addTags(tag("d", "4")).build());
        assertThat(s).isEqualTo(otlpSpan().setKind(SpanKind.SPAN_KIND_SERVER).setTraceState("k=v")
                .setStatus(status(StatusCode.STATUS_CODE_ERROR, ""))
                .addAttributes(kv("a", str("1"))).addAttributes(kv("d", str("4"))).addAttributes(kv("b", str("2")))
                .addAttributes(kv("c", str("3"))).build());
    }

    // ---- trace state: getTraceStateFromAttrs

    @Test
    void w3cTracestateIsTheTraceStateAndIsRemoved() throws Exception {
        assertThat(onlySpan(jaegerSpan().addTags(tag("w3c.tracestate", "rojo=00f067aa0ba902b7")).build()))
                .isEqualTo(otlpSpan().setTraceState("rojo=00f067aa0ba902b7").build());
    }

    // ---- references: model.Span.ParentSpanID, jReferencesToSpanLinks

    @Test
    void theParentIsTheFirstChildOfInTheSpansTraceAndNoLink() throws Exception {
        assertThat(onlySpan(jaegerSpan().addReferences(ref(SpanRefType.CHILD_OF, TRACE_ID, PARENT_ID))
                .addReferences(ref(SpanRefType.CHILD_OF, TRACE_ID, OTHER_ID)).build()))
                .isEqualTo(otlpSpan().setParentSpanId(PARENT_ID).addLinks(link(TRACE_ID, OTHER_ID, "child_of")).build());
    }

    @Test
    void aFollowsFromParentIsAlsoALink() throws Exception {
        assertThat(onlySpan(jaegerSpan().addReferences(ref(SpanRefType.FOLLOWS_FROM, TRACE_ID, PARENT_ID)).build()))
                .isEqualTo(otlpSpan().setParentSpanId(PARENT_ID).addLinks(link(TRACE_ID, PARENT_ID, "follows_from")).build());
        // a CHILD_OF in the span's trace comes first, wherever it stands
        assertThat(onlySpan(jaegerSpan().addReferences(ref(SpanRefType.FOLLOWS_FROM, TRACE_ID, OTHER_ID))
                .addReferences(ref(SpanRefType.CHILD_OF, TRACE_ID, PARENT_ID)).build()))
                .isEqualTo(otlpSpan().setParentSpanId(PARENT_ID).addLinks(link(TRACE_ID, OTHER_ID, "follows_from")).build());
    }

    @Test
    void referencesToAnotherTraceAreLinksAndNeverTheParent() throws Exception {
        assertThat(onlySpan(jaegerSpan().addReferences(ref(SpanRefType.CHILD_OF, OTHER_TRACE, OTHER_ID))
                .addReferences(ref(SpanRefType.FOLLOWS_FROM, TRACE_ID, PARENT_ID)).build()))
                .isEqualTo(otlpSpan().setParentSpanId(PARENT_ID)
                        .addLinks(link(OTHER_TRACE, OTHER_ID, "child_of")).addLinks(link(TRACE_ID, PARENT_ID, "follows_from")).build());
        assertThat(onlySpan(jaegerSpan().addReferences(ref(SpanRefType.CHILD_OF, OTHER_TRACE, OTHER_ID)).build()))
                .isEqualTo(otlpSpan().addLinks(link(OTHER_TRACE, OTHER_ID, "child_of")).build());
        // but a CHILD_OF with the parent's span id is left out of the links whatever its trace
        assertThat(onlySpan(jaegerSpan().addReferences(ref(SpanRefType.CHILD_OF, TRACE_ID, PARENT_ID))
                .addReferences(ref(SpanRefType.CHILD_OF, OTHER_TRACE, PARENT_ID)).build()))
                .isEqualTo(otlpSpan().setParentSpanId(PARENT_ID).build());
    }

    @Test
    void aReferenceTypeWithoutANameIsALinkNamedFollowsFromAndNeverTheParent() throws Exception {
        assertThat(onlySpan(jaegerSpan().addReferences(SpanRef.newBuilder().setTraceId(TRACE_ID).setSpanId(PARENT_ID).setRefTypeValue(5)).build()))
                .isEqualTo(otlpSpan().addLinks(link(TRACE_ID, PARENT_ID, "follows_from")).build());
    }

    // ---- ids: idutils.UInt64ToTraceID

    @Test
    void aSixtyFourBitTraceIdIsTheLowHalfOfTheTraceId() throws Exception {
        ByteString low = hex("0a0b0c0d0e0f1011");
        ByteString full = hex("00000000000000000a0b0c0d0e0f1011");
        // the 8-byte id and the 16-byte id with a zero high half are one trace: the reference is the parent
        assertThat(onlySpan(jaegerSpan().setTraceId(low).addReferences(ref(SpanRefType.CHILD_OF, full, PARENT_ID)).build()))
                .isEqualTo(otlpSpan().setTraceId(full).setParentSpanId(PARENT_ID).build());
        assertThat(onlySpan(jaegerSpan().setTraceId(full).addReferences(ref(SpanRefType.FOLLOWS_FROM, low, PARENT_ID)).build()))
                .isEqualTo(otlpSpan().setTraceId(full).setParentSpanId(PARENT_ID).addLinks(link(full, PARENT_ID, "follows_from")).build());
    }

    @Test
    void allZeroOrAbsentIdsAreNoIds() throws Exception {
        assertThat(onlySpan(jaegerSpan().setTraceId(ByteString.copyFrom(new byte[16])).setSpanId(ByteString.copyFrom(new byte[8]))
                .addReferences(ref(SpanRefType.CHILD_OF, ByteString.copyFrom(new byte[16]), ByteString.copyFrom(new byte[8]))).build()))
                .as("the zero CHILD_OF is the parent 0: no parent, no link")
                .isEqualTo(otlpSpan().clearTraceId().clearSpanId().build());
        assertThat(onlySpan(jaegerSpan().clearTraceId().clearSpanId().build())).isEqualTo(otlpSpan().clearTraceId().clearSpanId().build());
    }

    // ---- events: jLogsToSpanEvents

    @Test
    void logsAreEventsNamedByTheirEventField() throws Exception {
        Timestamp at = Timestamp.newBuilder().setSeconds(1_767_323_046L).build();
        io.opentelemetry.proto.trace.v1.Span s = onlySpan(jaegerSpan()
                .addLogs(Log.newBuilder().setTimestamp(at).addFields(tag("message", "hello")).addFields(tag("event", "exception"))
                        .addFields(tag("level", "error")))
                .addLogs(Log.newBuilder().setTimestamp(at).addFields(tag("message", "no event field")))
                .addLogs(Log.newBuilder().setTimestamp(at).addFields(tag("event", 7L)))
                .addLogs(Log.newBuilder().setTimestamp(at))
                .build());
        long ns = 1_767_323_046_000_000_000L;
        assertThat(s.getEventsList()).containsExactly(
                // event removed: the last field takes its place
                Event.newBuilder().setTimeUnixNano(ns).setName("exception")
                        .addAttributes(kv("message", str("hello"))).addAttributes(kv("level", str("error"))).build(),
                Event.newBuilder().setTimeUnixNano(ns).addAttributes(kv("message", str("no event field"))).build(),
                Event.newBuilder().setTimeUnixNano(ns).build(),
                Event.newBuilder().setTimeUnixNano(ns).build());
    }

    // ---- times: jSpanToInternal, pcommon.NewTimestampFromTime

    @Test
    void timesAreUnixNanosecondsAndTheEndIsStartPlusDuration() throws Exception {
        Duration negative = Duration.newBuilder().setSeconds(-2).setNanos(-250_000_000).build();
        assertThat(onlySpan(jaegerSpan().setDuration(negative).build()))
                .as("negative durations pass").isEqualTo(otlpSpan().setEndTimeUnixNano(START_NS - 2_250_000_000L).build());
        assertThat(onlySpan(jaegerSpan().clearDuration().build())).isEqualTo(otlpSpan().setEndTimeUnixNano(START_NS).build());
        assertThat(onlySpan(jaegerSpan().setStartTime(Timestamp.getDefaultInstance()).build()))
                .as("a present empty start time is 1970").isEqualTo(otlpSpan().setStartTimeUnixNano(0).setEndTimeUnixNano(DURATION_NS).build());
    }

    @Test
    void anAbsentTimeIsGosZeroTimeWhoseNanosecondsWrapAround() throws Exception {
        // time.Time{}.UnixNano(): -62135596800 s × 1e9 in int64, 11651379494838206464 as a uint64
        long zero = Long.parseUnsignedLong("11651379494838206464");
        io.opentelemetry.proto.trace.v1.Span s = onlySpan(jaegerSpan().clearStartTime()
                .addLogs(Log.newBuilder().addFields(tag("event", "e"))).build());
        assertThat(s.getStartTimeUnixNano()).isEqualTo(zero);
        assertThat(s.getEndTimeUnixNano()).isEqualTo(zero + DURATION_NS);
        assertThat(s.getEvents(0).getTimeUnixNano()).isEqualTo(zero);
    }

    // ---- blank spans: jSpansToInternal

    @Test
    void anAllDefaultSpanIsOneEmptyResourceAndNoSpan() throws Exception {
        ExportTraceServiceRequest none = ExportTraceServiceRequest.newBuilder()
                .addResourceSpans(ResourceSpans.newBuilder().setResource(Resource.getDefaultInstance())).build();
        assertThat(ExportTraceServiceRequest.parseFrom(PROTO.decode(new byte[0], RecordHeaders.NONE))).isEqualTo(none);
        assertThat(ExportTraceServiceRequest.parseFrom(JSON.decode(utf8(" {} "), RecordHeaders.NONE))).isEqualTo(none);
        assertThat(ExportTraceServiceRequest.parseFrom(JSON.decode(utf8("null"), RecordHeaders.NONE))).as("jsonpb: null leaves the span default")
                .isEqualTo(none);
        // Go's zero values: zero ids, the year-1 start time, a zero duration
        assertThat(decode(Span.newBuilder().setTraceId(ByteString.copyFrom(new byte[16])).setSpanId(ByteString.copyFrom(new byte[8]))
                .setStartTime(Timestamp.newBuilder().setSeconds(-62_135_596_800L)).setDuration(Duration.getDefaultInstance()).build()))
                .isEqualTo(none);
    }

    @Test
    void aSpanWithOnlyAProcessOrOnlyAnUnknownFieldIsNotBlank() throws Exception {
        ExportTraceServiceRequest onlyProcess = decode(Span.newBuilder().setProcess(Process.newBuilder().setServiceName("svc")).build());
        assertThat(onlyProcess.getResourceSpans(0).getResource()).isEqualTo(svc());
        assertThat(onlyProcess.getResourceSpans(0).getScopeSpans(0).getSpansCount()).isEqualTo(1);
        // gogo keeps unknown fields in XXX_unrecognized, so reflect.DeepEqual says not blank
        byte[] unknownOnly = {15 << 3, 0};
        ExportTraceServiceRequest r = ExportTraceServiceRequest.parseFrom(PROTO.decode(unknownOnly, RecordHeaders.NONE));
        assertThat(r.getResourceSpans(0).getScopeSpans(0).getSpansCount()).isEqualTo(1);
    }

    // ---- what the collector refuses

    @Test
    void malformedProtobufIsRefusedNamingWhatIsWrong() {
        byte[] whole = jaegerSpan().addWarnings("a warning long enough to be cut").build().toByteArray();
        assertRefused(PROTO, Arrays.copyOf(whole, whole.length - 3), "invalid Jaeger protobuf span", "ended unexpectedly");
        assertRefused(PROTO, jaegerSpan().setTraceId(hex("0102030405")).build().toByteArray(), "trace_id is 5 bytes, not 16 or 8");
        assertRefused(PROTO, jaegerSpan().setTraceId(ByteString.EMPTY).build().toByteArray(), "trace_id is 0 bytes");
        assertRefused(PROTO, jaegerSpan().setSpanId(hex("01020304")).build().toByteArray(), "span_id is 4 bytes, not 8");
        assertRefused(PROTO, jaegerSpan().addReferences(ref(SpanRefType.CHILD_OF, TRACE_ID, hex("0102"))).build().toByteArray(),
                "references[0].span_id is 2 bytes");
        assertRefused(PROTO, jaegerSpan().addReferences(ref(SpanRefType.CHILD_OF, hex("01"), PARENT_ID)).build().toByteArray(),
                "references[0].trace_id is 1 bytes");
        assertRefused(PROTO, jaegerSpan().setStartTime(Timestamp.newBuilder().setSeconds(1).setNanos(1_000_000_000)).build().toByteArray(),
                "start_time has nanos 1000000000");
        assertRefused(PROTO, jaegerSpan().setStartTime(Timestamp.newBuilder().setSeconds(253_402_300_800L)).build().toByteArray(),
                "start_time is out of the years 0001 to 9999");
        assertRefused(PROTO, jaegerSpan().addLogs(Log.newBuilder().setTimestamp(Timestamp.newBuilder().setSeconds(-62_135_596_801L))).build()
                .toByteArray(), "logs[0].timestamp is out of the years");
        assertRefused(PROTO, jaegerSpan().setDuration(Duration.newBuilder().setSeconds(1).setNanos(-1)).build().toByteArray(),
                "duration 1 s -1 ns is not a valid duration");
        assertRefused(PROTO, jaegerSpan().setDuration(Duration.newBuilder().setSeconds(10_000_000_000L)).build().toByteArray(),
                "out of range for int64 nanoseconds");
        // flags (field 5) as a length-delimited field: gogo's "wrong wireType"
        assertRefused(PROTO, concat(jaegerSpan().build().toByteArray(), new byte[] {(5 << 3) | 2, 1, 0}),
                "span.flags (field 5) has the wrong wire type");
    }

    @Test
    void anOtlpRequestIsNotAJaegerSpan() throws Exception {
        ExportTraceServiceRequest otlp = request(svc(), InstrumentationScope.getDefaultInstance(), otlpSpan());
        assertRefused(PROTO, otlp.toByteArray(), "invalid Jaeger span: trace_id is");
        assertRefused(JSON, utf8(JsonFormat.printer().print(otlp)), "invalid Jaeger JSON span", "resourceSpans");
    }

    @Test
    void malformedJsonIsRefusedNamingWhatIsWrong() throws Exception {
        String good = JsonFormat.printer().print(jaegerSpan().build());
        assertRefused(JSON, utf8(good.replace("\"operationName\"", "\"operationNam\"")), "invalid Jaeger JSON span", "operationNam");
        assertRefused(JSON, utf8("[" + good + "]"), "the document is an array, not an object");
        assertRefused(JSON, utf8("\"span\""), "the document is a string, not an object");
        assertRefused(JSON, utf8(""), "no JSON value");
        assertRefused(JSON, utf8("{'operationName': 'op'}"), "invalid Jaeger JSON span");
        assertRefused(JSON, utf8("/* a */ " + good), "invalid Jaeger JSON span");
        assertRefused(JSON, utf8("{\"operationName\": \"op\""), "invalid Jaeger JSON span");
        assertRefused(JSON, utf8("{\"tags\": [{\"key\": \"k\", \"vType\": \"TEXT\"}]}"), "invalid Jaeger JSON span", "TEXT");
        assertRefused(JSON, utf8("{\"spanId\": \"AQID\"}"), "span_id is 3 bytes");
        assertRefused(JSON, utf8("{\"startTime\": \"yesterday\"}"), "invalid Jaeger JSON span");
    }

    @Test
    void aRefusalQuotesTheRecordAtMostBriefly() {
        String big = "{\"process\": [" + "1,".repeat(10_000) + "1]}";
        assertThatThrownBy(() -> JSON.decode(utf8(big), RecordHeaders.NONE)).satisfies(e -> assertThat(e.getMessage().length()).isLessThan(400));
    }

    private static void assertRefused(RecordDecoder decoder, byte[] value, String... reasons) {
        assertThatThrownBy(() -> decoder.decode(value, RecordHeaders.NONE)).satisfies(e -> {
            for (String reason : reasons) {
                assertThat(e.getMessage()).contains(reason);
            }
        });
    }

    private static byte[] concat(byte[] a, byte[] b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(a);
        out.writeBytes(b);
        return out.toByteArray();
    }

    // ---- reading as Go reads

    @Test
    void jsonTakesSnakeCaseNamesEnumNumbersAndIgnoresWhatFollowsTheFirstValue() throws Exception {
        String json = "{\"trace_id\": \"AQIDBAUGBwgJCgsMDQ4PEA==\", \"span_id\": \"ERITFBUWFxg=\", \"operation_name\": \"op\","
                + " \"start_time\": \"2026-01-02T03:04:05.123456789Z\", \"duration\": \"1.500s\","
                + " \"tags\": [{\"key\": \"n\", \"v_type\": 2, \"v_int64\": \"5\"}], \"process\": {\"service_name\": \"svc\"}} trailing";
        assertThat(ExportTraceServiceRequest.parseFrom(JSON.decode(utf8(json), RecordHeaders.NONE)))
                .isEqualTo(request(svc(), InstrumentationScope.getDefaultInstance(), otlpSpan().addAttributes(kv("n", i(5)))));
    }

    @Test
    void stringsThatAreNotUtf8AreReadWithReplacementCharacters() throws Exception {
        // operation_name (field 3) "a" + a lone 0xC3, after the span's own: the last value wins
        byte[] proto = concat(jaegerSpan().build().toByteArray(), new byte[] {3 << 3 | 2, 2, 'a', (byte) 0xC3});
        ExportTraceServiceRequest r = ExportTraceServiceRequest.parseFrom(PROTO.decode(proto, RecordHeaders.NONE));
        assertThat(r.getResourceSpans(0).getScopeSpans(0).getSpans(0).getName()).isEqualTo("a\uFFFD");
        byte[] json = concat(utf8("{\"operationName\": \"a"), new byte[] {(byte) 0xC3, '"', '}'});
        r = ExportTraceServiceRequest.parseFrom(JSON.decode(json, RecordHeaders.NONE));
        assertThat(r.getResourceSpans(0).getScopeSpans(0).getSpans(0).getName()).isEqualTo("a\uFFFD");
    }

    // ---- the registry

    @Test
    void theRegistryHasThemForTracesOnly() {
        assertThat(PROTO).isNotNull();
        assertThat(JSON).isNotNull();
        assertThatThrownBy(() -> Encodings.decoder("jaeger_proto", Signal.LOGS)).hasMessage("'jaeger_proto' is an encoding of traces, "
                + "not of logs (logs: auto, otlp_proto, otlp_json, raw, text, text_<charset>, json)");
        assertThatThrownBy(() -> Encodings.decoder("jaeger_json", Signal.METRICS)).hasMessageStartingWith(
                "'jaeger_json' is an encoding of traces, not of metrics");
    }
}
