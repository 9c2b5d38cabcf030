package io.tributary.encoding.zipkin;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
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

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Zipkin v2 spans to an OTLP request, rule for rule as the collector's {@code
 * pkg/translator/zipkin/zipkinv2/to_translator.go} ({@code ToTranslator.ToTraces}, contrib
 * v0.153–v0.160, default feature gates: the v1 network conventions on, the v1 scope and HTTP
 * conventions off; tags are not parsed into numbers, as kafkareceiver asks). Each rule cites the
 * function it follows.
 */
final class ZipkinV2Translator {

    /** {@code tracetranslator.ResourceNoServiceName}: the sort key of spans without a local service. */
    private static final String NO_SERVICE = "OTLPResourceNoServiceName";
    private static final String SERVICE_NAME_SOURCE = "otlp.service.name.source";
    private static final String LIBRARY_NAME = "otel.library.name";
    private static final String LIBRARY_VERSION = "otel.library.version";

    /**
     * The resource attribute names of the semantic conventions the translator moves from the first
     * span's tags to the resource ({@code populateResourceFromZipkinSpan}), and the OpenCensus ones.
     */
    static final Set<String> RESOURCE_KEYS = Set.of(
            "cloud.provider", "cloud.account.id", "cloud.region", "cloud.availability_zone", "cloud.platform",
            "aws.ecs.container.arn", "aws.ecs.cluster.arn", "aws.ecs.launchtype", "aws.ecs.task.arn", "aws.ecs.task.family",
            "aws.ecs.task.revision", "aws.eks.cluster.arn", "aws.log.group.names", "aws.log.group.arns",
            "aws.log.stream.names", "aws.log.stream.arns", "container.name", "container.id", "container.runtime",
            "container.image.name", "container.image.tag", "deployment.environment", "device.id",
            "device.model.identifier", "device.model.name", "device.manufacturer", "faas.name", "faas.id", "faas.version",
            "faas.instance", "faas.max_memory", "host.id", "host.name", "host.type", "host.arch", "host.image.name",
            "host.image.id", "host.image.version", "k8s.cluster.name", "k8s.node.name", "k8s.node.uid",
            "k8s.namespace.name", "k8s.pod.uid", "k8s.pod.name", "k8s.container.name", "k8s.container.restart_count",
            "k8s.replicaset.uid", "k8s.replicaset.name", "k8s.deployment.uid", "k8s.deployment.name",
            "k8s.statefulset.uid", "k8s.statefulset.name", "k8s.daemonset.uid", "k8s.daemonset.name", "k8s.job.uid",
            "k8s.job.name", "k8s.cronjob.uid", "k8s.cronjob.name", "os.type", "os.description", "os.name", "os.version",
            "process.pid", "process.executable.name", "process.executable.path", "process.command",
            "process.command_line", "process.command_args", "process.owner", "process.runtime.name",
            "process.runtime.version", "process.runtime.description", "service.name", "service.namespace",
            "service.instance.id", "service.version", "telemetry.sdk.name", "telemetry.sdk.language",
            "telemetry.sdk.version", "telemetry.auto.version", "webengine.name", "webengine.version",
            "webengine.description", "opencensus.starttime", "opencensus.exporterversion", "opencensus.resourcetype");

    private static final JsonFactory JSON = new JsonFactory();

    private ZipkinV2Translator() {}

    /** {@code nonSpanAttributes}: never span attributes. */
    private static boolean nonSpan(String key) {
        return RESOURCE_KEYS.contains(key) || key.equals(SERVICE_NAME_SOURCE) || key.equals(LIBRARY_NAME)
                || key.equals(LIBRARY_VERSION);
    }

    private static String service(ZipkinSpan s) {
        return s.localEndpoint == null || s.localEndpoint.serviceName.isEmpty() ? NO_SERVICE : s.localEndpoint.serviceName;
    }

    private static String library(ZipkinSpan s) {
        String l = s.tags.get(LIBRARY_NAME);
        return l == null ? "" : l;
    }

