package io.tributary.encoding.zipkin;

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

import java.util.HexFormat;
import java.util.List;

import zipkin2.Endpoint;

/**
 * Zipkin spans written with the zipkin2 library and the OTLP request the collector's {@code
 * pkg/translator/zipkin/zipkinv2/to_translator.go} makes of them, built by hand from its rules
 * (each cited where it is used); shared by the unit test and the job's integration test.
 */
public final class ZipkinFixtures {

    public static final long TS = 1_764_000_000_000_000L; // µs

    private ZipkinFixtures() {}

    /** Two services, two scopes in one, every field a rule reads. */
    public static List<zipkin2.Span> spans() {
        zipkin2.Span server = zipkin2.Span.newBuilder()
                .traceId("463ac35c9f6413ad48485a3953bb6124").id("a2fb4a1d1a96d312").parentId("0020000000000001")
                .kind(zipkin2.Span.Kind.SERVER).name("get /api").timestamp(TS).duration(1500)
                .localEndpoint(Endpoint.newBuilder().serviceName("frontend").ip("192.168.99.101").port(8080).build())
                .remoteEndpoint(Endpoint.newBuilder().serviceName("browser").ip("2001:db8::c001").port(63000).build())
                .addAnnotation(TS + 10, "wire.send")
                .addAnnotation(TS + 20, "retry|{\"attempt\":2,\"ratio\":0.5,\"ok\":true,\"by\":\"lb\",\"n\":null}|3")
                .putTag("http.method", "GET").putTag("host.name", "web-1").putTag("otel.library.name", "io.otel.http")
                .putTag("otel.library.version", "1.2").putTag("otel.status_code", "Error").putTag("otel.status_description", "boom")
                .putTag("w3c.tracestate", "k=v").putTag("otlp.link.0", "463ac35c9f6413ad48485a3953bb6124|0000000000000002|t=1|{\"a\":\"b\"}|1")
                .build();
        zipkin2.Span client = zipkin2.Span.newBuilder()
                .traceId("463ac35c9f6413ad48485a3953bb6124").id("0000000000000003").parentId("a2fb4a1d1a96d312")
                .kind(zipkin2.Span.Kind.CLIENT).name("select").timestamp(TS + 100).duration(200)
                .localEndpoint(Endpoint.newBuilder().serviceName("frontend").build())
                .putTag("host.name", "db-side").putTag("error", "false")
                .putTag("otel.status_code", "OK").putTag("span.kind", "client")
                .build();
        zipkin2.Span orphan = zipkin2.Span.newBuilder()
                .traceId("111111111111111148485a3953bb6124").id("0000000000000004").name("orphan").timestamp(TS).duration(0)
                .putTag("span.kind", "internal").putTag("error", "true")
                .build();
        return List.of(server, client, orphan);
    }

    public static ExportTraceServiceRequest expected() {
        byte[] trace = HexFormat.of().parseHex("463ac35c9f6413ad48485a3953bb6124");
        Span server = Span.newBuilder()
                .setTraceId(ByteString.copyFrom(trace)).setSpanId(id("a2fb4a1d1a96d312")).setParentSpanId(id("0020000000000001"))
                .setTraceState("k=v") // w3c.tracestate
                .setName("get /api").setKind(Span.SpanKind.SPAN_KIND_SERVER)
                .setStartTimeUnixNano(TS * 1000).setEndTimeUnixNano((TS + 1500) * 1000)
                // populateSpanStatus: Error by name, its description as the message
                .setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_ERROR).setMessage("boom"))
                // zTagsToSpanLinks: trace|span|state|json|dropped
                .addLinks(Span.Link.newBuilder().setTraceId(ByteString.copyFrom(trace)).setSpanId(id("0000000000000002"))
                        .setTraceState("t=1").addAttributes(str("a", "b")).setDroppedAttributesCount(1))
                // tags as strings, then the endpoints (v1 network conventions)
                .addAttributes(str("http.method", "GET"))
                .addAttributes(str("network.local.address", "192.168.99.101"))
                .addAttributes(kv("net.host.port", AnyValue.newBuilder().setIntValue(8080)))
                .addAttributes(str("service.peer.name", "browser"))
                .addAttributes(str("network.peer.address", "2001:db8::c001"))
                .addAttributes(kv("net.peer.port", AnyValue.newBuilder().setIntValue(63000)))
                // populateSpanEvents: the name alone, or name|{attributes}|dropped
                .addEvents(Span.Event.newBuilder().setTimeUnixNano((TS + 10) * 1000).setName("wire.send"))
                .addEvents(Span.Event.newBuilder().setTimeUnixNano((TS + 20) * 1000).setName("retry")
                        .addAttributes(kv("attempt", AnyValue.newBuilder().setIntValue(2)))
                        .addAttributes(kv("ratio", AnyValue.newBuilder().setDoubleValue(0.5)))
                        .addAttributes(kv("ok", AnyValue.newBuilder().setBoolValue(true)))
                        .addAttributes(str("by", "lb"))
                        .setDroppedAttributesCount(3))
                .build();
        Span client = Span.newBuilder()
                .setTraceId(ByteString.copyFrom(trace)).setSpanId(id("0000000000000003")).setParentSpanId(id("a2fb4a1d1a96d312"))
                .setName("select").setKind(Span.SpanKind.SPAN_KIND_CLIENT)
                .setStartTimeUnixNano((TS + 100) * 1000).setEndTimeUnixNano((TS + 300) * 1000)
                // "OK" is no status name of the translator's (case matters): Unset, then any error tag: Error, kept unless "true"
                .setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_ERROR))
                .addAttributes(str("error", "false")).addAttributes(str("span.kind", "client"))
                .build();
        Span orphan = Span.newBuilder()
                .setTraceId(ByteString.copyFrom(HexFormat.of().parseHex("111111111111111148485a3953bb6124")))
                .setSpanId(id("0000000000000004")).setName("orphan").setKind(Span.SpanKind.SPAN_KIND_INTERNAL)
                .setStartTimeUnixNano(TS * 1000).setEndTimeUnixNano(TS * 1000)
                .setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_ERROR))
                .build();
        // ToTraces: sorted by (service, library): no service (its marker "OTLPResourceNoServiceName" sorts
        // before "frontend"), then frontend's spans, no library before io.otel.http
        return ExportTraceServiceRequest.newBuilder()
                .addResourceSpans(ResourceSpans.newBuilder().setResource(Resource.getDefaultInstance())
                        .addScopeSpans(ScopeSpans.newBuilder().addSpans(orphan)))
                .addResourceSpans(ResourceSpans.newBuilder()
                        // populateResourceFromZipkinSpan, from the first span of the service (the client);
                        // the server's host.name is dropped, not moved
                        .setResource(Resource.newBuilder().addAttributes(str("service.name", "frontend"))
                                .addAttributes(str("host.name", "db-side")))
                        .addScopeSpans(ScopeSpans.newBuilder().addSpans(client))
                        .addScopeSpans(ScopeSpans.newBuilder()
                                .setScope(InstrumentationScope.newBuilder().setName("io.otel.http").setVersion("1.2"))
                                .addSpans(server)))
                .build();
    }


    static ByteString id(String hex) {
        return ByteString.copyFrom(HexFormat.of().parseHex(hex));
    }

    static KeyValue str(String k, String v) {
        return KeyValue.newBuilder().setKey(k).setValue(AnyValue.newBuilder().setStringValue(v)).build();
    }

    static KeyValue kv(String k, AnyValue.Builder v) {
        return KeyValue.newBuilder().setKey(k).setValue(v).build();
    }
}
