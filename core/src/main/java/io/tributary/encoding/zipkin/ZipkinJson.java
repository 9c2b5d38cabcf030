package io.tributary.encoding.zipkin;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tributary.otlp.Utf8;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Zipkin v2 JSON ({@code zipkin_json}) as the collector decodes it: Go's {@code encoding/json}
 * into zipkin-go's {@code model.SpanModel} ({@code zipkinv2/json.go}; zipkin-go {@code
 * model/span.go}, {@code traceid.go}, {@code endpoint.go}, {@code annotation.go}). Keys match
 * without regard to case, as Go matches struct fields; unknown keys are skipped; a later key
 * wins; invalid UTF-8 reads as U+FFFD.
 */
final class ZipkinJson {

    /** Go's encoding/json bounds nesting at 10,000 and no string, number or name: the record's size bounds them. */
    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(com.fasterxml.jackson.core.StreamReadConstraints.builder().maxNestingDepth(10_000)
                    .maxStringLength(Integer.MAX_VALUE).maxNumberLength(Integer.MAX_VALUE).maxNameLength(Integer.MAX_VALUE).build())
            .build();

    private ZipkinJson() {}

    static List<ZipkinSpan> decode(byte[] value) throws IOException {
        byte[] json = Utf8.isValid(value, 0, value.length)
                ? value : new String(value, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8);
        List<ZipkinSpan> spans = new ArrayList<>();
        try (JsonParser p = JSON.createParser(json)) {
            JsonToken t = p.nextToken();
            if (t == JsonToken.VALUE_NULL) {
                end(p);
                return spans;
            }
            if (t != JsonToken.START_ARRAY) {
                throw new IOException("invalid Zipkin JSON: the document is not an array of spans");
            }
            while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                if (t == JsonToken.VALUE_NULL) {
                    continue; // a null element is skipped
                }
                if (t != JsonToken.START_OBJECT) {
                    throw new IOException("invalid Zipkin JSON: an element of the array is not a span");
                }
                spans.add(span(p));
            }
            end(p);
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new IOException("invalid Zipkin JSON: " + e.getOriginalMessage(), e);
        }
        return spans;
    }

    private static void end(JsonParser p) throws IOException {
        if (p.nextToken() != null) {
            throw new IOException("invalid Zipkin JSON: more after the array");
        }
    }

    private static ZipkinSpan span(JsonParser p) throws IOException {
        ZipkinSpan s = new ZipkinSpan();
        String traceId = null;
        String id = null;
        long timestamp = 0;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName().toLowerCase(Locale.ROOT);
            JsonToken t = p.nextToken();
            switch (key) {
                case "traceid":
                    if (t == JsonToken.VALUE_NULL) {
                        throw new IOException("invalid Zipkin JSON: traceId is null"); // TraceID.UnmarshalJSON refuses it
                    }
                    traceId = string(p, t, "traceId");
                    break;
                case "id":
                    id = string(p, t, "id");
                    break;
                case "parentid": {
                    String v = string(p, t, "parentId");
                    s.parentId = v == null || v.isEmpty() ? null : hex64(v, "parentId");
                    break;
                }
                case "name":
                    s.name = nullToEmpty(string(p, t, "name"));
                    break;
                case "kind":
                    s.kind = string(p, t, "kind");
                    break;
                case "timestamp":
                    timestamp = micros(p, t, "timestamp");
                    break;
                case "duration":
                    s.duration = micros(p, t, "duration");
                    break;
                case "localendpoint":
                    s.localEndpoint = endpoint(p, t);
                    break;
                case "remoteendpoint":
                    s.remoteEndpoint = endpoint(p, t);
                    break;
                case "annotations":
                    s.annotations.clear();
                    annotations(p, t, s);
                    break;
                case "tags":
                    s.tags.clear();
                    tags(p, t, s);
                    break;
                case "debug":
                case "shared":
                    if (t != JsonToken.VALUE_TRUE && t != JsonToken.VALUE_FALSE && t != JsonToken.VALUE_NULL) {
                        throw new IOException("invalid Zipkin JSON: " + key + " is not a boolean");
                    }
                    break; // read, never used by the translator
                default:
                    p.skipChildren();
            }
        }
        // traceid.go: a missing trace id is all zero; an empty one is refused
        if (traceId != null) {
            if (traceId.isEmpty()) {
                throw new IOException("invalid Zipkin JSON: empty traceId");
            }
            int split = Math.max(0, traceId.length() - 16);
            s.traceIdHigh = split == 0 ? 0 : hex64(traceId.substring(0, split), "traceId");
            s.traceIdLow = hex64(traceId.substring(split), "traceId");
        }
        // span.go: "valid span id required"
        long spanId = id == null || id.isEmpty() ? 0 : hex64(id, "id");
        if (spanId == 0) {
            throw new IOException("invalid Zipkin JSON: valid span id required");
        }
        s.id = spanId;
        s.timestamp = timestamp;
        s.timestampAbsent = timestamp == 0;
        return s;
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    /** A string value, or null for JSON null; another type is refused, as Go refuses it. */
    private static String string(JsonParser p, JsonToken t, String what) throws IOException {
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (t != JsonToken.VALUE_STRING) {
            throw new IOException("invalid Zipkin JSON: " + what + " is not a string");
        }
        return p.getText();
    }

    /** An unsigned integer of microseconds (Go's uint64): no sign, no fraction. */
    private static long micros(JsonParser p, JsonToken t, String what) throws IOException {
        if (t == JsonToken.VALUE_NULL) {
            return 0;
        }
        if (t != JsonToken.VALUE_NUMBER_INT || p.getText().startsWith("-")) {
            throw new IOException("invalid Zipkin JSON: " + what + " is not an unsigned integer");
        }
        try {
            return Long.parseUnsignedLong(p.getText());
        } catch (NumberFormatException e) {
            throw new IOException("invalid Zipkin JSON: " + what + " is out of range");
        }
    }

    /** Hex digits as Go's {@code strconv.ParseUint(s, 16, 64)}: upper case allowed, at most 16 digits. */
    static long hex64(String s, String what) throws IOException {
        if (s.isEmpty() || s.length() > 16) {
            throw new IOException("invalid Zipkin JSON: " + what + " '" + abbreviate(s) + "' is not a hex id");
        }
        long v = 0;
        for (int i = 0; i < s.length(); i++) {
            int d = Character.digit(s.charAt(i), 16);
            if (d < 0 || s.charAt(i) > 'f') {
                throw new IOException("invalid Zipkin JSON: " + what + " '" + abbreviate(s) + "' is not a hex id");
            }
            v = v << 4 | d;
        }
        return v;
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "...";
    }

    /** endpoint.go: an endpoint with nothing set is none. */
    private static ZipkinSpan.Endpoint endpoint(JsonParser p, JsonToken t) throws IOException {
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (t != JsonToken.START_OBJECT) {
            throw new IOException("invalid Zipkin JSON: an endpoint is not an object");
        }
        ZipkinSpan.Endpoint e = new ZipkinSpan.Endpoint();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName().toLowerCase(Locale.ROOT);
            JsonToken v = p.nextToken();
            switch (key) {
                case "servicename":
                    e.serviceName = nullToEmpty(string(p, v, "serviceName"));
                    break;
                case "ipv4":
                case "ipv6": {
                    String ip = nullToEmpty(string(p, v, key));
                    String text = null;
                    if (!ip.isEmpty()) {
                        byte[] b = GoIp.parse(ip);
                        if (b == null) {
                            throw new IOException("invalid Zipkin JSON: " + key + " '" + abbreviate(ip) + "' is not an IP address");
                        }
                        text = GoIp.format(b);
                    }
                    if (key.equals("ipv4")) {
                        e.ipv4 = text;
                    } else {
                        e.ipv6 = text;
                    }
                    break;
                }
                case "port": {
                    if (v == JsonToken.VALUE_NULL) {
                        e.port = 0;
                        break;
                    }
                    if (v != JsonToken.VALUE_NUMBER_INT) {
                        throw new IOException("invalid Zipkin JSON: port is not an integer");
                    }
                    long port = p.getLongValue();
                    if (port < 0 || port > 65535) {
                        throw new IOException("invalid Zipkin JSON: port " + p.getText() + " is out of range");
                    }
                    e.port = (int) port;
                    break;
                }
                default:
                    p.skipChildren();
            }
        }
        if (e.serviceName.isEmpty() && e.ipv4 == null && e.ipv6 == null && e.port == 0) {
            return null;
        }
        return e;
    }

    /** annotation.go: a timestamp of at least 1 µs is required. */
    private static void annotations(JsonParser p, JsonToken t, ZipkinSpan s) throws IOException {
        if (t == JsonToken.VALUE_NULL) {
            return;
        }
        if (t != JsonToken.START_ARRAY) {
            throw new IOException("invalid Zipkin JSON: annotations is not an array");
        }
        JsonToken e;
        while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
            if (e == JsonToken.VALUE_NULL) {
                throw new IOException("invalid Zipkin JSON: valid annotation timestamp required");
            }
            if (e != JsonToken.START_OBJECT) {
                throw new IOException("invalid Zipkin JSON: an annotation is not an object");
            }
            long ts = 0;
            String value = "";
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName().toLowerCase(Locale.ROOT);
                JsonToken v = p.nextToken();
                if (key.equals("timestamp")) {
                    ts = micros(p, v, "an annotation's timestamp");
                } else if (key.equals("value")) {
                    value = nullToEmpty(string(p, v, "an annotation's value"));
                } else {
                    p.skipChildren();
                }
            }
            if (ts < 1) {
                throw new IOException("invalid Zipkin JSON: valid annotation timestamp required");
            }
            s.annotations.add(new ZipkinSpan.Annotation(ts, value));
        }
    }

    /** Tags are strings only; a null value is "". */
    private static void tags(JsonParser p, JsonToken t, ZipkinSpan s) throws IOException {
        if (t == JsonToken.VALUE_NULL) {
            return;
        }
        if (t != JsonToken.START_OBJECT) {
            throw new IOException("invalid Zipkin JSON: tags is not an object");
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            JsonToken v = p.nextToken();
            String value = string(p, v, "tag '" + abbreviate(key) + "'");
            s.tags.remove(key);
            s.tags.put(key, nullToEmpty(value));
        }
    }
}
