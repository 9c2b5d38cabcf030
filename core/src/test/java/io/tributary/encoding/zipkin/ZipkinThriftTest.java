package io.tributary.encoding.zipkin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
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

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * {@code zipkin_thrift}: TBinaryProtocol {@code list<zipkincore.Span>} written field by field here,
 * translated as the collector's v1 translator does ({@code zipkinv1/thrift.go}, {@code json.go},
 * {@code status_code.go}); the expected request is built from those rules, each cited.
 */
class ZipkinThriftTest {

    private static final long T = 1_764_000_000_000_000L; // µs

    /** A TBinaryProtocol writer, enough for zipkincore. */
    private static final class W {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        W i8(int v) {
            out.write(v);
            return this;
        }

        W i16(int v) {
            return i8(v >> 8).i8(v);
        }

        W i32(int v) {
            return i16(v >> 16).i16(v);
        }

        W i64(long v) {
            return i32((int) (v >>> 32)).i32((int) v);
        }

        W field(int type, int id) {
            return i8(type).i16(id);
        }

        W bin(byte[] b) {
            i32(b.length);
            out.writeBytes(b);
            return this;
        }

        W str(String s) {
            return bin(s.getBytes(StandardCharsets.UTF_8));
        }

        W stop() {
            return i8(0);
        }

        W endpoint(int id, int ipv4, int port, String service) {
            return field(12, id).field(8, 1).i32(ipv4).field(6, 2).i16(port).field(11, 3).str(service).stop();
        }

        W annotation(long ts, String value, boolean host) {
            field(10, 1).i64(ts).field(11, 2).str(value);
            if (host) {
                endpoint(3, 0x0A000001, 40000, "frontend");
            }
            return stop();
        }

        W binary(String key, byte[] value, int type, String hostService) {
            field(11, 1).str(key).field(11, 2).bin(value).field(8, 3).i32(type);
            if (hostService != null) {
                endpoint(4, 0x0A000002, 0, hostService);
            }
            return stop();
        }
    }

