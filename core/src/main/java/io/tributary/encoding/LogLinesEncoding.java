package io.tributary.encoding;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import io.tributary.otlp.Signal;
import io.tributary.otlp.json.JsonTokens;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Log records that are not OTLP, as the collector's kafkareceiver reads them
 * ({@code receiver/kafkareceiver/internal/unmarshaler}, contrib v0.153–v0.159): each Kafka record
 * becomes one log record in one resource and one scope, none of them with attributes.
 *
 * <ul>
 *   <li>{@code raw} ({@code raw_unmarshaler.go}): the value as a bytes body; nothing else is set,
 *       not even the observed time, so the exporter's {@code Timestamp} is 1970-01-01 and its
 *       {@code Body} the value in base64.
 *   <li>{@code text}, {@code text_<charset>} ({@code text_logs_unmarshaler.go}, charsets by {@code
 *       textutils.LookupEncoding}): the value decoded as a string body, the observed time now.
 *       {@code text} is UTF-8; {@code utf-8}, {@code utf8}, {@code ascii}, {@code us-ascii} too;
 *       {@code utf-16}, {@code utf16} are little-endian, a byte-order mark kept as U+FEFF; {@code
 *       utf-8-raw}, {@code utf8-raw}, {@code nop} keep the bytes as they are; other names are the
 *       charsets the JVM knows by their IANA names and aliases. Bytes a charset cannot decode
 *       become U+FFFD: decoding never fails.
 *   <li>{@code json} ({@code json_logs_unmarshaler.go}): the value must be one JSON object (or
 *       {@code null}: an empty map), which becomes a map body: every number a double (out of
 *       range: refused), objects maps (a repeated key: the last value), arrays slices, {@code
 *       null} an empty value. The observed time is now.
 * </ul>
 */
public final class LogLinesEncoding implements RecordEncoding {

    @Override
    public List<String> names() {
        return List.of("raw", "text", "text_*", "json");
    }

    @Override
    public Set<Signal> signals() {
        return EnumSet.of(Signal.LOGS);
    }

    @Override
    public RecordDecoder decoder(String name, Signal signal) {
        return decoder(name, LogLinesEncoding::nowNanos);
    }

    /** The decoder of {@code name}, with {@code clock} giving the observed time in nanoseconds. */
    static RecordDecoder decoder(String name, LongSupplier clock) {
        if (name.equals("raw")) {
            WireOut out = new WireOut();
            WireOut record = new WireOut();
            return (value, headers) -> {
                record.clear().tag(5).varint(WireOut.varintSize(7 << 3 | 2) + WireOut.varintSize(value.length) + value.length)
                        .field(7, value, 0, value.length);
                return request(out, record);
            };
        }
        if (name.equals("json")) {
            return new JsonLogs(clock);
        }
        if (name.equals("text") || name.startsWith("text_")) {
            Charset charset = charset(name.equals("text") ? "" : name.substring("text_".length()));
            WireOut out = new WireOut();
            WireOut record = new WireOut();
            return (value, headers) -> {
                byte[] utf8 = charset == null ? value : utf8(value, charset);
                record.clear().fixed64Field(11, clock.getAsLong());
                record.tag(5).varint(1 + WireOut.varintSize(utf8.length) + utf8.length).field(1, utf8, 0, utf8.length);
                return request(out, record);
            };
        }
        return null;
    }

    private static long nowNanos() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /**
     * The charset of a {@code text_} suffix, or null for the bytes as they are.
     *
     * @throws IllegalArgumentException when the JVM knows no such charset
     */
    static Charset charset(String suffix) {
        String n = suffix.trim().toLowerCase(Locale.ROOT);
        switch (n) {
            case "":
            case "utf-8":
            case "utf8":
            case "ascii":
            case "us-ascii":
                return StandardCharsets.UTF_8;
            case "utf-16":
            case "utf16":
                return StandardCharsets.UTF_16LE;
            case "utf-8-raw":
            case "utf8-raw":
            case "nop":
                return null;
            default:
                try {
                    // x/text decodes these with the WHATWG tables, supersets of the JVM's charsets of
                    // those names (Windows-31J's, UHC's, GB18030's, HKSCS's extensions)
                    String jvm = switch (n) {
                        case "shift_jis", "shift-jis", "sjis", "ms_kanji", "csshiftjis" -> "windows-31j";
                        case "euc-kr", "cseuckr" -> "x-windows-949";
                        case "gbk", "cp936", "ms936", "windows-936" -> "GB18030";
                        case "big5", "csbig5" -> "Big5-HKSCS";
                        default -> n;
                    };
                    return Charset.forName(jvm);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("'text_" + suffix + "': no charset '" + suffix + "' (the JVM's"
                            + " IANA names and aliases, or utf-8, utf-16, ascii, nop)");
                }
        }
    }

    /** The bytes decoded, each undecodable sequence as U+FFFD, in UTF-8. */
    private static byte[] utf8(byte[] value, Charset charset) {
        if (charset == StandardCharsets.UTF_8 && io.tributary.otlp.Utf8.isValid(value, 0, value.length)) {
            return value;
        }
        return new String(value, charset).getBytes(StandardCharsets.UTF_8);
    }

    /** {@code ExportLogsServiceRequest { resource_logs { scope_logs { log_records: record } } } }. */
    private static byte[] request(WireOut out, WireOut record) {
        int scopeLogs = 1 + WireOut.varintSize(record.size) + record.size;
        int resourceLogs = 1 + WireOut.varintSize(scopeLogs) + scopeLogs;
        out.clear().tag(1).varint(resourceLogs).tag(2).varint(scopeLogs).message(2, record);
        return out.toArray();
    }

