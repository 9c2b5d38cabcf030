package io.tributary.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The record of a bench run: one JSON object per line, appended to the file of {@code --results}
 * (none when it is not given), with the date, the commit and the machine. {@code bench charts}
 * draws docs/benchmarks' charts from these files.
 */
final class Results {

    private Results() {}

    static Map<String, Object> fields(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    static void append(Args args, String kind, Map<String, Object> figures) {
        if (!args.has("results")) {
            return;
        }
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("kind", kind);
        line.put("date", Instant.now().toString());
        line.put("commit", System.getProperty("tributary.commit", "unknown"));
        line.put("machine", machine());
        line.put("label", args.get("label", ""));
        line.putAll(figures);
        Path file = Path.of(args.get("results", ""));
        try {
            if (file.getParent() != null) {
                Files.createDirectories(file.getParent());
            }
            Files.writeString(file, json(line) + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("writing " + file, e);
        }
    }

    static String machine() {
        return Runtime.getRuntime().availableProcessors() + " cores, "
                + (((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                        .getTotalMemorySize() >> 30) + " GiB, " + cpuModel() + ", Java " + System.getProperty("java.version");
    }

    private static String cpuModel() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (l.startsWith("model name")) {
                    return l.substring(l.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException e) {
            // not Linux
        }
        return System.getProperty("os.arch");
    }

    static String json(Map<String, Object> m) {
        StringBuilder sb = new StringBuilder("{");
        for (Map.Entry<String, Object> e : m.entrySet()) {
            if (sb.length() > 1) {
                sb.append(", ");
            }
            sb.append(quote(e.getKey())).append(": ");
            Object v = e.getValue();
            if (v instanceof Double || v instanceof Float) {
                sb.append(String.format(Locale.ROOT, "%.4f", ((Number) v).doubleValue()));
            } else if (v instanceof Number || v instanceof Boolean) {
                sb.append(v);
            } else {
                sb.append(quote(String.valueOf(v)));
            }
        }
        return sb.append('}').toString();
    }

    private static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20) {
                sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }
}
