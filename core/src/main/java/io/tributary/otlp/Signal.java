package io.tributary.otlp;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The OpenTelemetry signals Tributary moves. Each has its own topics ({@code kafka.topics.<signal>})
 * and tables; one Kafka source reads the topics of every signal and one decode operator tells a
 * record's signal by its topic.
 */
public enum Signal {
    TRACES,
    LOGS,
    METRICS,
    /**
     * OTLP profiles ({@code opentelemetry.proto.profiles.v1development}, still in development):
     * off unless {@code signals} names it.
     */
    PROFILES;

    /** The name users write ({@code signals = traces,logs,metrics}) and operator uids use. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a comma-separated list such as {@code traces,logs}. */
    public static Set<Signal> parseList(String s) {
        Set<Signal> out = EnumSet.noneOf(Signal.class);
        for (String part : s.split(",")) {
            String p = part.trim().toLowerCase(Locale.ROOT);
            if (p.isEmpty()) {
                continue;
            }
            Signal found = null;
            for (Signal sig : values()) {
                if (sig.id().equals(p)) {
                    found = sig;
                }
            }
            if (found == null) {
                throw new IllegalArgumentException("unknown signal '" + part.trim() + "' (traces, logs, metrics, profiles)");
            }
            out.add(found);
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("name at least one of traces, logs, metrics, profiles");
        }
        return out;
    }
}
