package io.tributary.otlp;

import java.util.Locale;

/** How Kafka record values are encoded ({@code kafka.encoding}). */
public enum Encoding {
    /** Per record: JSON when the first non-blank byte is '{', protobuf otherwise. */
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

    /** The encoding of one record's value under this setting. */
    public Encoding of(byte[] value) {
        if (this != AUTO) {
            return this;
        }
        for (byte b : value) {
            if (b == ' ' || b == '\n' || b == '\r' || b == '\t') {
                continue;
            }
            return b == '{' ? OTLP_JSON : OTLP_PROTO;
        }
        return OTLP_PROTO;
    }
}