    static ExportTraceServiceRequest toTraces(List<ZipkinSpan> input) throws IOException {
        // ToTraces: sort.Sort(byOTLPTypes) with Less (service, library) <=: for spans of equal keys
        // Go's sort leaves the later first (as an insertion sort does with a non-strict Less), so
        // a stable sort, then each run of equal keys reversed
        List<ZipkinSpan> spans = new ArrayList<>(input);
        Comparator<ZipkinSpan> byKeys = Comparator.comparing(ZipkinV2Translator::service, ZipkinV2Translator::compareBytes)
                .thenComparing(ZipkinV2Translator::library, ZipkinV2Translator::compareBytes);
        spans.sort(byKeys);
        for (int i = 0; i < spans.size(); ) {
            int j = i + 1;
            while (j < spans.size() && byKeys.compare(spans.get(i), spans.get(j)) == 0) {
                j++;
            }
            java.util.Collections.reverse(spans.subList(i, j));
            i = j;
        }
        ExportTraceServiceRequest.Builder out = ExportTraceServiceRequest.newBuilder();
        String previousService = "";
        String previousLibrary = "";
        boolean scopeIsNew = true;
        ResourceSpans.Builder resource = null;
        ScopeSpans.Builder scope = null;
        for (ZipkinSpan z : spans) {
            Map<String, String> tags = new LinkedHashMap<>(z.tags); // copySpanTags
            String svc = service(z);
            if (!svc.equals(previousService)) {
                previousService = svc;
                resource = out.addResourceSpansBuilder();
                resource(tags, svc, resource.getResourceBuilder());
                previousLibrary = "";
                scopeIsNew = true;
            }
            String lib = library(z);
            if (!lib.equals(previousLibrary) || scopeIsNew) {
                previousLibrary = lib;
                scope = resource.addScopeSpansBuilder();
                scopeIsNew = false;
                scope(tags, lib, scope);
            }
            scope.addSpans(span(z, tags));
        }
        return out.build();
    }

