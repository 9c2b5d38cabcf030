package io.tributary.encoding;

import io.tributary.otlp.InvalidProtobufException;
import io.tributary.otlp.proto.ProtoReader;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The collector kafkareceiver's {@code header_extraction}: each named header a record carries
 * becomes the string attribute {@code kafka.header.<name>} of every resource in the record's
 * request, replacing an attribute of that key (pdata's {@code PutStr}); a header the record lacks
 * adds nothing. When a header repeats, its first value is taken, as the receiver's lookup returns
 * the first match. The value's bytes are taken as they are (Go's {@code string(bytes)}: not
 * checked as UTF-8); a header without a value is the empty string.
 *
 * <p>Done on the request's protobuf bytes for every signal and encoding alike, without messages:
 * an export request holds its {@code Resource*} messages in field 1, and each of them its {@code
 * Resource} in field 1, whose field 1 holds the attributes.
 */
public final class HeaderExtraction implements Serializable {
    private static final long serialVersionUID = 1L;

    /** No headers extracted. */
    public static final HeaderExtraction NONE = new HeaderExtraction(List.of());

    /** The attribute key prefix the receiver puts before a header's name. */
    public static final String PREFIX = "kafka.header.";

    private final String[] names;

    public HeaderExtraction(List<String> names) {
        this.names = names.toArray(new String[0]);
    }

    public boolean isOn() {
        return names.length > 0;
    }

    public List<String> names() {
        return List.of(names);
    }

    /** A rewriter with its own buffers, for one thread. */
    public Rewriter rewriter() {
        return new Rewriter(names);
    }

    /** Adds the headers to a request's resources. Not thread-safe. */
    public static final class Rewriter {
        private final String[] names;
        private final byte[][] keys;
        private final ProtoReader reader = new ProtoReader();
        private final WireOut out = new WireOut();
        private final WireOut resourceX = new WireOut();
        private final WireOut resource = new WireOut();
        private final WireOut attributes = new WireOut();
        /** Which of {@link #keys} the record has, this call. */
        private final boolean[] present;

        Rewriter(String[] names) {
            this.names = names;
            this.keys = new byte[names.length][];
            for (int i = 0; i < names.length; i++) {
                keys[i] = (PREFIX + names[i]).getBytes(StandardCharsets.UTF_8);
            }
            this.present = new boolean[names.length];
        }

        /**
         * The request with the record's headers among its resources' attributes, or {@code request}
         * itself when the record has none of the headers.
         *
         * @throws InvalidProtobufException when the request does not frame as one
         */
        public byte[] apply(byte[] request, RecordHeaders headers) throws InvalidProtobufException {
            attributes.size = 0;
            boolean any = false;
            for (int i = 0; i < names.length; i++) {
                int h = headers.first(names[i]);
                present[i] = h >= 0;
                if (h < 0) {
                    continue;
                }
                any = true;
                byte[] v = headers.value(h);
                int vl = v == null ? 0 : v.length;
                // KeyValue { 1: key, 2: AnyValue { 1: string_value } }
                int anyValue = 1 + varintSize(vl) + vl;
                int kv = 1 + varintSize(keys[i].length) + keys[i].length + 1 + varintSize(anyValue) + anyValue;
                attributes.tag(1).varint(kv);
                attributes.tag(1).varint(keys[i].length).bytes(keys[i], 0, keys[i].length);
                attributes.tag(2).varint(anyValue);
                attributes.tag(1).varint(vl);
                if (vl > 0) {
                    attributes.bytes(v, 0, vl);
                }
            }
            if (!any) {
                return request;
            }
            out.size = 0;
            ProtoReader r = reader.reset(request, 0, request.length);
            int from = r.position();
            while (r.next()) {
                if (r.is(1, ProtoReader.LEN)) {
                    r.readBytes();
                    resourceX(r.child());
                    out.tag(1).varint(resourceX.size).bytes(resourceX.data, 0, resourceX.size);
                } else {
                    r.skip();
                    out.bytes(request, from, r.position() - from);
                }
                from = r.position();
            }
            return out.toArray();
        }

        /** One {@code Resource*} message, into {@link #resourceX}: the last resource gets the attributes. */
        private void resourceX(ProtoReader r) throws InvalidProtobufException {
            byte[] b = r.buffer();
            resourceX.size = 0;
            int last = -1;
            int from = r.position();
            while (r.next()) {
                if (r.is(1, ProtoReader.LEN)) {
                    last = r.position();
                }
                r.skip();
            }
            r.reset(b, from, r.position() - from);
            boolean done = false;
            while (r.next()) {
                int start = r.position();
                if (r.is(1, ProtoReader.LEN)) {
                    r.readBytes();
                    boolean isLast = start == last;
                    resource(r.child(), isLast);
                    done |= isLast;
                    resourceX.tag(1).varint(resource.size).bytes(resource.data, 0, resource.size);
                } else {
                    r.skip();
                    resourceX.bytes(b, from, r.position() - from);
                }
                from = r.position();
            }
            if (!done) {
                resourceX.tag(1).varint(attributes.size).bytes(attributes.data, 0, attributes.size);
            }
        }

        /** One {@code Resource}, into {@link #resource}: without the attributes the headers replace. */
        private void resource(ProtoReader r, boolean add) throws InvalidProtobufException {
            byte[] b = r.buffer();
            resource.size = 0;
            int from = r.position();
            while (r.next()) {
                boolean drop = false;
                if (r.is(1, ProtoReader.LEN)) {
                    r.readBytes();
                    drop = replaced(r.child());
                } else {
                    r.skip();
                }
                if (!drop) {
                    resource.bytes(b, from, r.position() - from);
                }
                from = r.position();
            }
            if (add) {
                resource.bytes(attributes.data, 0, attributes.size);
            }
        }

        /** Whether the KeyValue has the key of a header the record has. */
        private boolean replaced(ProtoReader kv) throws InvalidProtobufException {
            byte[] b = kv.buffer();
            int keyStart = -1;
            int keyLength = 0;
            while (kv.next()) {
                if (kv.is(1, ProtoReader.LEN)) {
                    kv.readBytes();
                    keyStart = kv.start(); // the last occurrence wins, as protobuf reads a string field
                    keyLength = kv.length();
                } else {
                    kv.skip();
                }
            }
            for (int i = 0; i < keys.length; i++) {
                if (present[i] && keyStart >= 0 && Arrays.equals(keys[i], 0, keys[i].length, b, keyStart, keyStart + keyLength)) {
                    return true;
                }
            }
            return false;
        }

        private static int varintSize(int v) {
            int n = 1;
            while ((v & ~0x7F) != 0) {
                v >>>= 7;
                n++;
            }
            return n;
        }
    }
}
