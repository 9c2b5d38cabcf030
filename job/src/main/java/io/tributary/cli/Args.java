package io.tributary.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** {@code --key value} parsing for the helper commands (loadgen, schema). */
public final class Args {

    private Args() {}

    /** Parses {@code args}; every key must be one of {@code allowed}, else the error names it. */
    public static Map<String, String> parse(String[] args, String... allowed) {
        Set<String> ok = Set.of(allowed);
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument '" + a + "'");
            }
            String key = a.substring(2);
            String value;
            int eq = key.indexOf('=');
            if (eq >= 0) {
                value = key.substring(eq + 1);
                key = key.substring(0, eq);
            } else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                value = args[++i];
            } else {
                value = "true";
            }
            if (!ok.contains(key)) {
                throw new IllegalArgumentException("--" + key + ": unknown option (known: " + String.join(", ", allowed) + ")");
            }
            out.put(key, value);
        }
        return out;
    }
}
