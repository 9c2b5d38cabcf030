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
 * @param url base HTTP URL, e.g. http://localhost:8123
 * @param user ClickHouse user
 * @param passwordEnv name of an environment variable holding the password, or null
 * @param passwordFile path of a file holding the password (trailing newline ignored), or null
 */
public record ClickHouseEndpoint(String url, String user, String passwordEnv, String passwordFile)
        implements Serializable {

    public ClickHouseEndpoint {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(user, "user");
    }

    /** An endpoint with the default user and no password. */
    public static ClickHouseEndpoint of(String url) {
        return new ClickHouseEndpoint(url, "default", null, null);
    }

    /**
     * The password, "" when none is configured.
     *
     * @throws IOException naming the setting when the variable is unset or the file unreadable
     */
    public String resolvePassword() throws IOException {
        if (passwordEnv != null && !passwordEnv.isEmpty()) {
            String v = System.getenv(passwordEnv);
            if (v == null) {
                throw new IOException(
                        "clickhouse.password-env: environment variable '" + passwordEnv + "' is not set");
            }
            return v;
        }
        if (passwordFile != null && !passwordFile.isEmpty()) {
            try {
                String v = Files.readString(Path.of(passwordFile), StandardCharsets.UTF_8);
                return v.endsWith("\n") ? v.substring(0, v.length() - (v.endsWith("\r\n") ? 2 : 1)) : v;
            } catch (IOException e) {
                throw new IOException(
                        "clickhouse.password-file: cannot read '" + passwordFile + "': " + e.getMessage(), e);
            }
        }
        return "";
    }
}
