package io.tributary.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The reference of every setting, rendered from the {@link Option} constants ({@link
 * TributaryOptions#ALL}, their key, default, type and description) and the pass-through prefixes:
 * as Markdown tables between the markers of docs/configuration.md (the rest of that file is written
 * by hand) and as plain text for {@code bin/tributary run --help}. So the two say the same, and say
 * what the constants say.
 *
 * <p>{@code ConfigReferenceTest} fails when docs/configuration.md is stale. To rewrite it, from the
 * repository's root: {@code mvn -B -o -pl job test -Dtest=ConfigReferenceTest -Dtributary.docs.write=true},
 * or run {@link #main} with the file's path.
 */
public final class ConfigReference {

    /** The line before the generated part of docs/configuration.md. */
    public static final String BEGIN = "<!-- BEGIN generated from the Option constants by io.tributary.config.ConfigReference:"
            + " edit their descriptions, then regenerate (docs/testing.md) -->";
    /** The line after it. */
    public static final String END = "<!-- END generated -->";

    private static final Pattern DOC_LINK = Pattern.compile("docs/([a-z0-9-]+\\.md)(#[a-z0-9-]+)?");

    private ConfigReference() {}

    /** A key taken by prefix and passed on unvalidated, one row of the reference. */
    private record Passthrough(String key, String description) {}

    /** A group of settings: those whose keys {@code keys} accepts, in {@link TributaryOptions#ALL}'s order. */
    private record Section(String title, Predicate<String> keys, List<Passthrough> passthrough) {}

    private static final List<Section> SECTIONS = List.of(
            new Section("Signals and Kafka", k -> k.equals("signals") || k.startsWith("kafka."), List.of(new Passthrough(
                    TributaryOptions.KAFKA_PROPERTIES_PREFIX + "*",
                    "Kafka client properties for the job's clients of the cluster it reads (e.g."
                            + " `kafka.properties.max.poll.records`), the dead-letter producer included unless"
                            + " `dlq.kafka.bootstrap-servers` names another cluster; for the consumers, over the job's fetch defaults"
                            + " `fetch.min.bytes` 1 MiB, `fetch.max.wait.ms` 100, `max.partition.fetch.bytes` 8 MiB,"
                            + " `receive.buffer.bytes` 1 MiB (fewer, larger fetches: about 10 % less CPU per span, see"
                            + " docs/benchmarks.md#kafka-consumer-settings). Not for the same thing as a setting above (both"
                            + " given is refused); a property of type PASSWORD is refused as an argument (see"
                            + " docs/production.md#secrets)"))),
            new Section("Dead letters", k -> k.startsWith("dlq."), List.of(new Passthrough(
                    TributaryOptions.DLQ_KAFKA_PROPERTIES_PREFIX + "*",
                    "The same as `kafka.properties.*`, for the clients of the dead-letter cluster named by"
                            + " `dlq.kafka.bootstrap-servers`"))),
            new Section("Parallelism and decoding", k -> k.equals("parallelism") || k.startsWith("decode."), List.of()),
            new Section("ClickHouse", k -> k.startsWith("clickhouse."), List.of()),
            new Section("Sink", k -> k.startsWith("sink."), List.of()),
            new Section("Checkpoints and Flink", k -> k.startsWith("checkpoint."), List.of(new Passthrough(
                    TributaryOptions.FLINK_PREFIX + "*",
                    "Flink options for the job, e.g. `flink.rest.port 8082` for `run`, or"
                            + " `flink.execution.checkpointing.dir`; a key Flink hides as sensitive is refused as an argument"))));

    /** The Markdown that stands between {@link #BEGIN} and {@link #END}. */
    public static String markdown() {
        StringBuilder out = new StringBuilder();
        for (Section s : SECTIONS) {
            out.append("\n### ").append(s.title()).append("\n\n");
            out.append("| key | default | type | description |\n|---|---|---|---|\n");
            for (Option<?> o : options(s)) {
                String def = defaultText(o);
                row(out, "`" + o.key() + "`", def.isEmpty() ? "" : "`" + def + "`", typeMarkdown(o.type()), links(o.description()));
            }
            for (Passthrough p : s.passthrough()) {
                row(out, "`" + p.key() + "`", "", "", links(p.description()));
            }
        }
        return out.append('\n').toString();
    }

    /** The reference as plain text, for {@code bin/tributary run --help}. */
    public static String text() {
        StringBuilder out = new StringBuilder();
        out.append("usage: bin/tributary run [--restore latest|none|<path>] [--config FILE] [--key value ...]\n\n")
                .append(wrap("Runs the job in an embedded Flink (dashboard on http://localhost:8081). Settings are"
                        + " --key value (or --key=value) arguments and/or a YAML file given with --config FILE (nested"
                        + " maps are flattened with dots; arguments win), all validated at start: an unknown key or a bad"
                        + " value fails naming the key. Durations are written like 5 s, 500ms, 2 min; sizes like 64 mb,"
                        + " 1 gb. The same reference, with the rules around it: docs/configuration.md.", ""));
        for (Section s : SECTIONS) {
            out.append('\n').append(s.title()).append('\n');
            for (Option<?> o : options(s)) {
                String def = defaultText(o);
                out.append("  ").append(o.key()).append("  (").append(plain(typeText(o.type())))
                        .append(def.isEmpty() ? "" : "; default " + def).append(")\n");
                out.append(wrap(plain(o.description()), "      "));
            }
            for (Passthrough p : s.passthrough()) {
                out.append("  ").append(p.key()).append('\n').append(wrap(plain(p.description()), "      "));
            }
        }
        return out.toString();
    }

    /** {@code file}'s text with its generated part rendered anew. */
    public static String updated(String file) {
        int begin = file.indexOf(BEGIN);
        int end = file.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException("docs/configuration.md lacks the lines " + BEGIN + " and " + END);
        }
        return file.substring(0, begin + BEGIN.length()) + "\n" + markdown() + file.substring(end);
    }

    /** Rewrites the generated part of the file at {@code args[0]} (default: docs/configuration.md). */
    public static void main(String[] args) throws IOException {
        Path file = Path.of(args.length > 0 ? args[0] : "docs/configuration.md");
        String text = Files.readString(file, StandardCharsets.UTF_8);
        Files.writeString(file, updated(text), StandardCharsets.UTF_8);
    }

    /** The options of a section, in {@link TributaryOptions#ALL}'s order. */
    private static List<Option<?>> options(Section s) {
        List<Option<?>> out = new ArrayList<>();
        for (Option<?> o : TributaryOptions.ALL) {
            if (s.keys().test(o.key())) {
                out.add(o);
            }
        }
        return out;
    }

    /** How many sections take {@code key}, for the test that each option is listed once. */
    static long sectionsOf(String key) {
        return SECTIONS.stream().filter(s -> s.keys().test(key)).count();
    }

    /**
     * The default as users write it: for a type with a fixed set of words, the word that parses to
     * it ({@code at-least-once}, where {@link Option#defaultText()} gives the enum's name).
     */
    static String defaultText(Option<?> o) {
        if (o.defaultValue() == null) {
            return "";
        }
        for (String v : o.type().values()) {
            if (o.defaultValue().equals(o.type().parser().apply(v))) {
                return v;
            }
        }
        return o.defaultText();
    }

    private static String typeMarkdown(Option.Type<?> t) {
        if (t.values().isEmpty()) {
            return t.name();
        }
        String words = String.join(t.name().isEmpty() ? " | " : ", ", t.values().stream().map(v -> "`" + v + "`").toList());
        return t.name().isEmpty() ? words : t.name() + " " + words;
    }

    private static String typeText(Option.Type<?> t) {
        if (t.values().isEmpty()) {
            return t.name();
        }
        String words = String.join(t.name().isEmpty() ? " | " : ", ", t.values());
        return t.name().isEmpty() ? words : t.name() + " " + words;
    }

    /** Mentions of docs/F.md(#anchor) as links relative to docs/; one to this file's own part as an anchor. */
    private static String links(String description) {
        Matcher m = DOC_LINK.matcher(description);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String file = m.group(1);
            String anchor = m.group(2) == null ? "" : m.group(2);
            String link = file.equals("configuration.md") && !anchor.isEmpty()
                    ? "[" + heading(anchor) + "](" + anchor + ")"
                    : "[" + file + "](" + file + anchor + ")";
            m.appendReplacement(out, Matcher.quoteReplacement(link));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static String heading(String anchor) {
        String words = anchor.substring(1).replace('-', ' ');
        return words.substring(0, 1).toUpperCase(Locale.ROOT) + words.substring(1);
    }

    /** A table row; a '|' in a cell would end it. */
    private static void row(StringBuilder out, String... cells) {
        out.append('|');
        for (String c : cells) {
            out.append(' ').append(c.replace("|", "\\|")).append(" |");
        }
        out.append('\n');
    }

    private static String plain(String s) {
        return s.replace("`", "");
    }

    /** {@code s} in lines of at most 100 characters (a longer word stands alone), each after {@code indent}. */
    private static String wrap(String s, String indent) {
        StringBuilder out = new StringBuilder();
        StringBuilder line = new StringBuilder(indent);
        for (String word : s.split(" +")) {
            if (line.length() > indent.length() && line.length() + 1 + word.length() > 100) {
                out.append(line).append('\n');
                line = new StringBuilder(indent);
            }
            if (line.length() > indent.length()) {
                line.append(' ');
            }
            line.append(word);
        }
        return out.append(line).append('\n').toString();
    }
}
