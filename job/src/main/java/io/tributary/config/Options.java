package io.tributary.config;

import org.apache.flink.configuration.MemorySize;
import org.apache.flink.util.TimeUtils;

import java.time.Duration;
import java.util.Locale;

/** Parsers and value types shared by the option constants. */
final class Options {

    private Options() {}

    static final Option.Type<String> STRING = new Option.Type<>("string", Options::string);
    static final Option.Type<Boolean> BOOLEAN = Option.Type.oneOf(Options::bool, "true", "false");
    static final Option.Type<Integer> POSITIVE_INT = new Option.Type<>("integer, at least 1", Options::positiveInt);
    static final Option.Type<java.time.Duration> DURATION =
            new Option.Type<>("duration (`5 s`, `500ms`, `2 min`)", Options::positiveDuration);
    static final Option.Type<Long> SIZE = new Option.Type<>("size (`64 mb`, `1 gb`)", Options::positiveBytes);
    /** The name of an environment variable holding a secret. */
    static final Option.Type<String> ENV = new Option.Type<>("environment variable name", Options::string);
    /** The path of a file. */
    static final Option.Type<String> FILE = new Option.Type<>("path", Options::string);

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
