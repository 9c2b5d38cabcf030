package io.tributary.encoding;

import io.tributary.otlp.Signal;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The encoding of each topic of one signal, as {@code kafka.encodings.<signal>} gives it: a comma
 * list whose entries are either an encoding name (the signal's encoding, for every topic no other
 * entry names) or {@code topic:encoding} (that topic's; a topic starting with {@code ^} is a
 * regular expression, found in the topic as {@code kafka.topics.*} finds them). Kafka topic names
 * cannot hold a colon, so the last colon of an entry ends its topic. Entries are tried in order.
 */
public final class SignalEncodings implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The characters Kafka allows in a topic's name. */
    private static final Pattern LEGAL_TOPIC = Pattern.compile("[a-zA-Z0-9._-]+");

    private final Signal signal;
    private final String fallback;
    private final LinkedHashMap<String, String> named;
    private final ArrayList<Pattern> patterns;
    private final ArrayList<String> patternEncodings;

    private SignalEncodings(Signal signal, String fallback, LinkedHashMap<String, String> named, ArrayList<Pattern> patterns,
            ArrayList<String> patternEncodings) {
        this.signal = signal;
        this.fallback = fallback;
        this.named = named;
        this.patterns = patterns;
        this.patternEncodings = patternEncodings;
    }

    /**
     * @param value the setting's value; empty: {@code fallback} for every topic
     * @param fallback the encoding of topics no entry names ({@code kafka.encoding}'s)
     * @param key the setting's key, for messages
     * @throws IllegalArgumentException naming {@code key}: an encoding the signal does not take, a
     *     bad regular expression, two defaults or a topic named twice
     */
    public static SignalEncodings parse(Signal signal, String value, String fallback, String key) {
        String def = null;
        LinkedHashMap<String, String> named = new LinkedHashMap<>();
        ArrayList<Pattern> patterns = new ArrayList<>();
        ArrayList<String> encodings = new ArrayList<>();
        for (String raw : value.split(",")) {
            String entry = raw.trim();
            if (entry.isEmpty()) {
                continue;
            }
            int colon = entry.lastIndexOf(':');
            String name = (colon < 0 ? entry : entry.substring(colon + 1)).trim();
            check(signal, name, key);
            if (colon < 0) {
                if (def != null) {
                    throw new IllegalArgumentException(key + ": two encodings for every topic, '" + def + "' and '" + name
                            + "'; name the topic of each as topic:encoding");
                }
                def = name;
                continue;
            }
            String topic = entry.substring(0, colon).trim();
            if (topic.isEmpty()) {
                throw new IllegalArgumentException(key + ": '" + entry + "' names no topic before its colon");
            }
            if (topic.startsWith("^")) {
                try {
                    patterns.add(Pattern.compile(topic));
                } catch (PatternSyntaxException e) {
                    throw new IllegalArgumentException(key + ": '" + topic + "' is not a regular expression: " + e.getDescription());
                }
                encodings.add(name);
            } else if (!LEGAL_TOPIC.matcher(topic).matches()) {
                throw new IllegalArgumentException(key + ": '" + topic + "' is not a topic name (Kafka's are letters, digits,"
                        + " '.', '_' and '-'; a regular expression starts with '^')");
            } else if (named.put(topic, name) != null) {
                throw new IllegalArgumentException(key + ": topic '" + topic + "' is named twice");
            }
        }
        String f = def != null ? def : fallback;
        check(signal, f, key);
        return new SignalEncodings(signal, f, named, patterns, encodings);
    }

    private static void check(Signal signal, String name, String key) {
        try {
            Encodings.decoder(name, signal);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + ": " + e.getMessage(), e);
        }
    }

    /** The encoding name of {@code topic}'s records. */
    public String of(String topic) {
        String n = named.get(topic);
        if (n != null) {
            return n;
        }
        for (int i = 0; i < patterns.size(); i++) {
            if (patterns.get(i).matcher(topic).find()) {
                return patternEncodings.get(i);
            }
        }
        return fallback;
    }

    /** The topics the entries name outright (not by a regular expression). */
    public java.util.Set<String> namedTopics() {
        return java.util.Collections.unmodifiableSet(named.keySet());
    }

    /** Every encoding name some topic may have. */
    public List<String> names() {
        List<String> out = new ArrayList<>();
        out.add(fallback);
        for (String s : named.values()) {
            if (!out.contains(s)) {
                out.add(s);
            }
        }
        for (String s : patternEncodings) {
            if (!out.contains(s)) {
                out.add(s);
            }
        }
        return out;
    }

    public Signal signal() {
        return signal;
    }

    /** The entries, topic to encoding name, as given (for the job's start-up log). */
    public Map<String, String> entries() {
        Map<String, String> m = new LinkedHashMap<>(named);
        for (int i = 0; i < patterns.size(); i++) {
            m.put(patterns.get(i).pattern(), patternEncodings.get(i));
        }
        m.put("*", fallback);
        return m;
    }
}
