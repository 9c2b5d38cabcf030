package io.tributary.otlp;

import io.tributary.otlp.json.JsonSyntax;

import java.util.Locale;

/** How Kafka record values are encoded ({@code kafka.encoding}). */
public enum Encoding {
    /**
     * Per record ({@link #of}): protobuf when the bytes frame as an OTLP export request, else
     * OTLP/JSON when the first byte after JSON whitespace is '{', else protobuf.
     */
    AUTO,
    /** OTLP protobuf ({@code ExportTraceServiceRequest} / {@code TracesData}). */
    OTLP_PROTO,
    /** OTLP/JSON. */
    OTLP_JSON;

    public static Encoding parse(String s) {
        switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "auto":
                return AUTO;
            case "otlp_proto":
                return OTLP_PROTO;
            case "otlp_json":
                return OTLP_JSON;
            default:
                throw new IllegalArgumentException(
                        "must be one of auto, otlp_proto, otlp_json; got '" + s + "'");
        }
    }

    /**
     * The encoding of one record's value under this setting; for {@link #AUTO}, decided per record
     * so that a valid protobuf request is never taken for JSON.
     *
     * <p>An OTLP export request ({@code Export*ServiceRequest}, {@code *Data}) holds its {@code
     * Resource*} messages in field 1, so a protobuf record starts with {@code 0x0A}, which is also
     * JSON's line feed, followed by a varint length that may be any byte, '{' (123) included:
     * looking at the first non-blank byte alone takes such a record for JSON. So the record is
     * protobuf when its bytes frame exactly as a protobuf message whose field-1 values frame as
     * messages too ({@link #framesAsRequest}), which every request protobuf-java accepts does;
     * only otherwise is it JSON, when its first byte after JSON whitespace (RFC 8259: space, tab,
     * line feed, carriage return) is '{'. A JSON document cannot frame when it starts with '{' (a
     * start-group tag left open); after whitespace only a tiny one can, by chance (such as
     * {@code "  \r {}\n"}): a record that frames and starts like JSON is JSON when it is one
     * complete JSON object ({@link JsonSyntax}), which no protobuf request carrying binary ids
     * or lengths is.
     */
    public Encoding of(byte[] value) {
        if (this != AUTO) {
            return this;
        }
        boolean frames = framesAsRequest(value);
        boolean startsLikeJson = false;
        for (byte b : value) {
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                startsLikeJson = b == '{';
                break;
            }
        }
        if (frames) {
            return startsLikeJson && JsonSyntax.isObject(value) ? OTLP_JSON : OTLP_PROTO;
        }
        return startsLikeJson ? OTLP_JSON : OTLP_PROTO;
    }

    /** Wire types (https://protobuf.dev/programming-guides/encoding/#structure). */
    private static final int VARINT = 0;
    private static final int I64 = 1;
    private static final int LEN = 2;
    private static final int SGROUP = 3;
    private static final int EGROUP = 4;
    private static final int I32 = 5;
    /** protobuf-java's recursion limit, for groups. */
    private static final int MAX_DEPTH = 100;
    /** Returned by the scanners for bytes that do not frame. */
    private static final int NO = -1;

    /**
     * True when {@code b} frames exactly as a protobuf message — every tag valid (field number
     * from 1, wire types 0-5, groups closed by their own end-group tag, at most {@value
     * #MAX_DEPTH} deep), every value within the bytes, the last ending at the end — and the value
     * of each length-delimited field 1 frames as a message too. Tags and lengths are read as
     * protobuf-java reads them (the low 32 bits of a varint of up to ten bytes), so whatever
     * protobuf-java parses as an export request frames. Allocates nothing.
     */
    static boolean framesAsRequest(byte[] b) {
        return message(b, 0, b.length, 0, 0, true) == b.length;
    }

    /**
     * Walks the fields of a message in {@code b[pos, end)}; inside a group ({@code group} its
     * field number, else 0) it stops after the matching end-group tag. With {@code field1Messages}
     * the values of length-delimited fields numbered 1 must frame as messages. Returns where it
     * stopped, or {@link #NO} when the bytes do not frame.
     */
    private static int message(byte[] b, int pos, int end, int group, int depth, boolean field1Messages) {
        if (depth > MAX_DEPTH) {
            return NO;
        }
        while (pos < end) {
            int after = varintEnd(b, pos, end);
            if (after == NO) {
                return NO;
            }
            int tag = low32(b, pos);
            pos = after;
            int field = tag >>> 3;
            if (field == 0) {
                return NO;
            }
            switch (tag & 7) {
                case VARINT:
                    pos = varintEnd(b, pos, end);
                    break;
                case I64:
                    pos = end - pos < 8 ? NO : pos + 8;
                    break;
                case LEN: {
                    int valueEnd = lengthDelimitedEnd(b, pos, end);
                    if (valueEnd != NO && field1Messages && field == 1
                            && message(b, varintEnd(b, pos, end), valueEnd, 0, depth + 1, false) != valueEnd) {
                        return NO;
                    }
                    pos = valueEnd;
                    break;
                }
                case I32:
                    pos = end - pos < 4 ? NO : pos + 4;
                    break;
                case SGROUP:
                    pos = message(b, pos, end, field, depth + 1, false);
                    break;
                case EGROUP:
                    return field == group ? pos : NO;
                default:
                    return NO;
            }
            if (pos == NO) {
                return NO;
            }
        }
        return group == 0 ? pos : NO; // a group must end with its end-group tag
    }

    /** The end of the length-delimited value whose length varint is at {@code pos}, or {@link #NO}. */
    private static int lengthDelimitedEnd(byte[] b, int pos, int end) {
        int after = varintEnd(b, pos, end);
        if (after == NO) {
            return NO;
        }
        int len = low32(b, pos);
        return len < 0 || len > end - after ? NO : after + len;
    }

    /** The position after the varint at {@code pos}, or {@link #NO} when it is cut off or over ten bytes. */
    private static int varintEnd(byte[] b, int pos, int end) {
        for (int i = 0; i < 10; i++) {
            if (pos + i >= end) {
                return NO;
            }
            if (b[pos + i] >= 0) {
                return pos + i + 1;
            }
        }
        return NO;
    }

    /** The low 32 bits of the (well-formed) varint at {@code pos}. */
    private static int low32(byte[] b, int pos) {
        int v = 0;
        for (int shift = 0; shift < 32; shift += 7) {
            byte x = b[pos++];
            v |= (x & 0x7F) << shift;
            if (x >= 0) {
                break;
            }
        }
        return v;
    }
}
