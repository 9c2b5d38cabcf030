package io.tributary.otlp;

/** The sizes of OTLP's ids (https://opentelemetry.io/docs/specs/otlp/): the only lengths a non-empty id may have. */
public final class Ids {

    /** Length in bytes of an OTLP trace id. */
    public static final int TRACE_ID_BYTES = 16;
    /** Length in bytes of an OTLP span id. */
    public static final int SPAN_ID_BYTES = 8;

    private Ids() {}
}
