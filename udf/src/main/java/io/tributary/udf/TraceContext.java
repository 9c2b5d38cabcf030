package io.tributary.udf;

import java.io.ByteArrayOutputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Trace context carried in text: the W3C {@code traceparent} header
 * (https://www.w3.org/TR/trace-context/#traceparent-header) and SQL comments in SQLCommenter form
 * (https://google.github.io/sqlcommenter/spec/), how SQLCommenter and pg_tracing carry a trace into
 * a database: {@code SELECT 1 /*action='index',traceparent='00-4bf9...-00f0...-01'*}{@code /}.
 * Malformed input gives null, never an exception.
 */
public final class TraceContext {

    private TraceContext() {}

    /** The four fields of a {@code traceparent}, as the header spells them (lowercase hex). */
    public record Traceparent(String version, String traceId, String spanId, String flags) {}

    /**
     * The {@code traceparent} in {@code text}: the text itself (a header value, optionally after
     * {@code traceparent:} or {@code traceparent=}), or the {@code traceparent} key of a SQL
     * comment in SQLCommenter form (the last comment that has a valid one); null when there is none
     * or it is invalid.
     */
    public static Traceparent traceparent(String text) {
        if (text == null) {
            return null;
        }
        String t = strip(text);
        if (t.regionMatches(true, 0, "traceparent", 0, 11) && t.length() > 11
                && (t.charAt(11) == ':' || t.charAt(11) == '=')) {
            t = strip(t.substring(12));
        }
        Traceparent direct = parse(t);
        if (direct != null) {
            return direct;
        }
        List<Map<String, String>> comments = sqlCommenterComments(text);
        for (int i = comments.size() - 1; i >= 0; i--) {
            Traceparent inComment = parse(comments.get(i).get("traceparent"));
            if (inComment != null) {
                return inComment;
            }
        }
        return null;
    }

    /**
     * Parses a {@code traceparent} value: {@code version-traceid-parentid-flags}, lowercase hex of
     * 2, 32, 16 and 2 digits; version {@code ff} is invalid, so are an all-zero trace or parent id;
     * version {@code 00} has exactly these four fields, a later version may have more after a
     * {@code -} (ignored, as the spec tells a version-00 parser to).
     */
    static Traceparent parse(String v) {
        if (v == null || v.length() < 55) {
            return null;
        }
        if (!hex(v, 0, 2) || v.charAt(2) != '-' || !hex(v, 3, 35) || v.charAt(35) != '-' || !hex(v, 36, 52)
                || v.charAt(52) != '-' || !hex(v, 53, 55)) {
            return null;
        }
        String version = v.substring(0, 2);
        if (version.equals("ff")) {
            return null;
        }
        if (v.length() > 55 && (version.equals("00") || v.charAt(55) != '-')) {
            return null;
        }
        String traceId = v.substring(3, 35);
        String spanId = v.substring(36, 52);
        if (zeros(traceId) || zeros(spanId)) {
            return null;
        }
        return new Traceparent(version, traceId, spanId, v.substring(53, 55));
    }

    /**
     * Every {@code key='value'} pair of the last SQL comment in {@code text} that is in
     * SQLCommenter form, keys and values URL-decoded (and {@code \'} unescaped); null when no
     * comment is. A {@code /* ... *}{@code /} comment is in that form when it is a comma-separated
     * list of {@code key='value'} with at least one pair.
     */
    public static Map<String, String> sqlCommenter(String text) {
        List<Map<String, String>> comments = sqlCommenterComments(text);
        return comments.isEmpty() ? null : comments.get(comments.size() - 1);
    }

    /** The pairs of every comment in SQLCommenter form, in the order of the text. */
    private static List<Map<String, String>> sqlCommenterComments(String text) {
        List<Map<String, String>> out = new ArrayList<>();
        if (text == null) {
            return out;
        }
        List<String> comments = new ArrayList<>();
        int i = 0;
        while (true) {
            int open = text.indexOf("/*", i);
            if (open < 0) {
                break;
            }
            int close = text.indexOf("*/", open + 2);
            if (close < 0) {
                break;
            }
            comments.add(text.substring(open + 2, close));
            i = close + 2;
        }
        for (String c : comments) {
            Map<String, String> pairs = pairs(c);
            if (pairs != null) {
                out.add(pairs);
            }
        }
        return out;
    }

    /** The pairs of one comment's content, or null when it is not a SQLCommenter list. */
    private static Map<String, String> pairs(String s) {
        Map<String, String> out = new LinkedHashMap<>();
        int i = 0;
        int n = s.length();
        while (true) {
            while (i < n && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
            int eq = s.indexOf('=', i);
            if (eq <= i) {
                return null;
            }
            String key = decode(s.substring(i, eq).strip());
            if (key == null || key.isEmpty() || eq + 1 >= n || s.charAt(eq + 1) != '\'') {
                return null;
            }
            StringBuilder value = new StringBuilder();
            int j = eq + 2;
            boolean closed = false;
            while (j < n) {
                char ch = s.charAt(j);
                if (ch == '\\' && j + 1 < n) {
                    value.append(s.charAt(j + 1));
                    j += 2;
                } else if (ch == '\'') {
                    closed = true;
                    j++;
                    break;
                } else {
                    value.append(ch);
                    j++;
                }
            }
            String v = closed ? decode(value.toString()) : null;
            if (v == null) {
                return null;
            }
            out.put(key, v);
            while (j < n && Character.isWhitespace(s.charAt(j))) {
                j++;
            }
            if (j == n) {
                return out;
            }
            if (s.charAt(j) != ',') {
                return null;
            }
            i = j + 1;
        }
    }

    /** Percent-decoding (RFC 3986: {@code +} stays {@code +}); null for a bad escape or bytes that are not UTF-8. */
    static String decode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length()) {
                    return null;
                }
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return null;
                }
                bytes.write(hi << 4 | lo);
                i += 2;
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
                    b = s.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
                    i++;
                }
                bytes.write(b, 0, b.length);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static boolean hex(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    private static boolean zeros(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) != '0') {
                return false;
            }
        }
        return true;
    }

    /** Trims optional whitespace (spaces and tabs, as HTTP's OWS, and line ends). */
    private static String strip(String s) {
        return s.strip();
    }
}
