package io.tributary.config;

import org.apache.flink.configuration.MemorySize;
import org.apache.flink.util.TimeUtils;

import java.time.Duration;
import java.util.Locale;

/** Parsers shared by the option constants. */
final class Options {

    private Options() {}

    static String string(String s) {
        if (s.isEmpty()) {
            throw new IllegalArgumentException("must not be empty");
        }
        return s;
    }

    /** Any text; empty means "off" for the options that use it. */
    static String optionalString(String s) {
        return s;
    }

    static Boolean bool(String s) {
        switch (s.toLowerCase(Locale.ROOT)) {
            case "true":
                return true;
            case "false":
                return false;
            default:
                throw new IllegalArgumentException("must be true or false");
        }
    }

    static Integer positiveInt(String s) {
        int v;
        try {
            v = Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("must be a whole number");
        }
        if (v <= 0) {
            throw new IllegalArgumentException("must be at least 1");
        }
        return v;
    }

    /** Durations as Flink writes them: "5 s", "10s", "100 ms", "2 min", "72h". */
    static Duration positiveDuration(String s) {
        Duration d = TimeUtils.parseDuration(s);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("must be positive");
        }
        return d;
    }

    /** Sizes as Flink writes them: "64 mb", "64m", "1 gb", "1048576". */
    static Long positiveBytes(String s) {
        long v = MemorySize.parse(s).getBytes();
        if (v <= 0) {
            throw new IllegalArgumentException("must be positive");
        }
        return v;
    }

    static String render(Object v) {
        if (v instanceof Duration) {
            return TimeUtils.formatWithHighestUnit((Duration) v);
        }
        if (v instanceof Long && ((Long) v) >= 1024 && ((Long) v) % 1024 == 0) {
            long bytes = (Long) v;
            String[] units = {"kb", "mb", "gb", "tb"};
            int u = -1;
            while (bytes % 1024 == 0 && u + 1 < units.length) {
                bytes /= 1024;
                u++;
            }
            return bytes + " " + units[u];
        }
        if (v instanceof java.util.Collection<?>) {
            StringBuilder sb = new StringBuilder();
            for (Object o : (java.util.Collection<?>) v) {
                sb.append(sb.length() > 0 ? "," : "").append(render(o));
            }
            return sb.toString();
        }
        if (v instanceof Enum<?>) {
            return ((Enum<?>) v).name().toLowerCase(Locale.ROOT);
        }
        return String.valueOf(v);
    }

    /** A secret comes from its environment variable or its file, never both. */
    static void either(TributaryConfig c, Option<String> env, Option<String> file) {
        if (c.get(env) != null && c.get(file) != null) {
            throw new ConfigException(file.key() + ": set either " + env.key() + " or " + file.key() + ", not both");
        }
    }
}
