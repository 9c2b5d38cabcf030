package io.tributary.otlp.json;

import io.tributary.otlp.InvalidOtlpException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.UnsafeByteOperations;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Base64;

/**
 * Reading primitives for OTLP/JSON, the protobuf JSON mapping with OTLP's deviations
 * (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding): trace and span ids are hex
 * strings, not base64; enums may be integers or names; 64-bit integers may be strings or numbers.
 *
 * <p>Each reader takes the parser positioned on a non-null value token and throws {@link
 * InvalidOtlpException} with a message that describes the problem but not the field; {@link
 * OtlpJsonParser} prefixes the field's path.
 */
final class OtlpJson {

    /**
     * Strings may be as long as the record; nesting stays bounded, so a deeply nested {@code
     * kvlistValue} fails with Jackson's {@code StreamConstraintsException} long before the
     * recursive descent in {@link OtlpJsonParser} could overflow the stack.
     */
    static final JsonFactory FACTORY =
            JsonFactory.builder()
                    .streamReadConstraints(
                            StreamReadConstraints.builder()
                                    .maxStringLength(Integer.MAX_VALUE)
                                    .maxNestingDepth(1000)
                                    .build())
                    .build();

    /** More decimal digits than any 64-bit integer has; checked before a BigDecimal is expanded. */
    private static final int MAX_INTEGER_DIGITS = 20;

    private OtlpJson() {}

