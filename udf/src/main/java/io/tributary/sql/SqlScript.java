package io.tributary.sql;

import io.tributary.config.ConfigException;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Flink SQL script as {@code bin/tributary sql} runs it: {@code ${key}} and {@code ${key:-default}}
 * replaced by settings, then split into statements at the semicolons outside string literals,
 * quoted identifiers and comments; an {@code EXECUTE STATEMENT SET BEGIN ... END} block (or {@code
 * EXPLAIN STATEMENT SET ...}) stays one statement.
 */
public final class SqlScript {

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z0-9_.\\-]+)(?::-([^}]*))?}");

    private SqlScript() {}

    /** The keys the script reads, in order of first use. */
    public static Set<String> variables(String text) {
        Set<String> out = new LinkedHashSet<>();
        Matcher m = VARIABLE.matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** {@link #substitute(String, Map, Set)} with no SQL fragments among the values. */
    public static String substitute(String text, Map<String, String> values) {
        return substitute(text, values, Set.of());
    }

    /**
     * The script with every {@code ${key}} replaced by {@code values.get(key)}, or by its {@code
     * :-default}; a key with neither fails naming it. A value means the same whatever it holds: it
     * is written for where the placeholder stands, as Flink SQL reads that place. In a string
     * literal ({@code '${key}'}) its quotes are doubled, in a back-quoted identifier its back
     * quotes; backslashes and line breaks are plain characters there. Elsewhere a value would be
     * SQL text, so only a number or a (dotted) name is taken, or a key of {@code sqlFragments},
     * whose values are SQL the runner built with every value in it quoted. What cannot be written
     * safely fails naming the key: a {@code "} between double quotes, a line break in a {@code --}
     * comment, a {@code *}{@code /} in a block comment or hint. A default is a value like any other.
     *
     * @param sqlFragments keys whose values are SQL text, for placeholders outside quotes
     */
    public static String substitute(String text, Map<String, String> values, Set<String> sqlFragments) {
        Matcher m = VARIABLE.matcher(text);
        StringBuilder out = new StringBuilder(text.length());
        Place place = Place.CODE;
        boolean hint = false; // between /*+ and */: SQL text, as Flink reads a hint
        int n = text.length();
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            if (c == '$' && m.region(i, n).lookingAt()) {
                String key = m.group(1);
                String v = values.get(key);
                if (v == null) {
                    v = m.group(2);
                }
                if (v == null) {
                    throw new ConfigException(key + ": the script reads ${" + key + "}; pass --"
                            + key + " VALUE (or write ${" + key + ":-default})");
                }
                out.append(written(key, v, place, hint, sqlFragments.contains(key)));
                i = m.end();
                continue;
            }
            char next = i + 1 < n ? text.charAt(i + 1) : 0;
            int taken = 1;
            switch (place) {
                case CODE:
                    if (c == '\'') {
                        place = Place.STRING;
                    } else if (c == '`') {
                        place = Place.IDENTIFIER;
                    } else if (c == '"') {
                        place = Place.DOUBLE_QUOTED;
                    } else if (c == '-' && next == '-') {
                        place = Place.LINE_COMMENT;
                        taken = 2;
                    } else if (c == '/' && next == '*' && !hint) {
                        if (i + 2 < n && text.charAt(i + 2) == '+') {
                            hint = true;
                        } else {
                            place = Place.BLOCK_COMMENT;
                        }
                        taken = 2;
                    } else if (c == '*' && next == '/' && hint) {
                        hint = false;
                        taken = 2;
                    }
                    break;
                case STRING:
                    place = c == '\'' ? Place.CODE : place; // a doubled quote closes and opens again
                    break;
                case IDENTIFIER:
                    place = c == '`' ? Place.CODE : place;
                    break;
                case DOUBLE_QUOTED:
                    place = c == '"' ? Place.CODE : place;
                    break;
                case LINE_COMMENT:
                    place = c == '\n' || c == '\r' ? Place.CODE : place;
                    break;
                case BLOCK_COMMENT:
                    if (c == '*' && next == '/') {
                        place = Place.CODE;
                        taken = 2;
                    }
                    break;
                default:
                    throw new AssertionError(place);
            }
            out.append(text, i, i + taken);
            i += taken;
        }
        return out.toString();
    }

    /** Where in the script a placeholder stands. */
    private enum Place { CODE, STRING, IDENTIFIER, DOUBLE_QUOTED, LINE_COMMENT, BLOCK_COMMENT }

    /** A number or a name, possibly dotted: what a value outside quotes may be. */
    private static final Pattern SQL_TOKEN = Pattern.compile(
            "-?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?|[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*|");

    /** {@code value} as written at {@code place}, or a refusal naming {@code key}. */
    private static String written(String key, String value, Place place, boolean hint, boolean fragment) {
        if (hint && value.contains("*/")) {
            throw new ConfigException(key + ": its value has */, which would end the hint the script puts ${" + key + "} in");
        }
        switch (place) {
            case STRING:
                return value.replace("'", "''");
            case IDENTIFIER:
                return value.replace("`", "``");
            case DOUBLE_QUOTED:
                if (value.indexOf('"') >= 0) {
                    throw new ConfigException(key + ": its value has a \" and the script puts ${" + key
                            + "} between double quotes; write '${" + key + "}' in the script");
                }
                return value;
            case LINE_COMMENT:
                if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
                    throw new ConfigException(key + ": its value has a line break, which would end the -- comment the"
                            + " script puts ${" + key + "} in");
                }
                return value;
            case BLOCK_COMMENT:
                if (value.contains("*/")) {
                    throw new ConfigException(key + ": its value has */, which would end the comment the script puts ${"
                            + key + "} in");
                }
                return value;
            default:
                if (!fragment && !SQL_TOKEN.matcher(value).matches()) {
                    throw new ConfigException(key + ": the script puts ${" + key + "} outside quotes, where its value"
                            + " would be SQL text, and the value is not a number or a name; write '${" + key
                            + "}' in the script to have it as a string");
                }
                return value;
        }
    }

    /** The statements, without their semicolons, comments kept; blank ones dropped. */
    public static List<String> statements(String text) {
        List<String> raw = split(text);
        List<String> out = new ArrayList<>();
        StringBuilder block = null;
        for (String s : raw) {
            String head = keywords(s);
            if (block == null && startsStatementSet(head)) {
                block = new StringBuilder(s);
                continue;
            }
            if (block != null) {
                block.append(';').append(s);
                if (head.equals("END")) {
                    out.add(block.toString().strip());
                    block = null;
                }
                continue;
            }
            if (!head.isEmpty()) {
                out.add(s.strip());
            }
        }
        if (block != null) {
            throw new ConfigException("the script's STATEMENT SET has no END");
        }
        return out;
    }

    /**
     * True for the first part of a statement set: {@code EXECUTE STATEMENT SET BEGIN ...}, {@code
     * EXPLAIN [details] [PLAN FOR] STATEMENT SET BEGIN ...}, or the SQL client's {@code BEGIN
     * STATEMENT SET}.
     */
    static boolean startsStatementSet(String head) {
        return head.equals("BEGIN STATEMENT SET")
                || head.matches("(EXECUTE|EXPLAIN)\\b.*\\bSTATEMENT SET BEGIN\\b.*");
    }

    /** {@code SET 'key' = 'value'} or {@code RESET 'key'} (value null). */
    public record Setting(String key, String value) {}

    private static final Pattern SET = Pattern.compile("(?is)\\s*SET\\s+'((?:[^']|'')*)'\\s*=\\s*'((?:[^']|'')*)'\\s*");
    private static final Pattern RESET = Pattern.compile("(?is)\\s*RESET\\s+'((?:[^']|'')*)'\\s*");

    /** The key and value of a SET or RESET statement (comments removed), or null when it is not one of those. */
    public static Setting setting(String statement) {
        String s = withoutComments(statement);
        Matcher m = SET.matcher(s);
        if (m.matches()) {
            return new Setting(m.group(1).replace("''", "'"), m.group(2).replace("''", "'"));
        }
        m = RESET.matcher(s);
        return m.matches() ? new Setting(m.group(1).replace("''", "'"), null) : null;
    }

    /** The INSERT statements between {@code BEGIN} and {@code END} of a statement set block. */
    public static List<String> statementSetInserts(String block) {
        List<String> parts = split(block);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            String p = parts.get(i);
            if (i == 0) {
                // EXECUTE STATEMENT SET BEGIN <first insert>, or the SQL client's BEGIN STATEMENT SET
                if (keywords(p).equals("BEGIN STATEMENT SET")) {
                    continue;
                }
                int after = afterKeywords(p, "SET BEGIN");
                p = after < 0 ? "" : p.substring(after);
            }
            String head = keywords(p);
            if (head.isEmpty() || head.equals("END")) {
                continue;
            }
            if (!head.startsWith("INSERT ")) {
                throw new ConfigException("a STATEMENT SET holds INSERT statements only, not: " + p.strip());
            }
            out.add(p.strip());
        }
        return out;
    }

    /** Where the words {@code words} (any whitespace between them) end outside comments, or -1. */
    private static int afterKeywords(String s, String words) {
        String plain = withoutCommentsKeepingLength(s).toUpperCase(Locale.ROOT);
        Matcher m = Pattern.compile("\\b" + words.replace(" ", "\\s+") + "\\b").matcher(plain);
        return m.find() ? m.end() : -1;
    }

    /** The statement without its comments (each replaced by spaces), stripped. */
    static String withoutComments(String s) {
        return withoutCommentsKeepingLength(s).strip();
    }

    /** Comments replaced by spaces, so positions stay where they were. */
    private static String withoutCommentsKeepingLength(String statement) {
        StringBuilder sb = new StringBuilder(statement);
        int n = statement.length();
        for (int i = 0; i < n; i++) {
            char c = statement.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                int j = statement.indexOf(c, i + 1);
                i = j < 0 ? n : j;
            } else if (c == '-' && i + 1 < n && statement.charAt(i + 1) == '-') {
                int nl = statement.indexOf('\n', i);
                int e = nl < 0 ? n : nl;
                for (int k = i; k < e; k++) {
                    sb.setCharAt(k, ' ');
                }
                i = e;
            } else if (c == '/' && i + 1 < n && statement.charAt(i + 1) == '*') {
                int close = statement.indexOf("*/", i + 2);
                int e = close < 0 ? n : close + 2;
                for (int k = i; k < e; k++) {
                    sb.setCharAt(k, ' ');
                }
                i = e - 1;
            }
        }
        return sb.toString();
    }

    /** The statement's words outside comments, upper case, single-spaced ("" for a blank or comment-only one). */
    static String keywords(String statement) {
        return withoutComments(statement).replaceAll("\\s+", " ").toUpperCase(Locale.ROOT);
    }

    private static List<String> split(String text) {
        List<String> out = new ArrayList<>();
        int start = 0;
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                int j = i + 1;
                while (j < n) {
                    if (text.charAt(j) == c) {
                        if (j + 1 < n && text.charAt(j + 1) == c) { // doubled quote
                            j += 2;
                            continue;
                        }
                        break;
                    }
                    j++;
                }
                i = j;
            } else if (c == '-' && i + 1 < n && text.charAt(i + 1) == '-') {
                int nl = text.indexOf('\n', i);
                i = nl < 0 ? n : nl;
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                int close = text.indexOf("*/", i + 2);
                i = close < 0 ? n : close + 1;
            } else if (c == ';') {
                out.add(text.substring(start, i));
                start = i + 1;
            }
        }
        out.add(text.substring(start));
        return out;
    }
}
