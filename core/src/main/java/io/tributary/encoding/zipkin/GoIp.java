package io.tributary.encoding.zipkin;

import java.util.Locale;

/** IP addresses as Go's {@code net} package parses and prints them (zipkin-go keeps {@code net.IP}). */
final class GoIp {

    private GoIp() {}

    /**
     * Go's {@code net.IP.String()} of raw bytes: 4 bytes dotted; 16 bytes dotted when IPv4-mapped,
     * else RFC 5952 (the longest run of two or more zero groups as {@code ::}, the first of equal
     * runs; lower-case hex without leading zeros); any other length {@code ?} and the hex.
     */
    static String format(byte[] ip) {
        if (ip.length == 4) {
            return (ip[0] & 0xFF) + "." + (ip[1] & 0xFF) + "." + (ip[2] & 0xFF) + "." + (ip[3] & 0xFF);
        }
        if (ip.length != 16) {
            StringBuilder b = new StringBuilder("?");
            for (byte x : ip) {
                b.append(String.format(Locale.ROOT, "%02x", x & 0xFF));
            }
            return b.toString();
        }
        boolean mapped = true;
        for (int i = 0; i < 10; i++) {
            mapped &= ip[i] == 0;
        }
        if (mapped && ip[10] == (byte) 0xFF && ip[11] == (byte) 0xFF) {
            return (ip[12] & 0xFF) + "." + (ip[13] & 0xFF) + "." + (ip[14] & 0xFF) + "." + (ip[15] & 0xFF);
        }
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) {
            g[i] = (ip[2 * i] & 0xFF) << 8 | (ip[2 * i + 1] & 0xFF);
        }
        int bestStart = -1;
        int bestLen = 0;
        for (int i = 0; i < 8; ) {
            if (g[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLen && j - i >= 2) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                b.append("::");
                i += bestLen - 1;
                continue;
            }
            if (b.length() > 0 && b.charAt(b.length() - 1) != ':') {
                b.append(':');
            }
            b.append(Integer.toHexString(g[i]));
        }
        return b.toString();
    }

    /**
     * Go's {@code net.ParseIP}: dotted IPv4 (four decimal parts 0–255, no leading zero) or IPv6
     * text (with {@code ::} and a dotted tail), as 4 or 16 bytes; null when it is neither.
     */
    static byte[] parse(String s) {
        if (s.indexOf(':') < 0) {
            return parseV4(s);
        }
        return parseV6(s);
    }

    private static byte[] parseV4(String s) {
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] out = new byte[4];
        for (int i = 0; i < 4; i++) {
            String p = parts[i];
            if (p.isEmpty() || p.length() > 3 || (p.length() > 1 && p.charAt(0) == '0')) {
                return null;
            }
            int v = 0;
            for (int k = 0; k < p.length(); k++) {
                char c = p.charAt(k);
                if (c < '0' || c > '9') {
                    return null;
                }
                v = v * 10 + (c - '0');
            }
            if (v > 255) {
                return null;
            }
            out[i] = (byte) v;
        }
        return out;
    }

    /** An ASCII hex digit's value, else -1 (Go's parser knows no other digits). */
    private static int hex(char c) {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }

    private static byte[] parseV6(String s) {
        byte[] out = new byte[16];
        int ellipsis = -1;
        int n = 0; // bytes written
        int i = 0;
        if (s.startsWith("::")) {
            ellipsis = 0;
            i = 2;
            if (i == s.length()) {
                return out;
            }
        }
        while (n < 16) {
            int j = i;
            int v = 0;
            while (j < s.length() && hex(s.charAt(j)) >= 0 && j - i < 4) {
                v = v << 4 | hex(s.charAt(j));
                j++;
            }
            if (j == i) {
                return null;
            }
            if (j < s.length() && s.charAt(j) == '.') {
                // an IPv4 tail, in the last four bytes
                if (ellipsis < 0 && n != 12 || n + 4 > 16) {
                    return null;
                }
                byte[] v4 = parseV4(s.substring(i));
                if (v4 == null) {
                    return null;
                }
                System.arraycopy(v4, 0, out, n, 4);
                n += 4;
                i = s.length();
                break;
            }
            if (j < s.length() && hex(s.charAt(j)) >= 0) {
                return null; // more than four hex digits
            }
            out[n++] = (byte) (v >> 8);
            out[n++] = (byte) v;
            i = j;
            if (i == s.length()) {
                break;
            }
            if (s.charAt(i) != ':' || i + 1 == s.length()) {
                return null;
            }
            i++;
            if (s.charAt(i) == ':') {
                if (ellipsis >= 0) {
                    return null;
                }
                ellipsis = n;
                i++;
                if (i == s.length()) {
                    break;
                }
            }
        }
        if (i != s.length()) {
            return null;
        }
        if (n < 16) {
            if (ellipsis < 0) {
                return null;
            }
            int tail = n - ellipsis;
            System.arraycopy(out, ellipsis, out, 16 - tail, tail);
            for (int k = ellipsis; k < 16 - tail; k++) {
                out[k] = 0;
            }
        } else if (ellipsis >= 0) {
            return null; // "::" must stand for at least one group
        }
        return out;
    }
}
