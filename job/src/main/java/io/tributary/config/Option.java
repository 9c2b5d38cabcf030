package io.tributary.config;

import java.util.List;
import java.util.function.Function;

/**
 * A typed setting: its key, default, type and description, and how its text is parsed. Mirrors
 * Flink's {@code ConfigOption}. {@link ConfigReference} renders the constants into
 * docs/configuration.md and into {@code bin/tributary run --help}, so a description is what users
 * read: it must stay true to the code that reads the setting.
 *
 * @param key the key users write ({@code --key value} or in the YAML file)
 * @param defaultValue the value when the key is absent; null when it has none
 * @param description what the setting does, for docs/configuration.md and {@code --help}; {@code
 *     `code`} spans and mentions of {@code docs/<file>.md} become Markdown code and links there
 * @param type the values it takes, and how its text becomes one
 */
public record Option<T>(String key, T defaultValue, String description, Type<T> type) {

    /**
     * What a setting's text may be.
     *
     * @param name how the reference names the type ("duration", "size", "string", ...); with
     *     {@code values}, words that precede them ("" for one of them, "comma-separated" for a list)
     * @param values the words it takes, when it takes a fixed set; each one parses
     * @param parser text to value; throws IllegalArgumentException with a reason on bad input
     */
    public record Type<T>(String name, List<String> values, Function<String, T> parser) {

        /** A type that takes any text its parser accepts. */
        public Type(String name, Function<String, T> parser) {
            this(name, List.of(), parser);
        }

        /** A type that takes one of {@code values}. */
        public static <T> Type<T> oneOf(Function<String, T> parser, String... values) {
            return new Type<>("", List.of(values), parser);
        }
    }

    /** Parses {@code text}, wrapping a failure in a message that names the key. */
    public T parse(String text) {
        try {
            return type.parser().apply(text.trim());
        } catch (RuntimeException e) {
            throw new ConfigException(key + ": invalid value '" + text + "': " + e.getMessage(), e);
        }
    }

    /** The default as {@code Options.render} writes it (the text a SQL script's {@code ${key}} gets). */
    public String defaultText() {
        return defaultValue == null ? "" : Options.render(defaultValue);
    }
}
