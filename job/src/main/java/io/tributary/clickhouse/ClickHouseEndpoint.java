package io.tributary.clickhouse;

import io.tributary.clickhouse.tls.ClickHouseTls;
import io.tributary.secret.Secrets;

import java.io.IOException;
import java.io.Serializable;
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
 * @param passwordFile path of a file holding the password (one final line end dropped), or null
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
     * The password, "" when none is configured, read now (see {@link Secrets#read}: one final line
     * end dropped, other control characters refused).
     *
     * @throws IOException naming the setting, never quoting the value
     */
    public String resolvePassword() throws IOException {
        String v = Secrets.read(passwordEnv, "clickhouse.password-env", passwordFile, "clickhouse.password-file");
        return v == null ? "" : v;
    }
}
