package io.tributary.secret;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * Credentials written into URLs, found so they can be refused: a URL is printed in logs, metrics,
 * messages, proxies' access logs and the Flink dashboard, so whatever it holds is public.
 *
 * <p>Two forms are found, anywhere after a {@code ://} in a text (a list of URLs included):
 *
 * <ul>
 *   <li>user info: any {@code @} after the {@code ://}. It is not parsed further: a password may hold
 *       {@code /}, {@code ?}, {@code #} or {@code ,}, which would end the URL's host part or the
 *       list entry for a parser, and the password would pass as a path or a second entry;
 *   <li>query parameters (after {@code ?}, {@code &} or {@code ;}) whose name, percent-decoded, in
 *       any case and without {@code - _ .}, holds {@code password}, {@code passwd}, {@code
 *       passphrase}, {@code secret}, {@code token}, {@code credential} or {@code signature}; ends in
 *       {@code apikey}, {@code accesskey}, {@code privatekey}, {@code accountkey}, {@code sharedkey},
 *       {@code signingkey}, {@code masterkey} or {@code sessionkey}; or is {@code pass}, {@code pwd},
 *       {@code key}, {@code sig}, {@code auth}, {@code authorization} or {@code bearer}. Names that
 *       only mention a key's file ({@code ssl_key}, {@code sslkey}: paths, which ClickHouse's JDBC
 *       driver takes) pass. Where users are given by settings of their own, a parameter named
 *       {@code user}, {@code username} or {@code login} is refused too.
 * </ul>
 *
 * <p>The answer says which form was found in words of its own, never quoting the text: a
 * parameter's "name" may be a piece of a password that holds a {@code &}.
 */
public final class UrlCredentials {

    private static final List<String> SECRET_NAME_PARTS =
            List.of("password", "passwd", "passphrase", "secret", "token", "credential", "signature");
    private static final List<String> SECRET_NAMES = List.of("pass", "pwd", "key", "sig", "auth", "authorization", "bearer");
    private static final List<String> SECRET_NAME_ENDS = List.of("apikey", "accesskey", "privatekey", "accountkey",
            "sharedkey", "signingkey", "masterkey", "sessionkey");
    private static final List<String> USER_NAMES = List.of("user", "username", "login");

    private UrlCredentials() {}

    /**
     * What credential {@code text} holds in a URL, in words that quote none of it, or null.
     *
     * @param userIsCredential whether a {@code user=} parameter counts (the job's settings: users
     *     are settings of their own) or not (ClickHouse's JDBC URL, which takes its user that way)
     */
    public static String find(String text, boolean userIsCredential) {
        int scheme = text.indexOf("://");
        if (scheme < 0) {
            return null;
        }
        String rest = text.substring(scheme + 3);
        if (rest.indexOf('@') >= 0) {
            return "a user or password (an '@' after '://')";
        }
        for (int i = 0; i < rest.length(); i++) {
            char c = rest.charAt(i);
            if (c != '?' && c != '&' && c != ';') {
                continue;
            }
            int end = i + 1;
            while (end < rest.length() && "=&;#?,/ \t".indexOf(rest.charAt(end)) < 0) {
                end++;
            }
            String kind = credentialName(rest.substring(i + 1, end), userIsCredential);
            if (kind != null) {
                return "a query parameter named like " + kind;
            }
        }
        return null;
    }

    /** Which rule the parameter name meets, in the rule's words (never the name's), or null. */
    private static String credentialName(String raw, boolean userIsCredential) {
        String name;
        try {
            name = URLDecoder.decode(raw, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            name = raw; // a broken escape: judged as written
        }
        name = name.toLowerCase(Locale.ROOT).replaceAll("[-_.]", "");
        for (String part : SECRET_NAME_PARTS) {
            if (name.contains(part)) {
                return "a secret (holding '" + part + "')";
            }
        }
        for (String end : SECRET_NAME_ENDS) {
            if (name.endsWith(end)) {
                return "a key (ending in '" + end + "')";
            }
        }
        if (SECRET_NAMES.contains(name)) {
            return "a secret ('" + SECRET_NAMES.get(SECRET_NAMES.indexOf(name)) + "')";
        }
        if (userIsCredential && USER_NAMES.contains(name)) {
            return "a user ('" + USER_NAMES.get(USER_NAMES.indexOf(name)) + "')";
        }
        return null;
    }
}