    /** Go's strings.Compare: byte order of UTF-8, which for Java strings is code point order. */
    private static int compareBytes(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    /** {@code populateResourceFromZipkinSpan}. */
    private static void resource(Map<String, String> tags, String svc, Resource.Builder r) {
        if (svc.equals(NO_SERVICE)) {
            return; // no service: no attributes at all (ServiceName '')
        }
        Map<String, String> attributes = new LinkedHashMap<>();
        if (tags.isEmpty()) {
            attributes.put("service.name", svc);
        } else {
            String source = tags.get(SERVICE_NAME_SOURCE);
            attributes.put(source == null || source.isEmpty() ? "service.name" : source, svc);
            tags.remove(SERVICE_NAME_SOURCE);
            for (String key : RESOURCE_KEYS) {
                String value = tags.remove(key);
                if (value != null) {
                    attributes.put(key, value); // PutStr: a service.name tag replaces the endpoint's name
                }
            }
        }
        attributes.forEach((k, v) -> r.addAttributes(str(k, v)));
    }

    /** {@code populateILFromZipkinSpan}. */
    private static void scope(Map<String, String> tags, String lib, ScopeSpans.Builder scopeSpans) {
        if (lib.isEmpty()) {
            return;
        }
        InstrumentationScope.Builder s = scopeSpans.getScopeBuilder();
        String name = tags.remove(LIBRARY_NAME);
        if (name != null) {
            s.setName(name);
        }
        String version = tags.remove(LIBRARY_VERSION);
        if (version != null) {
            s.setVersion(version);
        }
    }

    /** {@code zSpanToInternal}. */
    private static Span span(ZipkinSpan z, Map<String, String> tags) throws IOException {
        Span.Builder s = Span.newBuilder();
        // xidutils.UInt64ToTraceID / UInt64ToSpanID: big-endian
        s.setTraceId(ByteString.copyFrom(be(z.traceIdHigh, z.traceIdLow)));
        s.setSpanId(ByteString.copyFrom(be(z.id)));
        String traceState = tags.remove("w3c.tracestate");
        if (traceState != null) {
            s.setTraceState(traceState);
        }
        if (z.parentId != null && z.parentId != z.id && z.parentId != 0) {
            s.setParentSpanId(ByteString.copyFrom(be(z.parentId)));
        }
        s.setName(z.name);
        s.setKind(kind(z.kind, tags));
        status(tags, s.getStatusBuilder());
        links(tags, s);
        // zTagsToInternalAttrs: the tags (strings), then the endpoints over them
        Map<String, AnyValue> attributes = new LinkedHashMap<>();
        for (Map.Entry<String, String> t : tags.entrySet()) {
            if (!nonSpan(t.getKey())) {
                attributes.put(t.getKey(), AnyValue.newBuilder().setStringValue(t.getValue()).build());
            }
        }
        ZipkinSpan.Endpoint local = z.localEndpoint;
        if (local != null) {
            if (local.ipv4 != null) {
                attributes.put("network.local.address", text(local.ipv4));
            }
            if (local.ipv6 != null) {
                attributes.put("network.local.address", text(local.ipv6));
            }
            if (local.port > 0) {
                attributes.put("net.host.port", AnyValue.newBuilder().setIntValue(local.port).build());
            }
        }
        ZipkinSpan.Endpoint remote = z.remoteEndpoint;
        if (remote != null) {
            if (!remote.serviceName.isEmpty()) {
                attributes.put("service.peer.name", text(remote.serviceName));
            }
            if (remote.ipv4 != null) {
                attributes.put("network.peer.address", text(remote.ipv4));
            }
            if (remote.ipv6 != null) {
                attributes.put("network.peer.address", text(remote.ipv6));
            }
            if (remote.port > 0) {
                attributes.put("net.peer.port", AnyValue.newBuilder().setIntValue(remote.port).build());
            }
        }
        // setTimestampsV2: an absent start is the epoch, flagged
        if (z.timestampAbsent) {
            s.setStartTimeUnixNano(0);
            s.setEndTimeUnixNano(z.duration * 1000);
            attributes.put("otel.zipkin.absentField.startTime", AnyValue.newBuilder().setBoolValue(true).build());
        } else {
            s.setStartTimeUnixNano(z.timestamp * 1000);
            s.setEndTimeUnixNano((z.timestamp + z.duration) * 1000);
        }
        attributes.forEach((k, v) -> s.addAttributes(KeyValue.newBuilder().setKey(k).setValue(v)));
        events(z, s);
        return s.build();
    }

    /** {@code xidutils.UInt64ToTraceID} / {@code UInt64ToSpanID}: each word big-endian. */
    static byte[] be(long... words) {
        byte[] out = new byte[8 * words.length];
        for (int w = 0; w < words.length; w++) {
            for (int i = 0; i < 8; i++) {
                out[8 * w + i] = (byte) (words[w] >>> (56 - 8 * i));
            }
        }
        return out;
    }

    /** {@code zipkinKindToSpanKind}. */
    private static Span.SpanKind kind(String kind, Map<String, String> tags) {
        if (kind != null) {
            switch (kind) {
                case "CLIENT":
                    return Span.SpanKind.SPAN_KIND_CLIENT;
                case "SERVER":
                    return Span.SpanKind.SPAN_KIND_SERVER;
                case "PRODUCER":
                    return Span.SpanKind.SPAN_KIND_PRODUCER;
                case "CONSUMER":
                    return Span.SpanKind.SPAN_KIND_CONSUMER;
                default:
                    break;
            }
        }
        String tag = tags.remove("span.kind");
        return "internal".equals(tag) ? Span.SpanKind.SPAN_KIND_INTERNAL : Span.SpanKind.SPAN_KIND_UNSPECIFIED;
    }

    /** {@code populateSpanStatus}: case-sensitive names; an error tag of any value is an error. */
    private static void status(Map<String, String> tags, Status.Builder status) {
        String code = tags.remove("otel.status_code");
        if (code != null) {
            status.setCodeValue(switch (code) {
                case "STATUS_CODE_OK", "Ok" -> 1;
                case "STATUS_CODE_ERROR", "Error" -> 2;
                default -> 0;
            });
            String description = tags.remove("otel.status_description");
            if (description != null) {
                status.setMessage(description);
            }
        }
        String error = tags.get("error");
        if (error != null) {
            status.setCode(Status.StatusCode.STATUS_CODE_ERROR);
            if (error.equals("true")) {
                tags.remove("error");
            }
        }
    }

    /** {@code zTagsToSpanLinks}: otlp.link.0, .1, ... up to the first missing, at most 128. */
    private static void links(Map<String, String> tags, Span.Builder s) throws IOException {
        for (int i = 0; i < 128; i++) {
            String value = tags.remove("otlp.link." + i);
            if (value == null) {
                return;
            }
            String[] parts = value.split("\\|", -1);
            if (parts.length < 5) {
                continue;
            }
            Span.Link.Builder link = s.addLinksBuilder();
            link.setTraceId(ByteString.copyFrom(id(parts[0], 16)));
            link.setSpanId(ByteString.copyFrom(id(parts[1], 8)));
            link.setTraceState(parts[2]);
            String json = String.join("|", java.util.Arrays.copyOfRange(parts, 3, parts.length - 1));
            jsonAttributes(json, link::addAttributes);
            link.setDroppedAttributesCount(uint32(parts[parts.length - 1]));
        }
    }

    /** {@code unmarshalJSON} of an id: optional quotes, empty is all zero, else exactly 2n hex digits. */
    private static byte[] id(String s, int n) throws IOException {
        if (s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"")) {
            s = s.substring(1, s.length() - 1);
        }
        byte[] out = new byte[n];
        if (s.isEmpty()) {
            return out;
        }
        if (s.length() != 2 * n) {
            throw new IOException("invalid Zipkin span: a link's id has the wrong length");
        }
        for (int i = 0; i < n; i++) {
            int hi = Character.digit(s.charAt(2 * i), 16);
            int lo = Character.digit(s.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0 || s.charAt(2 * i) > 'f' || s.charAt(2 * i + 1) > 'f') {
                throw new IOException("invalid Zipkin span: a link's id is not hex");
            }
            out[i] = (byte) (hi << 4 | lo);
        }
        return out;
    }