    private static byte[] record() {
        W w = new W();
        w.i8(12).i32(2); // list<Span> of 2
        // span A: kind and times from the core annotations, the endpoint of the first one with a service
        w.field(10, 1).i64(0x48485a3953bb6124L).field(11, 3).str("Get /API").field(10, 4).i64(0xa2fb4a1d1a96d312L)
                .field(10, 5).i64(0x0020000000000001L).field(10, 12).i64(0x463ac35c9f6413adL);
        w.field(15, 6).i8(12).i32(4)
                .annotation(T, "sr", true).annotation(T + 5, "cache.miss", false).annotation(T + 7, "", false)
                .annotation(T + 100, "ss", true);
        w.field(15, 8).i8(12).i32(6)
                .binary("http.status_code", new byte[] {0x01, (byte) 0xF4}, 2, null)
                .binary("http.status_message", "Internal".getBytes(StandardCharsets.UTF_8), 6, null)
                .binary("lc", "servlet".getBytes(StandardCharsets.UTF_8), 6, null)
                .binary("ca", new byte[] {1}, 0, "client")
                .binary("error", new byte[0], 6, null)
                .binary("retries", new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFE}, 3, null);
        w.field(2, 9).i8(1); // debug: read, unused
        w.stop();
        // span B: no annotations: unknown-service, then the local component; times from its own fields
        w.field(10, 1).i64(7).field(11, 3).str("work").field(10, 4).i64(8).field(10, 10).i64(T).field(10, 11).i64(7);
        w.field(15, 8).i8(12).i32(3)
                .binary("lc", "worker".getBytes(StandardCharsets.UTF_8), 6, null)
                .binary("otel.status_code", "2".getBytes(StandardCharsets.UTF_8), 6, null)
                .binary("otel.status_description", "bad".getBytes(StandardCharsets.UTF_8), 6, null);
        w.stop();
        return w.out.toByteArray();
    }

    @Test
    void v1SpansAsTheCollectorsV1TranslatorMakesThem() throws Exception {
        ExportTraceServiceRequest got = ExportTraceServiceRequest.parseFrom(
                Encodings.decoder("zipkin_thrift", Signal.TRACES).decode(record(), RecordHeaders.NONE));
        Span a = Span.newBuilder()
                .setTraceId(id("463ac35c9f6413ad48485a3953bb6124")).setSpanId(id("a2fb4a1d1a96d312"))
                .setParentSpanId(id("0020000000000001")).setName("Get /API")
                .setKind(Span.SpanKind.SPAN_KIND_SERVER) // the first core annotation, sr
                .setStartTimeUnixNano(T * 1000).setEndTimeUnixNano((T + 100) * 1000) // smallest and largest annotation
                .addEvents(Span.Event.newBuilder().setTimeUnixNano((T + 5) * 1000).setName("cache.miss")) // not core, not empty
                // typed binary annotations; lc is component; http.* kept; error dropped; I32 read unsigned
                .addAttributes(kv("http.status_code", AnyValue.newBuilder().setIntValue(500)))
                .addAttributes(kv("http.status_message", AnyValue.newBuilder().setStringValue("Internal")))
                .addAttributes(kv("component", AnyValue.newBuilder().setStringValue("servlet")))
                .addAttributes(kv("ca", AnyValue.newBuilder().setBoolValue(true)))
                .addAttributes(kv("retries", AnyValue.newBuilder().setIntValue(4294967294L)))
                // the error tag wins over http.status_code; its message: census's, else otel's: none
                .setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_ERROR))
                .build();
        Span b = Span.newBuilder()
                .setTraceId(id("00000000000000000000000000000007")).setSpanId(id("0000000000000008")).setName("work")
                .setStartTimeUnixNano(T * 1000).setEndTimeUnixNano((T + 7) * 1000)
                .addAttributes(kv("component", AnyValue.newBuilder().setStringValue("worker")))
                .setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_ERROR).setMessage("bad"))
                .build();
        ExportTraceServiceRequest want = ExportTraceServiceRequest.newBuilder()
                // getOrCreateNodeRequest: service.name, then the address (port as a signed i16: 40000 is -25536)
                .addResourceSpans(ResourceSpans.newBuilder().setResource(Resource.newBuilder()
                                .addAttributes(kv("service.name", AnyValue.newBuilder().setStringValue("frontend")))
                                .addAttributes(kv("ipv4", AnyValue.newBuilder().setStringValue("10.0.0.1")))
                                .addAttributes(kv("port", AnyValue.newBuilder().setStringValue("-25536"))))
                        .addScopeSpans(ScopeSpans.newBuilder().addSpans(a)))
                .addResourceSpans(ResourceSpans.newBuilder().setResource(Resource.newBuilder()
                                .addAttributes(kv("service.name", AnyValue.newBuilder().setStringValue("worker"))))
                        .addScopeSpans(ScopeSpans.newBuilder().addSpans(b)))
                .build();
        assertThat(got).isEqualTo(want);
    }

    @Test
    void damagedRecordsAreRefused() {
        byte[] whole = record();
        for (int cut : new int[] {3, 20, whole.length / 2, whole.length - 1}) {
            byte[] part = java.util.Arrays.copyOf(whole, cut);
            assertThatThrownBy(() -> Encodings.decoder("zipkin_thrift", Signal.TRACES).decode(part, RecordHeaders.NONE))
                    .as("cut at " + cut).hasMessageContaining("invalid Zipkin thrift");
        }
        byte[] huge = {12, 0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF};
        assertThatThrownBy(() -> Encodings.decoder("zipkin_thrift", Signal.TRACES).decode(huge, RecordHeaders.NONE))
                .hasMessageContaining("a list of 2147483647 elements");
    }

    private static ByteString id(String hex) {
        return ByteString.copyFrom(HexFormat.of().parseHex(hex));
    }

    private static KeyValue kv(String k, AnyValue.Builder v) {
        return KeyValue.newBuilder().setKey(k).setValue(v).build();
    }
}
