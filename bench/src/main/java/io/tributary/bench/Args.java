package io.tributary.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** {@code --key value} arguments of a bench command, each key one it knows. */
final class Args {

    private final String command;
    private final Map<String, String> values;

    private Args(String command, Map<String, String> values) {
        this.command = command;
        this.values = values;
    }

    static Args parse(String command, String[] args, Set<String> keys) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("bench " + command + ": expected --key value, got '" + a + "'");
            }
            String k = a.substring(2);
            if (!keys.contains(k)) {
                throw new IllegalArgumentException("bench " + command + ": unknown option --" + k + " (known: " + keys + ")");
            }
            m.put(k, args[++i]);
        }
        return new Args(command, m);
    }

    String command() {
        return command;
    }

    boolean has(String k) {
        return values.containsKey(k);
    }

    String get(String k, String otherwise) {
        return values.getOrDefault(k, otherwise);
    }

    int integer(String k, int otherwise) {
        return values.containsKey(k) ? Integer.parseInt(values.get(k)) : otherwise;
    }

    long longValue(String k, long otherwise) {
        return values.containsKey(k) ? Long.parseLong(values.get(k).replace("_", "")) : otherwise;
    }

    double decimal(String k, double otherwise) {
        return values.containsKey(k) ? Double.parseDouble(values.get(k)) : otherwise;
    }

    /** The arguments as given, for the record of a run. */
    Map<String, String> asMap() {
        return values;
    }
}
