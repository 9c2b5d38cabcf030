package io.tributary.tables;

import com.google.protobuf.ByteString;
import io.tributary.otlp.Ids;
import io.tributary.otlp.InvalidOtlpException;
import io.tributary.rowbinary.RowBinaryWriter;

import java.nio.charset.StandardCharsets;

/**
 * Trace and span ids as the exporter stores them: lowercase hex, or the empty string when the id
 * is absent or all zero (pdata's {@code TraceIDToHexOrEmptyString}).
 */
public final class Hex {

    /** Length in bytes of an OTLP trace id. */
    public static final int TRACE_ID_BYTES = Ids.TRACE_ID_BYTES;
    /** Length in bytes of an OTLP span id. */
    public static final int SPAN_ID_BYTES = Ids.SPAN_ID_BYTES;

    private static final String ZERO_TRACE_ID = "0".repeat(2 * TRACE_ID_BYTES);
    private static final String ZERO_SPAN_ID = "0".repeat(2 * SPAN_ID_BYTES);
    private static final byte[] DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private Hex() {}

    /**
     * The hex form of an id of {@code expectedLength} bytes, or "" for an empty or all-zero id.
     *
     * @throws InvalidOtlpException if the id has any other length (pdata rejects those too)
     */
    public static String idOrEmpty(ByteString id, int expectedLength, String field) {
        int n = id.size();
        if (n == 0) {
            return "";
        }
        if (n != expectedLength) {
            throw new InvalidOtlpException(
                    field + " must be " + expectedLength + " bytes, got " + n);
        }
        boolean allZero = true;
        byte[] out = new byte[n * 2];
        for (int i = 0; i < n; i++) {
            int b = id.byteAt(i) & 0xFF;
            allZero &= b == 0;
            out[2 * i] = DIGITS[b >>> 4];
            out[2 * i + 1] = DIGITS[b & 0xF];
        }
        return allZero ? "" : new String(out, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /**
     * The hex form of an id as {@code hex.EncodeToString(id[:])} gives it for a fixed-size pdata
     * id: always {@code 2 * expectedLength} digits, zeros when the id is absent (what the
     * exporter writes for exemplar ids).
     *
     * @throws InvalidOtlpException if the id is neither empty nor {@code expectedLength} bytes
     */
    public static String idOrZeros(ByteString id, int expectedLength, String field) {
        String hex = idOrEmpty(id, expectedLength, field);
        if (!hex.isEmpty()) {
            return hex;
        }
        return expectedLength == TRACE_ID_BYTES ? ZERO_TRACE_ID : expectedLength == SPAN_ID_BYTES ? ZERO_SPAN_ID
                : "0".repeat(2 * expectedLength);
    }

    /**
     * Checks that an id is empty or {@code expectedLength} bytes, without rendering it.
     *
     * @throws InvalidOtlpException otherwise
     */
    public static void checkLength(ByteString id, int expectedLength, String field) {
        int n = id.size();
        if (n != 0 && n != expectedLength) {
            throw new InvalidOtlpException(field + " must be " + expectedLength + " bytes, got " + n);
        }
    }

    /** An id as lowercase hex, or "" when it is absent or all zero (pdata's {@code TraceIDToHexOrEmptyString}). */
    public static void write(byte[] b, int off, int len, RowBinaryWriter out) {
        boolean zero = true;
        for (int i = off; i < off + len; i++) {
            if (b[i] != 0) {
                zero = false;
                break;
            }
        }
        if (zero) {
            out.writeVarUInt(0);
            return;
        }
        out.writeVarUInt(2L * len);
        byte[] d = out.reserve(2 * len);
        int p = out.size() - 2 * len;
        for (int i = off; i < off + len; i++) {
            int x = b[i] & 0xFF;
            d[p++] = DIGITS[x >>> 4];
            d[p++] = DIGITS[x & 0xF];
        }
    }
}
