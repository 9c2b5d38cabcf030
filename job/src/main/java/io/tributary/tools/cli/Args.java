package io.tributary.tools.cli;

import io.tributary.config.TributaryConfig;

import java.util.Map;
import java.util.Set;

/** {@code --key value} parsing for the helper commands (loadgen, schema). */
public final class Args {

    private Args() {}

    /** Parses {@code args}; every key must be one of {@code allowed}, else the error names it. */
    public static Map<String, String> parse(String[] args, String... allowed) {
        Set<String> ok = Set.of(allowed);
        Map<String, String> out = TributaryConfig.keyValues(args);
        for (String key : out.keySet()) {
            if (!ok.contains(key)) {
                throw new IllegalArgumentException("--" + key + ": unknown option (known: " + String.join(", ", allowed) + ")");
            }
        }
        return out;
    }
}
