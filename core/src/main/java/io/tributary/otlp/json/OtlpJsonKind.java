package io.tributary.otlp.json;

import io.tributary.otlp.Ids;

import com.google.protobuf.Descriptors.FieldDescriptor;

/**
 * How a protobuf field's value is written in OTLP/JSON, the protobuf JSON mapping with OTLP's
 * deviations (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding), decided once per
 * field by both {@link OtlpJsonParser} and {@code loadgen.OtlpJsonWriter}.
 *
 * <p>32-bit integers are JSON numbers and 64-bit integers decimal strings, each signed or
 * unsigned; the sint, sfixed and fixed encodings share their plain type's kind. The bytes fields
 * {@code trace_id}, {@code span_id}, {@code parent_span_id} and {@code profile_id} are {@link
 * #HEX_ID}, hex strings as in pdata's TraceID, SpanID and ProfileID; other bytes are base64.
 * OTLP has no float fields: the parser reads {@link #FLOAT} anyway, the writer refuses it.
 */
public enum OtlpJsonKind {
    MESSAGE,
    ENUM,
    STRING,
    BOOL,
    INT32,
    UINT32,
    INT64,
    UINT64,
    DOUBLE,
    FLOAT,
    BYTES,
    HEX_ID;

    /**
     * The kind of {@code fd}.
     *
     * @throws IllegalArgumentException for a map field or a group, which OTLP has none of
     */
    public static OtlpJsonKind of(FieldDescriptor fd) {
        if (fd.isMapField()) {
            throw new IllegalArgumentException(
                    fd.getFullName() + " is a map field, which OTLP has none of");
        }
        switch (fd.getType()) {
            case MESSAGE:
                return MESSAGE;
            case ENUM:
                return ENUM;
            case STRING:
                return STRING;
            case BOOL:
                return BOOL;
            case INT32:
            case SINT32:
            case SFIXED32:
                return INT32;
            case UINT32:
            case FIXED32:
                return UINT32;
            case INT64:
            case SINT64:
            case SFIXED64:
                return INT64;
            case UINT64:
            case FIXED64:
                return UINT64;
            case DOUBLE:
                return DOUBLE;
            case FLOAT:
                return FLOAT;
            case BYTES:
                return idLength(fd) > 0 ? HEX_ID : BYTES;
            default:
                throw new IllegalArgumentException(
                        fd.getFullName() + " has type " + fd.getType() + ", which OTLP has none of");
        }
    }

    /** The length in bytes of a {@link #HEX_ID} field's id, else 0. */
    public static int idLength(FieldDescriptor fd) {
        if (fd.getType() != FieldDescriptor.Type.BYTES) {
            return 0;
        }
        switch (fd.getName()) {
            case "trace_id":
            case "profile_id":
                return Ids.TRACE_ID_BYTES;
            case "span_id":
            case "parent_span_id":
                return Ids.SPAN_ID_BYTES;
            default:
                return 0;
        }
    }
}
