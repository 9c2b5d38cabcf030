package io.tributary.schema;

import java.time.Duration;

/** Small SQL rendering helpers shared by the table definitions. */
public final class Sql {

    private Sql() {}

    /** A backquoted identifier; backquotes and backslashes inside are escaped. */
    public static String ident(String name) {
        return '`' + name.replace("\\", "\\\\").replace("`", "\\`") + '`';
    }

    /** A column name as the DDL writes it: bare when it is a plain identifier, else backquoted. */
    public static String columnName(String name) {
        return name.matches("[A-Za-z_][A-Za-z0-9_]*") ? name : ident(name);
    }

    /** A single-quoted SQL string literal. */
    public static String string(String s) {
        return '\'' + s.replace("\\", "\\\\").replace("'", "\\'") + '\'';
    }

    /** {@code `db`.`table`}. */
    public static String qualified(String database, String table) {
        return ident(database) + "." + ident(table);
    }

    /**
     * The exporter's TTL clause: the largest whole unit (day, hour, minute, second) that divides
     * the duration, e.g. 72h gives {@code TTL toDateTime(Timestamp) + toIntervalDay(3)}; "" for no
     * TTL.
     */
    public static String ttl(Duration ttl, String timeExpression) {
        if (ttl == null || ttl.isZero() || ttl.isNegative()) {
            return "";
        }
        long s = ttl.getSeconds();
        String interval;
        if (s % 86_400 == 0) {
            interval = "toIntervalDay(" + s / 86_400 + ")";
        } else if (s % 3_600 == 0) {
            interval = "toIntervalHour(" + s / 3_600 + ")";
        } else if (s % 60 == 0) {
            interval = "toIntervalMinute(" + s / 60 + ")";
        } else {
            interval = "toIntervalSecond(" + s + ")";
        }
        return "TTL " + timeExpression + " + " + interval;
    }
}
