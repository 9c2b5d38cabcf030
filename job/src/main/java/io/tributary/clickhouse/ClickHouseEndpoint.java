package io.tributary.clickhouse;

import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where ClickHouse is and who we are to it. The password is never part of this object: only the
 * name of the environment variable or the path of the file that holds it, resolved on the
 * TaskManager when a connection is made, so it never travels in program arguments, the job graph
 * or the logs.
 *
 * @param url base HTTP URL, e.g. http://localhost:8123, or several, comma-separated (replicas or
 *     proxies of one cluster; see {@link ClickHouseClient})
 * @param user ClickHouse user
 * @param passwordEnv name of an environment variable holding the password, or null
 * @param passwordFile path of a file holding the password (trailing newline ignored), or null
 * @param tls how https:// URLs are spoken to
 */
public record ClickHouseEndpoint(String url, String user, String passwordEnv, String passwordFile, ClickHouseTls tls)
        implements Serializable {

    public ClickHouseEndpoint {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(tls, "tls");
    }

    /** An endpoint speaking TLS, if at all, with the JVM's defaults. */
    public ClickHouseEndpoint(String url, String user, String passwordEnv, String passwordFile) {
        this(url, user, passwordEnv, passwordFile, ClickHouseTls.DEFAULT);
    }

    /** An endpoint with the default user and no password. */
    public static ClickHouseEndpoint of(String url) {
        return new ClickHouseEndpoint(url, "default", null, null);
    }

    /** The URLs of {@link #url()}, in the order given. */
    public java.util.List<String> urls() {
        return splitUrls(url);
    }

    /** A comma-separated list of URLs, each trimmed, empty entries dropped. */
    public static java.util.List<String> splitUrls(String urls) {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (String u : urls.split(",")) {
            if (!u.isBlank()) {
                out.add(u.strip());
            }
        }
        return out;
    }

    /**
     * The password, "" when none is configured.
     *
     * @throws IOException naming the setting when the variable is unset or the file unreadable
     */
    public String resolvePassword() throws IOException {
        String v = readPassword(passwordEnv, "clickhouse.password-env", passwordFile, "clickhouse.password-file");
        return v == null ? "" : v;
    }

    /**
     * A password from the environment variable {@code env}, else from the file {@code file}
     * (without a final line end), read now; null when neither is given. Failures name {@code
     * envKey} or {@code fileKey}, the settings that gave them. The job and the SQL module's JDBC
     * driver take passwords this one way.
     *
     * @throws IOException when the variable is unset or the file unreadable
     */
    public static String readPassword(String env, String envKey, String file, String fileKey) throws IOException {
        if (env != null && !env.isEmpty()) {
            String v = System.getenv(env);
            if (v == null) {
                throw new IOException(envKey + ": environment variable '" + env + "' is not set");
            }
            return v;
        }
        if (file != null && !file.isEmpty()) {
            try {
                String v = Files.readString(Path.of(file), StandardCharsets.UTF_8);
                return v.endsWith("\n") ? v.substring(0, v.length() - (v.endsWith("\r\n") ? 2 : 1)) : v;
            } catch (IOException e) {
                throw new IOException(fileKey + ": cannot read '" + file + "': " + e.getMessage(), e);
            }
        }
        return null;
    }

    /**
     * True when the URL's authority (between {@code ://} and the path) holds an {@code @}: a user,
     * maybe a password, which are never taken from a URL. Read by hand: {@code java.net.URI} does
     * not see every password as user info ({@code u:p@ss@host}) and refuses some outright.
     */
    public static boolean hasUserInfo(String url) {
        int start = url.indexOf("://");
        if (start < 0) {
            return false;
        }
        int end = url.indexOf('/', start + 3);
        return url.substring(start + 3, end < 0 ? url.length() : end).contains("@");
    }
}