    static String string(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t != JsonToken.VALUE_STRING) {
            throw new InvalidOtlpException("must be a string, got " + JsonTokens.describe(t));
        }
        return wellFormed(p.getText());
    }

    /**
     * {@code s} with each surrogate that is not half of a pair replaced by U+FFFD, as the collector
     * reads an escaped one ({@code "\\ud800"}); protobuf-java would write it as '?'.
     */
    static String wellFormed(String s) {
        int n = s.length();
        for (int i = 0; i < n; i++) {
            if (Character.isSurrogate(s.charAt(i))) {
                return replaceUnpaired(s, i);
            }
        }
        return s;
    }

    private static String replaceUnpaired(String s, int from) {
        char[] c = s.toCharArray();
        for (int i = from; i < c.length; i++) {
            if (Character.isHighSurrogate(c[i]) && i + 1 < c.length && Character.isLowSurrogate(c[i + 1])) {
                i++;
            } else if (Character.isSurrogate(c[i])) {
                c[i] = '\uFFFD';
            }
        }
        return new String(c);
    }

    /**
     * A trace, span or profile id: a hex string (either case) of exactly {@code length} bytes, or
     * "" for the empty id. Decoded from Jackson's buffer, without an intermediate String.
     */
    static ByteString hexId(JsonParser p, int length) throws IOException {
        JsonToken t = p.currentToken();
        if (t != JsonToken.VALUE_STRING) {
            throw new InvalidOtlpException("must be a hex string, got " + JsonTokens.describe(t));
        }
        int n = p.getTextLength();
        if (n == 0) {
            return ByteString.EMPTY;
        }
        if (n != length * 2) {
            throw new InvalidOtlpException("must be " + (length * 2) + " hex digits, got " + n);
        }
        char[] c = p.getTextCharacters();
        int off = p.getTextOffset();
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            int hi = hexDigit(c[off + 2 * i]);
            int lo = hexDigit(c[off + 2 * i + 1]);
            if (hi < 0 || lo < 0) {
                throw new InvalidOtlpException("is not valid hex: " + p.getText());
            }
            out[i] = (byte) ((hi << 4) | lo);
        }
        return UnsafeByteOperations.unsafeWrap(out);
    }

    /** An ASCII hex digit's value, or -1: the collector takes no other digits ({@code Character.digit} would). */
    private static int hexDigit(char c) {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }

    /**
     * A 64-bit integer given as a number or a decimal string. Unsigned values above 2^63 - 1 wrap
     * to the two's-complement long that protobuf-java uses for uint64 and fixed64; numbers written
     * with a fraction or exponent are accepted when their value is integral.
     */
    static long int64(JsonParser p, boolean unsigned) throws IOException {
        JsonToken t = p.currentToken();
        switch (t) {
            case VALUE_NUMBER_INT:
                JsonParser.NumberType type = p.getNumberType();
                if (type == JsonParser.NumberType.INT || type == JsonParser.NumberType.LONG) {
                    long v = p.getLongValue();
                    if (unsigned && v < 0) {
                        throw new InvalidOtlpException("is out of the uint64 range: " + v);
                    }
                    return v;
                }
                return exact(p.getBigIntegerValue(), unsigned);
            case VALUE_NUMBER_FLOAT:
                return exact(p.getDecimalValue(), unsigned);
            case VALUE_STRING:
                return decimalString(p, unsigned);
            default:
                throw new InvalidOtlpException("must be an integer, got " + JsonTokens.describe(t));
        }
    }

    /**
     * The common case, a plain decimal of up to 19 digits (every nanosecond timestamp), is read
     * from Jackson's buffer; anything else goes through BigDecimal.
     */
    private static long decimalString(JsonParser p, boolean unsigned) throws IOException {
        char[] c = p.getTextCharacters();
        int off = p.getTextOffset();
        int n = p.getTextLength();
        boolean negative = n > 0 && c[off] == '-';
        int start = negative ? 1 : 0;
        int digits = n - start;
        if (digits > 0 && digits <= 19) {
            long v = 0;
            int i = start;
            for (; i < n; i++) {
                int d = c[off + i] - '0';
                if (d < 0 || d > 9) {
                    break;
                }
                // below 10^19 < 2^64, so the unsigned value is exact
                v = v * 10 + d;
            }
            if (i == n) {
                if (negative) {
                    if (unsigned && v != 0 || Long.compareUnsigned(v, Long.MIN_VALUE) > 0) {
                        throw outOfRange(p.getText(), unsigned);
                    }
                    return -v;
                }
                if (!unsigned && v < 0) {
                    throw outOfRange(p.getText(), false);
                }
                return v;
            }
        }
        String s = p.getText().trim();
        if (s.isEmpty()) {
            throw new InvalidOtlpException("is an empty string, not an integer");
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) > 0x7F) {
                // BigDecimal reads the digits of every script; the collector reads ASCII ones only
                throw new InvalidOtlpException("is not an integer: " + s);
            }
        }
        try {
            return exact(new BigDecimal(s), unsigned);
        } catch (NumberFormatException e) {
            throw new InvalidOtlpException("is not an integer: " + s, e);
        }
    }

    private static long exact(BigDecimal d, boolean unsigned) {
        if (d.signum() == 0) {
            return 0;
        }
        // precision - scale is the number of integer digits; refuse 1e999999999 before expanding it
        if ((long) d.precision() - d.scale() > MAX_INTEGER_DIGITS) {
            throw outOfRange(d.toString(), unsigned);
        }
        try {
            return exact(d.toBigIntegerExact(), unsigned);
        } catch (ArithmeticException e) {
            throw new InvalidOtlpException("is not an integer: " + d, e);
        }
    }

    private static long exact(BigInteger i, boolean unsigned) {
        if (unsigned ? i.signum() < 0 || i.bitLength() > 64 : i.bitLength() > 63) {
            throw outOfRange(i.toString(), unsigned);
        }
        return i.longValue();
    }

    private static InvalidOtlpException outOfRange(String value, boolean unsigned) {
        return new InvalidOtlpException(
                "is out of the " + (unsigned ? "uint64" : "int64") + " range: " + value);
    }

    /** A 32-bit integer as a number or decimal string; unsigned values above 2^31 - 1 wrap. */
    static int int32(JsonParser p, boolean unsigned) throws IOException {
        long v = int64(p, false);
        if (unsigned ? v < 0 || v > 0xFFFF_FFFFL : v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new InvalidOtlpException(
                    "is out of the " + (unsigned ? "uint32" : "int32") + " range: " + v);
        }
        return (int) v;
    }

    /**
     * An enum given as its value name or its number (also as a decimal string). Unknown numbers
     * are kept, as proto3 enums are open; unknown names are an error, as in pdata and protobuf's
     * JsonFormat.
     */
    static EnumValueDescriptor enumValue(JsonParser p, EnumDescriptor type) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_STRING) {
            String s = p.getText();
            EnumValueDescriptor v = type.findValueByName(s);
            if (v != null) {
                return v;
            }
            try {
                return type.findValueByNumberCreatingIfUnknown(Integer.parseInt(s.trim()));
            } catch (NumberFormatException e) {
                throw new InvalidOtlpException("has an unknown " + type.getName() + " value: " + s);
            }
        }
        return type.findValueByNumberCreatingIfUnknown(int32(p, false));
    }

    /** A double as a number, a numeric string, or "NaN", "Infinity", "-Infinity". */
    static double float64(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        switch (t) {
            case VALUE_NUMBER_INT: {
                double d = p.getDoubleValue();
                // "-0" is an integer token whose value has lost its sign: keep it (Go keeps -0 too)
                return d == 0 && p.getTextCharacters()[p.getTextOffset()] == '-' ? -0.0 : d;
            }
            case VALUE_NUMBER_FLOAT:
                return p.getDoubleValue();
            case VALUE_STRING:
                String s = p.getText().trim();
                switch (s) {
                    case "NaN":
                        return Double.NaN;
                    case "Infinity":
                        return Double.POSITIVE_INFINITY;
                    case "-Infinity":
                        return Double.NEGATIVE_INFINITY;
                    default:
                        try {
                            return Double.parseDouble(s);
                        } catch (NumberFormatException e) {
                            throw new InvalidOtlpException("is not a number: " + s, e);
                        }
                }
            default:
                throw new InvalidOtlpException("must be a number, got " + JsonTokens.describe(t));
        }
    }

    static boolean bool(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_TRUE) {
            return true;
        }
        if (t == JsonToken.VALUE_FALSE) {
            return false;
        }
        throw new InvalidOtlpException("must be true or false, got " + JsonTokens.describe(t));
    }

    /**
     * Base64 bytes, standard or URL-safe alphabet, padding optional, as the protobuf JSON mapping
     * asks of parsers (pdata itself reads only the standard alphabet).
     */
    static ByteString base64(JsonParser p) throws IOException {
        String s = string(p);
        try {
            if (s.indexOf('-') >= 0 || s.indexOf('_') >= 0) {
                return UnsafeByteOperations.unsafeWrap(Base64.getUrlDecoder().decode(s));
            }
            return UnsafeByteOperations.unsafeWrap(Base64.getDecoder().decode(s));
        } catch (IllegalArgumentException e) {
            throw new InvalidOtlpException("is not base64", e);
        }
    }
}