    private static int uint32(String s) throws IOException {
        try {
            // Go's strconv.ParseUint: ASCII digits only, no sign
            if (s.isEmpty() || s.length() > 10 || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new NumberFormatException();
            }
            long v = Long.parseLong(s);
            if (v > 0xFFFFFFFFL) {
                throw new NumberFormatException();
            }
            return (int) v;
        } catch (NumberFormatException e) {
            throw new IOException("invalid Zipkin span: dropped attributes count '" + (s.length() > 20 ? s.substring(0, 20) + "..." : s)
                    + "' is not a uint32");
        }
    }

    /** {@code populateSpanEvents}: name|{json}|dropped, the name alone when fewer than 3 parts. */
    private static void events(ZipkinSpan z, Span.Builder s) throws IOException {
        for (ZipkinSpan.Annotation a : z.annotations) {
            Span.Event.Builder e = s.addEventsBuilder();
            e.setTimeUnixNano(a.timestampMicros() * 1000);
            String[] parts = a.value().split("\\|", -1);
            e.setName(parts[0]);
            if (parts.length < 3) {
                continue;
            }
            String json = String.join("|", java.util.Arrays.copyOfRange(parts, 1, parts.length - 1));
            jsonAttributes(json, e::addAttributes);
            e.setDroppedAttributesCount(uint32(parts[parts.length - 1]));
        }
    }

    /**
     * {@code jsonMapToAttributeMap} after Go's {@code json.Unmarshal} into a map: strings, numbers
     * (integral ones as Int), booleans; null, objects and arrays are left out.
     */
    private static void jsonAttributes(String json, java.util.function.Consumer<KeyValue> add) throws IOException {
        Map<String, AnyValue> attributes = new LinkedHashMap<>();
        try (JsonParser p = JSON.createParser(json)) {
            JsonToken t = p.nextToken();
            if (t == JsonToken.VALUE_NULL && p.nextToken() == null) {
                return; // Go's json.Unmarshal of null into a map: no attributes
            }
            if (t != JsonToken.START_OBJECT) {
                throw new IOException("invalid Zipkin span: annotation or link attributes are not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                JsonToken v = p.nextToken();
                AnyValue value = null;
                switch (v) {
                    case VALUE_STRING:
                        value = text(p.getText());
                        break;
                    case VALUE_NUMBER_INT:
                    case VALUE_NUMBER_FLOAT: {
                        double d = p.getValueAsDouble();
                        if (Double.isInfinite(d)) {
                            throw new IOException("invalid Zipkin span: a number out of range in annotation attributes");
                        }
                        value = d % 1.0 == 0.0 ? AnyValue.newBuilder().setIntValue((long) d).build()
                                : AnyValue.newBuilder().setDoubleValue(d).build();
                        break;
                    }
                    case VALUE_TRUE:
                    case VALUE_FALSE:
                        value = AnyValue.newBuilder().setBoolValue(v == JsonToken.VALUE_TRUE).build();
                        break;
                    default:
                        p.skipChildren();
                }
                attributes.remove(key);
                if (value != null) {
                    attributes.put(key, value);
                }
            }
            if (p.nextToken() != null) {
                throw new IOException("invalid Zipkin span: more after annotation attributes");
            }
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new IOException("invalid Zipkin span: annotation attributes: " + e.getOriginalMessage(), e);
        }
        attributes.forEach((k, v) -> add.accept(KeyValue.newBuilder().setKey(k).setValue(v).build()));
    }

    private static AnyValue text(String s) {
        return AnyValue.newBuilder().setStringValue(s).build();
    }

    private static KeyValue str(String k, String v) {
        return KeyValue.newBuilder().setKey(k).setValue(text(v)).build();
    }
}
