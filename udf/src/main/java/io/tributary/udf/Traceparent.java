package io.tributary.udf;

import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.functions.ScalarFunction;
import org.apache.flink.types.Row;

/**
 * {@code TRACEPARENT(text STRING)}: the W3C {@code traceparent} in a header value or in a SQL comment
 * in SQLCommenter form, as {@code ROW<version STRING, trace_id STRING, span_id STRING, flags
 * STRING>} (each field as the header spells it, lowercase hex), or NULL when there is none or it
 * is malformed (https://www.w3.org/TR/trace-context/#traceparent-header).
 *
 * <pre>{@code
 * CREATE TEMPORARY SYSTEM FUNCTION TRACEPARENT AS 'io.tributary.udf.Traceparent';
 * SELECT TRACEPARENT('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01').trace_id;
 *   -- 4bf92f3577b34da6a3ce929d0e0e4736
 * SELECT TRACEPARENT('SELECT * FROM t /*traceparent=''00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01''*}{@code /')
 * }</pre>
 */
public final class Traceparent extends ScalarFunction {
    private static final long serialVersionUID = 1L;

    public @DataTypeHint("ROW<version STRING, trace_id STRING, span_id STRING, flags STRING>") Row eval(String text) {
        TraceContext.Traceparent t = TraceContext.traceparent(text);
        return t == null ? null : Row.of(t.version(), t.traceId(), t.spanId(), t.flags());
    }
}