    /** {@code json}: one JSON object as a map body. */
    private static final class JsonLogs implements RecordDecoder {
        private static final JsonFactory JSON = JsonFactory.builder()
                // Go's decoder bounds none of these; the record's size bounds them
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(1000)
                        .maxStringLength(Integer.MAX_VALUE).maxNumberLength(Integer.MAX_VALUE).maxNameLength(Integer.MAX_VALUE).build())
                .build();
        private final LongSupplier clock;
        private final WireOut out = new WireOut();
        private final WireOut record = new WireOut();

        JsonLogs(LongSupplier clock) {
            this.clock = clock;
        }

        @Override
        public byte[] decode(byte[] value, RecordHeaders headers) throws IOException {
            // invalid UTF-8 read as U+FFFD, as Go's decoder reads it
            byte[] json = io.tributary.otlp.Utf8.isValid(value, 0, value.length)
                    ? value : new String(value, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8);
            Object body;
            try (JsonParser p = JSON.createParser(json)) {
                JsonToken t = p.nextToken();
                if (t == null) {
                    throw new IOException("invalid JSON log record: no JSON value");
                }
                if (t != JsonToken.START_OBJECT && t != JsonToken.VALUE_NULL) {
                    throw new IOException("invalid JSON log record: the document is " + JsonTokens.describe(t) + ", not an object");
                }
                body = t == JsonToken.VALUE_NULL ? new LinkedHashMap<String, Object>() : read(p, t);
                if (p.nextToken() != null) {
                    throw new IOException("invalid JSON log record: more after the object");
                }
            } catch (com.fasterxml.jackson.core.JacksonException e) {
                throw new IOException("invalid JSON log record: " + e.getOriginalMessage(), e);
            }
            record.clear().fixed64Field(11, clock.getAsLong());
            int anyValue = record.open(5);
            writeValue(record, body);
            record.close(anyValue);
            return request(out, record);
        }


        /** The value at the current token: Map, List, String, Double, Boolean or null. */
        private static Object read(JsonParser p, JsonToken t) throws IOException {
            switch (t) {
                case START_OBJECT: {
                    Map<String, Object> m = new LinkedHashMap<>();
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String k = p.currentName();
                        Object v = read(p, p.nextToken());
                        m.remove(k); // a repeated key: the last one, where Go's map keeps it
                        m.put(k, v);
                    }
                    return m;
                }
                case START_ARRAY: {
                    List<Object> l = new ArrayList<>();
                    JsonToken e;
                    while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
                        l.add(read(p, e));
                    }
                    return l;
                }
                case VALUE_STRING:
                    return p.getText();
                case VALUE_NUMBER_INT:
                case VALUE_NUMBER_FLOAT: {
                    double d = p.getValueAsDouble();
                    if (d == 0 && t == JsonToken.VALUE_NUMBER_INT && p.getText().startsWith("-")) {
                        d = -0.0; // Go parses -0 as the float -0, which AsString writes as -0
                    }
                    if (Double.isInfinite(d) || Double.isNaN(d)) {
                        throw new IOException("invalid JSON log record: the number " + p.getText() + " is out of range");
                    }
                    return d;
                }
                case VALUE_TRUE:
                    return Boolean.TRUE;
                case VALUE_FALSE:
                    return Boolean.FALSE;
                case VALUE_NULL:
                    return null;
                default:
                    throw new IOException("invalid JSON log record: unexpected " + t);
            }
        }

        /** An AnyValue's fields (not its own tag) for {@code v}, nested messages written once. */
        @SuppressWarnings("unchecked")
        private static void writeValue(WireOut out, Object v) {
            if (v == null) {
                return; // an empty AnyValue
            }
            if (v instanceof String s) {
                byte[] b = utf8(s);
                out.field(1, b, 0, b.length);
            } else if (v instanceof Boolean b) {
                out.varint(2 << 3).varint(b ? 1 : 0);
            } else if (v instanceof Double d) {
                out.varint(4 << 3 | 1).fixed64(Double.doubleToRawLongBits(d));
            } else if (v instanceof List<?> l) {
                int array = out.open(5);
                for (Object e : l) {
                    int element = out.open(1);
                    writeValue(out, e);
                    out.close(element);
                }
                out.close(array);
            } else {
                int list = out.open(6);
                for (Map.Entry<String, Object> e : ((Map<String, Object>) v).entrySet()) {
                    int kv = out.open(1);
                    byte[] k = utf8(e.getKey());
                    out.field(1, k, 0, k.length);
                    int value = out.open(2);
                    writeValue(out, e.getValue());
                    out.close(value);
                    out.close(kv);
                }
                out.close(list);
            }
        }

        /** UTF-8, a lone surrogate (from a JSON escape) as U+FFFD, as Go's decoder reads one. */
        private static byte[] utf8(String s) {
            // String.getBytes would write '?' for a lone surrogate
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                } else if (Character.isSurrogate(c)) {
                    StringBuilder b = new StringBuilder(s.length());
                    for (int j = 0; j < s.length(); j++) {
                        char d = s.charAt(j);
                        if (Character.isHighSurrogate(d) && j + 1 < s.length() && Character.isLowSurrogate(s.charAt(j + 1))) {
                            b.append(d).append(s.charAt(++j));
                        } else {
                            b.append(Character.isSurrogate(d) ? '\uFFFD' : d);
                        }
                    }
                    return b.toString().getBytes(StandardCharsets.UTF_8);
                }
            }
            return s.getBytes(StandardCharsets.UTF_8);
        }
    }
}
