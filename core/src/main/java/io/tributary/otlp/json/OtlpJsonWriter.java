package io.tributary.otlp.json;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.tributary.otlp.GoFloat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes any OTLP protobuf message (ExportTraceServiceRequest, ExportLogsServiceRequest,
 * ExportMetricsServiceRequest, their parts) as OTLP/JSON, byte for byte as the OpenTelemetry
 * Collector's {@code otlp_json} marshaler ({@code pdata} {@code JSONMarshaler}) writes it. The
 * rules, from the OTLP spec (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding),
 * the protobuf JSON mapping (https://protobuf.dev/programming-guides/json/) and the Collector's
 * generated {@code MarshalJSON} methods:
 *
 * <ul>
 *   <li>keys are the fields' lowerCamelCase JSON names, in declaration order (but
 *       {@code traceId} before {@code spanId} in Exemplar too), no whitespace;
 *   <li>fields without presence are left out at their default (0, "", false, empty bytes, empty
 *       list); oneof members and {@code optional} fields are written whenever set, even to a
 *       default ({@code {"intValue":"0"}}); singular message fields outside a oneof
 *       ({@code resource}, {@code scope}, {@code status}, {@code value}, {@code body},
 *       {@code positive}, {@code negative}) are always written, as {@code {}} when unset, because
 *       the Collector holds them by value;
 *   <li>{@code trace_id}, {@code span_id}, {@code parent_span_id} (and {@code profile_id}) are
 *       lowercase hex; other bytes are standard base64 with padding;
 *   <li>enums are integers; int64, uint64 (unsigned), fixed64 and sfixed64 are decimal strings;
 *       32-bit integers are numbers (uint32/fixed32 unsigned);
 *   <li>doubles are numbers in Go's shortest form ({@link GoFloat#writeEs6}), NaN and the infinities
 *       the strings {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"};
 *   <li>strings escape {@code "}, {@code \}, {@code \n}, {@code \r}, {@code \t} and other control
 *       characters as <code>&#92;u00xx</code> (lowercase hex); everything else is raw UTF-8 (no HTML escaping).
 * </ul>
 *
 * <p>OTLP has no map, float or group fields; a message with one is refused.
 */
public final class OtlpJsonWriter {

    private static final byte[] HEX_DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final ConcurrentHashMap<Descriptor, Field[]> PLANS = new ConcurrentHashMap<>();

    private OtlpJsonWriter() {}

    /** {@code m} as OTLP/JSON, UTF-8. */
    public static byte[] write(Message m) {
        Out out = new Out(4096);
        message(out, m);
        return out.toByteArray();
    }

    /** One field, with what writing it needs worked out once per message type. */
    private static final class Field {
        final FieldDescriptor fd;
        final byte[] key; // "jsonName":
        final OtlpJsonKind kind;
        final boolean repeated;
        final boolean presence; // oneof member or proto3 optional: written when set
        final boolean always; // singular message outside a oneof: always written

        Field(FieldDescriptor fd) {
            this.fd = fd;
            this.key = ('"' + fd.getJsonName() + "\":").getBytes(StandardCharsets.UTF_8);
            this.kind = kind(fd);
            this.repeated = fd.isRepeated();
            boolean inOneof = fd.getContainingOneof() != null;
            this.always = !repeated && kind == OtlpJsonKind.MESSAGE && !inOneof;
            this.presence = !repeated && !always && fd.hasPresence();
        }

        /** The shared classification, but OTLP/JSON as the Collector writes it has no floats. */
        private static OtlpJsonKind kind(FieldDescriptor fd) {
            OtlpJsonKind kind = OtlpJsonKind.of(fd);
            if (kind == OtlpJsonKind.FLOAT) {
                throw new IllegalArgumentException(fd.getFullName() + ": " + fd.getType() + " fields are not OTLP");
            }
            return kind;
        }
    }

    private static Field[] plan(Descriptor d) {
        Field[] p = PLANS.get(d);
        if (p == null) {
            p = d.getFields().stream().map(Field::new).toArray(Field[]::new);
            collectorOrder(p);
            PLANS.putIfAbsent(d, p);
        }
        return p;
    }

    /**
     * Fields go in declaration order, except that the Collector writes {@code trace_id} before
     * {@code span_id} everywhere, while Exemplar declares them the other way round.
     */
    private static void collectorOrder(Field[] p) {
        int trace = -1;
        int span = -1;
        for (int i = 0; i < p.length; i++) {
            trace = p[i].fd.getName().equals("trace_id") ? i : trace;
            span = p[i].fd.getName().equals("span_id") ? i : span;
        }
        if (trace >= 0 && span >= 0 && span < trace) {
            Field f = p[span];
            p[span] = p[trace];
            p[trace] = f;
        }
    }

    private static void message(Out out, Message m) {
        out.raw('{');
        boolean first = true;
        for (Field f : plan(m.getDescriptorForType())) {
            if (f.repeated) {
                int n = m.getRepeatedFieldCount(f.fd);
                if (n == 0) {
                    continue;
                }
                first = key(out, f, first);
                out.raw('[');
                for (int i = 0; i < n; i++) {
                    if (i > 0) {
                        out.raw(',');
                    }
                    value(out, f.kind, m.getRepeatedField(f.fd, i));
                }
                out.raw(']');
            } else if (f.always || (f.presence ? m.hasField(f.fd) : !isDefault(f.kind, m.getField(f.fd)))) {
                first = key(out, f, first);
                value(out, f.kind, m.getField(f.fd));
            }
        }
        out.raw('}');
    }

    private static boolean key(Out out, Field f, boolean first) {
        if (!first) {
            out.raw(',');
        }
        out.raw(f.key);
        return false;
    }

    private static boolean isDefault(OtlpJsonKind kind, Object v) {
        switch (kind) {
            case INT32:
            case UINT32:
                return (Integer) v == 0;
            case INT64:
            case UINT64:
                return (Long) v == 0L;
            case DOUBLE:
                return (Double) v == 0.0; // -0 too, as Go's != 0 test
            case BOOL:
                return !(Boolean) v;
            case STRING:
                return ((String) v).isEmpty();
            case BYTES:
            case HEX_ID:
                return ((ByteString) v).isEmpty();
            case ENUM:
                return ((EnumValueDescriptor) v).getNumber() == 0;
            default:
                return false;
        }
    }

    private static void value(Out out, OtlpJsonKind kind, Object v) {
        switch (kind) {
            case INT32:
                out.ascii(Integer.toString((Integer) v));
                break;
            case UINT32:
                out.ascii(Integer.toUnsignedString((Integer) v));
                break;
            case INT64:
                out.raw('"').ascii(Long.toString((Long) v)).raw('"');
                break;
            case UINT64:
                out.raw('"').ascii(Long.toUnsignedString((Long) v)).raw('"');
                break;
            case DOUBLE:
                dbl(out, (Double) v);
                break;
            case BOOL:
                out.ascii((Boolean) v ? "true" : "false");
                break;
            case STRING:
                out.string((String) v);
                break;
            case BYTES:
                out.raw('"').ascii(Base64.getEncoder().encodeToString(((ByteString) v).toByteArray())).raw('"');
                break;
            case HEX_ID:
                out.hex((ByteString) v);
                break;
            case ENUM:
                out.ascii(Integer.toString(((EnumValueDescriptor) v).getNumber()));
                break;
            default:
                message(out, (Message) v);
                break;
        }
    }

    private static void dbl(Out out, double d) {
        if (Double.isNaN(d)) {
            out.ascii("\"NaN\"");
        } else if (Double.isInfinite(d)) {
            out.ascii(d > 0 ? "\"Infinity\"" : "\"-Infinity\"");
        } else {
            out.float64(d);
        }
    }

    /** A growable UTF-8 buffer. */
    private static final class Out {
        private byte[] buf;
        private int len;

        Out(int capacity) {
            buf = new byte[capacity];
        }

        private void ensure(int extra) {
            if (len + extra > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra));
            }
        }

        Out raw(char c) {
            ensure(1);
            buf[len++] = (byte) c;
            return this;
        }

        Out raw(byte[] b) {
            ensure(b.length);
            System.arraycopy(b, 0, buf, len, b.length);
            len += b.length;
            return this;
        }

        Out ascii(String s) {
            int n = s.length();
            ensure(n);
            for (int i = 0; i < n; i++) {
                buf[len++] = (byte) s.charAt(i);
            }
            return this;
        }

        /** A finite double as a JSON number, as jsoniter's {@code WriteFloat64} writes it ({@link GoFloat}). */
        void float64(double d) {
            ensure(GoFloat.MAX_LENGTH);
            len = GoFloat.writeEs6(d, buf, len);
        }

        void hex(ByteString id) {
            int n = id.size();
            ensure(2 * n + 2);
            buf[len++] = '"';
            for (int i = 0; i < n; i++) {
                int b = id.byteAt(i) & 0xff;
                buf[len++] = HEX_DIGITS[b >>> 4];
                buf[len++] = HEX_DIGITS[b & 0xf];
            }
            buf[len++] = '"';
        }

        /** A JSON string the way json-iterator's {@code WriteString} escapes it. */
        void string(String s) {
            int n = s.length();
            ensure(6 * n + 2); // at most 6 bytes a char (a control character escaped)
            buf[len++] = '"';
            for (int i = 0; i < n; i++) {
                char c = s.charAt(i);
                if (c < 0x80) {
                    if (c >= 0x20 && c != '"' && c != '\\') {
                        buf[len++] = (byte) c;
                    } else {
                        buf[len++] = '\\';
                        switch (c) {
                            case '"':
                            case '\\':
                                buf[len++] = (byte) c;
                                break;
                            case '\n':
                                buf[len++] = 'n';
                                break;
                            case '\r':
                                buf[len++] = 'r';
                                break;
                            case '\t':
                                buf[len++] = 't';
                                break;
                            default:
                                buf[len++] = 'u';
                                buf[len++] = '0';
                                buf[len++] = '0';
                                buf[len++] = HEX_DIGITS[c >>> 4];
                                buf[len++] = HEX_DIGITS[c & 0xf];
                                break;
                        }
                    }
                } else if (c < 0x800) {
                    buf[len++] = (byte) (0xc0 | (c >>> 6));
                    buf[len++] = (byte) (0x80 | (c & 0x3f));
                } else if (Character.isSurrogate(c)) {
                    if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                        int cp = Character.toCodePoint(c, s.charAt(++i));
                        buf[len++] = (byte) (0xf0 | (cp >>> 18));
                        buf[len++] = (byte) (0x80 | ((cp >>> 12) & 0x3f));
                        buf[len++] = (byte) (0x80 | ((cp >>> 6) & 0x3f));
                        buf[len++] = (byte) (0x80 | (cp & 0x3f));
                    } else {
                        // protobuf encodes a lone surrogate as '?', so that is what the Collector would see
                        buf[len++] = '?';
                    }
                } else {
                    buf[len++] = (byte) (0xe0 | (c >>> 12));
                    buf[len++] = (byte) (0x80 | ((c >>> 6) & 0x3f));
                    buf[len++] = (byte) (0x80 | (c & 0x3f));
                }
            }
            buf[len++] = '"';
        }

        byte[] toByteArray() {
            return Arrays.copyOf(buf, len);
        }
    }
}
