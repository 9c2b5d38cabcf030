package io.tributary.encoding.zipkin;

import io.tributary.otlp.InvalidProtobufException;
import io.tributary.otlp.proto.ProtoReader;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Zipkin v2 proto3 ({@code zipkin_proto}: {@code zipkin.proto3.ListOfSpans}) as the collector
 * decodes it: zipkin-go's {@code proto/zipkin_proto3/decode_proto.go} ({@code ParseSpans}, {@code
 * protoSpanToModelSpan}), read with the wire reader. The trace id must be 16 bytes (zipkin-go
 * refuses the 8 bytes of a 64-bit id), the span id 8, a parent id none or 8; a timestamp of 0 is
 * the epoch, not an absent one; an endpoint is kept even when empty; a port is cut to 16 bits; a
 * string that is not UTF-8 refuses the record, as Go's protobuf runtime does for proto3.
 */
final class ZipkinProto {

    private static final String[] KINDS = {"SPAN_KIND_UNSPECIFIED", "CLIENT", "SERVER", "PRODUCER", "CONSUMER"};

    private ZipkinProto() {}

    static List<ZipkinSpan> decode(byte[] value) throws IOException {
        List<ZipkinSpan> spans = new ArrayList<>();
        ProtoReader r = new ProtoReader().reset(value, 0, value.length);
        while (r.next()) {
            if (r.is(1, ProtoReader.LEN)) {
                r.readBytes();
                spans.add(span(r.child()));
            } else {
                r.skip();
            }
        }
        return spans;
    }

    private static ZipkinSpan span(ProtoReader r) throws IOException {
        ZipkinSpan s = new ZipkinSpan();
        byte[] b = r.buffer();
        byte[] traceId = new byte[0];
        byte[] id = new byte[0];
        byte[] parent = new byte[0];
        while (r.next()) {
            int f = r.field();
            int wt = r.wireType();
            if (wt == ProtoReader.LEN && (f == 1 || f == 2 || f == 3 || f == 5 || f == 8 || f == 9 || f == 10 || f == 11)) {
                r.readBytes();
                switch (f) {
                    case 1:
                        traceId = Arrays.copyOfRange(b, r.start(), r.start() + r.length());
                        break;
                    case 2:
                        parent = Arrays.copyOfRange(b, r.start(), r.start() + r.length());
                        break;
                    case 3:
                        id = Arrays.copyOfRange(b, r.start(), r.start() + r.length());
                        break;
                    case 5:
                        s.name = string(b, r);
                        break;
                    case 8:
                        s.localEndpoint = endpoint(r.child());
                        break;
                    case 9:
                        s.remoteEndpoint = endpoint(r.child());
                        break;
                    case 10:
                        s.annotations.add(annotation(r.child()));
                        break;
                    default:
                        entry(r.child(), s);
                }
            } else if (f == 4 && wt == ProtoReader.VARINT) {
                int k = (int) r.readVarint();
                s.kind = k >= 0 && k < KINDS.length ? KINDS[k] : Integer.toString(k);
            } else if (f == 6 && wt == ProtoReader.I64) {
                s.timestamp = r.readFixed64();
            } else if (f == 7 && wt == ProtoReader.VARINT) {
                s.duration = r.readVarint();
            } else {
                r.skip(); // debug, shared: not used by the translator
            }
        }
        if (traceId.length != 16) {
            throw new IOException("invalid Zipkin proto3: trace id has length " + traceId.length + " yet wanted length 16");
        }
        if (id.length != 8) {
            throw new IOException("invalid Zipkin proto3: span id has length " + id.length + " yet wanted length 8");
        }
        s.traceIdHigh = be64(traceId, 0);
        s.traceIdLow = be64(traceId, 8);
        s.id = be64(id, 0);
        if (parent.length == 8) {
            s.parentId = be64(parent, 0);
        } else if (parent.length != 0) {
            throw new IOException("invalid Zipkin proto3: parent id has length " + parent.length + " yet wanted length 8");
        }
        s.timestampAbsent = false;
        return s;
    }

    private static long be64(byte[] b, int at) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = v << 8 | (b[at + i] & 0xFF);
        }
        return v;
    }

    /** A proto3 string: Go's protobuf runtime refuses one that is not UTF-8, and so the record. */
    private static String string(byte[] b, ProtoReader r) throws InvalidProtobufException {
        if (!io.tributary.otlp.Utf8.isValid(b, r.start(), r.length())) {
            throw new InvalidProtobufException("invalid Zipkin proto3: a string field holds invalid UTF-8");
        }
        return new String(b, r.start(), r.length(), StandardCharsets.UTF_8);
    }

    private static ZipkinSpan.Endpoint endpoint(ProtoReader r) throws InvalidProtobufException {
        byte[] b = r.buffer();
        ZipkinSpan.Endpoint e = new ZipkinSpan.Endpoint();
        while (r.next()) {
            if (r.is(1, ProtoReader.LEN)) {
                r.readBytes();
                e.serviceName = string(b, r);
            } else if (r.is(2, ProtoReader.LEN) || r.is(3, ProtoReader.LEN)) {
                boolean v4 = r.field() == 2;
                r.readBytes();
                String ip = r.length() == 0 ? null : GoIp.format(Arrays.copyOfRange(b, r.start(), r.start() + r.length()));
                if (v4) {
                    e.ipv4 = ip;
                } else {
                    e.ipv6 = ip;
                }
            } else if (r.is(4, ProtoReader.VARINT)) {
                e.port = (int) r.readVarint() & 0xFFFF; // uint16(int32)
            } else {
                r.skip();
            }
        }
        return e;
    }

    private static ZipkinSpan.Annotation annotation(ProtoReader r) throws InvalidProtobufException {
        byte[] b = r.buffer();
        long ts = 0;
        String value = "";
        while (r.next()) {
            if (r.is(1, ProtoReader.I64)) {
                ts = r.readFixed64();
            } else if (r.is(2, ProtoReader.LEN)) {
                r.readBytes();
                value = string(b, r);
            } else {
                r.skip();
            }
        }
        return new ZipkinSpan.Annotation(ts, value);
    }

    /** A {@code map<string, string> tags} entry. */
    private static void entry(ProtoReader r, ZipkinSpan s) throws InvalidProtobufException {
        byte[] b = r.buffer();
        String key = "";
        String value = "";
        while (r.next()) {
            if (r.is(1, ProtoReader.LEN)) {
                r.readBytes();
                key = string(b, r);
            } else if (r.is(2, ProtoReader.LEN)) {
                r.readBytes();
                value = string(b, r);
            } else {
                r.skip();
            }
        }
        s.tags.remove(key);
        s.tags.put(key, value);
    }
}
