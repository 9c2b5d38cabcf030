package io.tributary.config;

import java.util.function.Function;

/**
 * A typed setting: its key, default and description, and how its text is parsed. Mirrors Flink's
 * {@code ConfigOption}; the README's table of keys is generated from the same constants.
 *
 * @param key the key users write ({@code --key value} or in the YAML file)
 * @param defaultValue the value when the key is absent; null when it has none
 * @param description one line for the README and {@code --help}
 * @param parser text to value; throws IllegalArgumentException with a reason on bad input
 */
public record Option<T>(String key, T defaultValue, String description, Function<String, T> parser) {

    /** Parses {@code text}, wrapping a failure in a message that names the key. */
    public T parse(String text) {
        try {
            return parser.apply(text.trim());
        } catch (RuntimeException e) {
            throw new ConfigException(key + ": invalid value '" + text + "': " + e.getMessage(), e);
        }
    }

    /** The default as users would write it, for docs. */
    public String defaultText() {
        return defaultValue == null ? "" : Options.render(defaultValue);
    }
}
