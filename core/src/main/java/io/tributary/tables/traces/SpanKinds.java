package io.tributary.tables.traces;

/**
 * The strings the exporter stores for OTLP enums: pdata's {@code SpanKind.String()} and
 * {@code StatusCode.String()}. Values outside the enum render as the empty string, as pdata does.
 */
public final class SpanKinds {

    private static final String[] KINDS = {
        "Unspecified", "Internal", "Server", "Client", "Producer", "Consumer"
    };
    private static final String[] STATUS = {"Unset", "Ok", "Error"};

    private SpanKinds() {}

    /** {@code SPAN_KIND_*} number to its exporter string. */
    public static String name(int kind) {
        return kind >= 0 && kind < KINDS.length ? KINDS[kind] : "";
    }

    /** {@code STATUS_CODE_*} number to its exporter string. */
    public static String statusCode(int code) {
        return code >= 0 && code < STATUS.length ? STATUS[code] : "";
    }
}
