package io.tributary.otlp.json;

import io.tributary.otlp.Encoding;

/**
 * Whether bytes are one complete JSON object (RFC 8259 grammar, whitespace around it allowed),
 * without building anything: {@link Encoding#AUTO} asks it about the rare record that both frames
 * as protobuf and starts like JSON. Bytes from 0x80 up count as string characters (UTF-8 is
 * not checked: the OTLP/JSON reader takes invalid UTF-8 as the collector does). Nesting deeper
 * than {@value #MAX_DEPTH} is not taken for JSON.
 */
public final class JsonSyntax {

    static final int MAX_DEPTH = 1000;
    private static final int NO = -1;

    private JsonSyntax() {}

    /** True when {@code b} is whitespace, one JSON object, whitespace. */
    public static boolean isObject(byte[] b) {
        int p = skipWhitespace(b, 0);
        if (p >= b.length || b[p] != '{') {
            return false;
        }
        p = value(b, p, 0);
        return p != NO && skipWhitespace(b, p) == b.length;
    }

    private static int skipWhitespace(byte[] b, int p) {
        while (p < b.length && (b[p] == ' ' || b[p] == '\n' || b[p] == '\r' || b[p] == '\t')) {
            p++;
        }
        return p;
    }

    /** The position after the value at {@code p}, or {@link #NO}. */
    private static int value(byte[] b, int p, int depth) {
        if (p >= b.length || depth > MAX_DEPTH) {
            return NO;
        }
        switch (b[p]) {
            case '{':
                return container(b, p + 1, depth + 1, '}', true);
            case '[':
                return container(b, p + 1, depth + 1, ']', false);
            case '"':
                return string(b, p + 1);
            case 't':
                return literal(b, p, "true");
            case 'f':
                return literal(b, p, "false");
            case 'n':
                return literal(b, p, "null");
            default:
                return number(b, p);
        }
    }

    /** The members of an object or the elements of an array, after its opening bracket. */
    private static int container(byte[] b, int p, int depth, char close, boolean object) {
        p = skipWhitespace(b, p);
        if (p < b.length && b[p] == close) {
            return p + 1;
        }
        while (true) {
            if (object) {
                if (p >= b.length || b[p] != '"') {
                    return NO;
                }
                p = string(b, p + 1);
                if (p == NO) {
                    return NO;
                }
                p = skipWhitespace(b, p);
                if (p >= b.length || b[p] != ':') {
                    return NO;
                }
                p = skipWhitespace(b, p + 1);
            }
            p = value(b, p, depth);
            if (p == NO) {
                return NO;
            }
            p = skipWhitespace(b, p);
            if (p >= b.length) {
                return NO;
            }
            if (b[p] == close) {
                return p + 1;
            }
            if (b[p] != ',') {
                return NO;
            }
            p = skipWhitespace(b, p + 1);
        }
    }

    /** The position after a string's closing quote, from after its opening one. */
    private static int string(byte[] b, int p) {
        while (p < b.length) {
            int c = b[p] & 0xFF;
            if (c == '"') {
                return p + 1;
            }
            if (c < 0x20) {
                return NO;
            }
            if (c == '\\') {
                if (p + 1 >= b.length) {
                    return NO;
                }
                byte e = b[p + 1];
                if (e == 'u') {
                    for (int i = 2; i < 6; i++) {
                        if (p + i >= b.length || Character.digit(b[p + i], 16) < 0) {
                            return NO;
                        }
                    }
                    p += 6;
                    continue;
                }
                if ("\"\\/bfnrt".indexOf(e) < 0) {
                    return NO;
                }
                p += 2;
                continue;
            }
            p++;
        }
        return NO;
    }

    private static int literal(byte[] b, int p, String word) {
        if (p + word.length() > b.length) {
            return NO;
        }
        for (int i = 0; i < word.length(); i++) {
            if (b[p + i] != word.charAt(i)) {
                return NO;
            }
        }
        return p + word.length();
    }

    /** {@code -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?} */
    private static int number(byte[] b, int p) {
        if (p < b.length && b[p] == '-') {
            p++;
        }
        if (p >= b.length || !digit(b[p])) {
            return NO;
        }
        if (b[p] == '0') {
            p++;
        } else {
            while (p < b.length && digit(b[p])) {
                p++;
            }
        }
        if (p < b.length && b[p] == '.') {
            p++;
            if (p >= b.length || !digit(b[p])) {
                return NO;
            }
            while (p < b.length && digit(b[p])) {
                p++;
            }
        }
        if (p < b.length && (b[p] == 'e' || b[p] == 'E')) {
            p++;
            if (p < b.length && (b[p] == '+' || b[p] == '-')) {
                p++;
            }
            if (p >= b.length || !digit(b[p])) {
                return NO;
            }
            while (p < b.length && digit(b[p])) {
                p++;
            }
        }
        return p;
    }

    private static boolean digit(byte c) {
        return c >= '0' && c <= '9';
    }
}
