package io.tributary.schema;

import java.util.ArrayList;
import java.util.List;

/**
 * A ClickHouse data type as the server prints it ({@code system.columns.type}), parsed into its
 * name and arguments: {@code Map(LowCardinality(String), String)} is {@code Map} with two
 * arguments, {@code DateTime64(9, 'UTC')} is {@code DateTime64} with the literals {@code 9} and
 * {@code 'UTC'}. Arguments that are not types (numbers, strings, {@code name Type} pairs of a
 * Tuple, {@code key = value} settings of JSON) are kept as literals: {@link #isLiteral}.
 * https://clickhouse.com/docs/sql-reference/data-types
 */
public final class ChType {

    private final String name;
    private final List<ChType> args;
    private final String text;
    private final boolean literal;

    private ChType(String name, List<ChType> args, String text, boolean literal) {
        this.name = name;
        this.args = args;
        this.text = text;
        this.literal = literal;
    }

    /** Parses a type; anything that does not look like one becomes a literal. */
    public static ChType parse(String text) {
        String t = text.strip();
        int open = t.indexOf('(');
        String head = open < 0 ? t : t.substring(0, open).strip();
        if (!head.matches("[A-Za-z_][A-Za-z0-9_]*") || (open >= 0 && !t.endsWith(")"))) {
            return new ChType(t, List.of(), t, true);
        }
        if (open < 0) {
            return new ChType(head, List.of(), t, false);
        }
        List<ChType> args = new ArrayList<>();
        for (String a : splitTopLevel(t.substring(open + 1, t.length() - 1))) {
            args.add(parse(a));
        }
        return new ChType(head, List.copyOf(args), t, false);
    }

    /** Splits on commas outside parentheses and quotes. */
    private static List<String> splitTopLevel(String s) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        char quote = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                if (c == '\\') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '`' || c == '"') {
                quote = c;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        if (!s.substring(start).isBlank() || !out.isEmpty()) {
            out.add(s.substring(start));
        }
        return out;
    }

    /** The type's name ({@code Map}, {@code String}), or the literal's text. */
    public String name() {
        return name;
    }

    public List<ChType> args() {
        return args;
    }

    public ChType arg(int i) {
        return args.get(i);
    }

    public boolean isLiteral() {
        return literal;
    }

    /** True for a type of this name (a literal is no type). */
    public boolean is(String typeName) {
        return !literal && name.equals(typeName);
    }

    /** {@code Nullable(T)}. */
    public boolean isNullable() {
        return is("Nullable") && args.size() == 1;
    }

    /**
     * The type as RowBinary encodes it: without {@code LowCardinality(...)}, which changes how the
     * server stores a column, not its bytes on the wire. {@code Nullable} stays.
     */
    public ChType onTheWire() {
        if (is("LowCardinality") && args.size() == 1) {
            return args.get(0).onTheWire();
        }
        if (isNullable()) {
            ChType inner = args.get(0).onTheWire();
            return inner == args.get(0) ? this : new ChType("Nullable", List.of(inner), "Nullable(" + inner.text + ")", false);
        }
        return this;
    }

    /** The text as parsed. */
    @Override
    public String toString() {
        return text;
    }
}
