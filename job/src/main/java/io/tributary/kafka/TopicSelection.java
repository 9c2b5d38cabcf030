package io.tributary.kafka;

import io.tributary.otlp.Signal;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * The topics each signal reads, as {@code kafka.topics.<signal>} gives them: a comma-separated list
 * whose entries are topic names or, starting with {@code ^}, regular expressions (the collector's
 * kafkareceiver reads {@code ^...} as a regex too). A regex selects every topic it finds a match
 * in ({@code ^otlp_spans} selects {@code otlp_spans} and {@code otlp_spans_eu}), existing now or
 * created later (found by the source's partition discovery). A topic named outright belongs to its
 * signal; one only a regex selects to the first signal, in signal order, whose regex matches it.
 */
public final class TopicSelection implements Serializable {
    private static final long serialVersionUID = 1L;

    private final LinkedHashMap<String, Signal> named;
    private final ArrayList<Pattern> patterns;
    private final ArrayList<Signal> patternSignals;

    private TopicSelection(LinkedHashMap<String, Signal> named, ArrayList<Pattern> patterns, ArrayList<Signal> patternSignals) {
        this.named = named;
        this.patterns = patterns;
        this.patternSignals = patternSignals;
    }

    /**
     * The selection of each signal's setting value.
     *
     * @param keys the setting of each signal, for messages
     * @throws IllegalArgumentException naming the setting: a bad regex, or a topic two signals name
     */
    public static TopicSelection parse(Map<Signal, String> values, Map<Signal, String> keys) {
        LinkedHashMap<String, Signal> named = new LinkedHashMap<>();
        ArrayList<Pattern> patterns = new ArrayList<>();
        ArrayList<Signal> patternSignals = new ArrayList<>();
        Map<Signal, String> ordered = new EnumMap<>(Signal.class);
        ordered.putAll(values);
        for (Map.Entry<Signal, String> e : ordered.entrySet()) {
            for (String entry : entries(e.getValue())) {
                if (entry.startsWith("^")) {
                    if (BACKREFERENCE.matcher(entry).find()) {
                        throw new IllegalArgumentException(keys.get(e.getKey()) + ": '" + entry + "' refers back to a"
                                + " group or names one; the entries are joined into one subscription, so use plain groups");
                    }
                    try {
                        patterns.add(Pattern.compile(entry));
                    } catch (PatternSyntaxException ex) {
                        throw new IllegalArgumentException(keys.get(e.getKey()) + ": '" + entry + "' is not a regular expression: "
                                + ex.getDescription());
                    }
                    patternSignals.add(e.getKey());
                } else {
                    Signal other = named.put(entry, e.getKey());
                    if (other != null && other != e.getKey()) {
                        throw new IllegalArgumentException(keys.get(e.getKey()) + ": '" + entry + "' is also "
                                + keys.get(other) + "; each signal needs its own topic");
                    }
                }
            }
        }
        TopicSelection selection = new TopicSelection(named, patterns, patternSignals);
        selection.subscription(); // compiles, now rather than when the source is built
        return selection;
    }

    /** A back reference ({@code \1}, {@code \k<n>}) or a named group ({@code (?<n>...)}). */
    private static final Pattern BACKREFERENCE = Pattern.compile("(?<!\\\\)\\\\([1-9]|k<)|\\(\\?<[A-Za-z]");

    /** The entries of one setting value, trimmed, empty ones dropped. */
    public static List<String> entries(String value) {
        List<String> out = new ArrayList<>();
        for (String s : value.split(",")) {
            if (!s.isBlank()) {
                out.add(s.strip());
            }
        }
        return out;
    }

    /** The signal whose records {@code topic} holds, or null when none reads it. */
    public Signal signal(String topic) {
        Signal s = named.get(topic);
        if (s != null) {
            return s;
        }
        for (int i = 0; i < patterns.size(); i++) {
            if (patterns.get(i).matcher(topic).find()) {
                return patternSignals.get(i);
            }
        }
        return null;
    }

    /** Whether this run reads {@code topic}. */
    public boolean reads(String topic) {
        return signal(topic) != null;
    }

    /** The topics named outright, in setting order. */
    public Set<String> named() {
        return java.util.Collections.unmodifiableSet(named.keySet());
    }

    /** Whether some signal selects topics by a regex. */
    public boolean hasPatterns() {
        return !patterns.isEmpty();
    }

    /** The signals that read something. */
    public Set<Signal> signals() {
        Set<Signal> out = java.util.EnumSet.noneOf(Signal.class);
        out.addAll(named.values());
        out.addAll(patternSignals);
        return out;
    }

    /**
     * One pattern for the Kafka consumer's subscription ({@code matches()} on whole topic names):
     * the named topics quoted, each regex as a search anywhere in the name.
     */
    public Pattern subscription() {
        List<String> parts = named.keySet().stream().map(Pattern::quote).collect(Collectors.toCollection(ArrayList::new));
        for (Pattern p : patterns) {
            parts.add("(?s:.*?(?:" + p.pattern() + ").*)");
        }
        return Pattern.compile(String.join("|", parts));
    }

    /** Of {@code existing} topics, those this run reads, plus every named one (which may not exist yet). */
    public Set<String> resolve(Collection<String> existing) {
        Set<String> out = new TreeSet<>(named.keySet());
        for (String t : existing) {
            if (!t.startsWith("__") && reads(t)) {
                out.add(t);
            }
        }
        return out;
    }

    @Override
    public String toString() {
        List<String> parts = new ArrayList<>(named.keySet());
        patterns.forEach(p -> parts.add(p.pattern()));
        return String.join(",", parts);
    }
}
