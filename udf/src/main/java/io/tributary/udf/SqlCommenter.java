package io.tributary.udf;

import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.functions.ScalarFunction;

import java.util.Map;

/**
 * {@code SQLCOMMENTER(text STRING)}: every {@code key='value'} pair of the SQL comment in
 * SQLCommenter form in {@code text} (the last such comment), keys and values URL-decoded as the
 * spec serializes them (https://google.github.io/sqlcommenter/spec/), as {@code MAP<STRING,
 * STRING>}; NULL when the text has no such comment or it is malformed.
 *
 * <pre>{@code
 * CREATE TEMPORARY SYSTEM FUNCTION SQLCOMMENTER AS 'io.tributary.udf.SqlCommenter';
 * SELECT SQLCOMMENTER('SELECT 1 /*action=''%2Fparam*d'',controller=''index''*}{@code /')['action'];
 *   -- /param*d
 * }</pre>
 */
public final class SqlCommenter extends ScalarFunction {
    private static final long serialVersionUID = 1L;

    public @DataTypeHint("MAP<STRING, STRING>") Map<String, String> eval(String text) {
        return TraceContext.sqlCommenter(text);
    }
}
