package io.tributary.jdbc;

import io.tributary.secret.Secrets;
import io.tributary.secret.UrlCredentials;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * ClickHouse's JDBC driver ({@code com.clickhouse.jdbc.Driver}) with the password taken as the job
 * takes it, never from the table's DDL (which Flink keeps in its plan and a SQL script shows to
 * whoever reads it): {@code password-env=NAME} in the URL reads the environment variable {@code
 * NAME}, {@code password-file=PATH} the file, each time a connection is opened, in the process that
 * opens it (the TaskManager), as the job reads its secrets ({@link Secrets#read}: one final line end
 * dropped, other control characters refused, the value never in a message). A {@code 'password'}
 * table option is refused, and so is any credential in the URL ({@link UrlCredentials}: user info,
 * a parameter named like a password, token or key). The other URL parameters ({@code user=}
 * included) and {@code 'username'} go to ClickHouse's driver as they are.
 *
 * <pre>{@code 'url' = 'jdbc:clickhouse://clickhouse:8123/otel?password-env=CLICKHOUSE_PASSWORD'}</pre>
 */
public final class ClickHouseSecretsDriver implements Driver {

    static final String PASSWORD_ENV = "password-env";
    static final String PASSWORD_FILE = "password-file";
    private static final String DELEGATE = "com.clickhouse.jdbc.Driver";

    private volatile Driver delegate;

    /** True for the URLs ClickHouse's driver takes. */
    static boolean accepts(String url) {
        return url != null && (url.startsWith("jdbc:clickhouse:") || url.startsWith("jdbc:ch:"));
    }

    @Override
    public boolean acceptsURL(String url) {
        return accepts(url);
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!accepts(url)) {
            return null;
        }
        Properties props = new Properties();
        if (info != null) {
            props.putAll(info);
        }
        Object plain = props.get("password");
        if (plain != null && !plain.toString().isEmpty()) {
            throw new ClickHouseRefusalException("'password': a ClickHouse password is never in a table's options"
                    + " (Flink keeps them in its plan, a script shows them to whoever reads it); put"
                    + " ?password-env=VARIABLE or ?password-file=PATH in the 'url'");
        }
        Resolved r = resolve(url);
        if (r.password != null) {
            props.setProperty("password", r.password);
        }
        return delegate().connect(r.url, props);
    }

    /** The URL without this driver's parameters, and the password they name. */
    record Resolved(String url, String password) {}

    static Resolved resolve(String url) throws SQLException {
        int q = url.indexOf('?');
        List<String> kept = new ArrayList<>();
        String env = null;
        String file = null;
        for (String p : q < 0 ? new String[0] : url.substring(q + 1).split("&")) {
            if (p.startsWith(PASSWORD_ENV + "=")) {
                env = p.substring(PASSWORD_ENV.length() + 1);
            } else if (p.startsWith(PASSWORD_FILE + "=")) {
                file = java.net.URLDecoder.decode(p.substring(PASSWORD_FILE.length() + 1), StandardCharsets.UTF_8);
            } else if (!p.isEmpty()) {
                kept.add(p);
            }
        }
        String base = q < 0 ? url : url.substring(0, q) + (kept.isEmpty() ? "" : "?" + String.join("&", kept));
        // this driver's own parameters are out; what is left goes to ClickHouse's driver, which
        // takes ?user= (no secret) and would take ?password= (refused, as any credential-like name)
        String credential = UrlCredentials.find(base, false);
        if (credential != null) {
            throw new ClickHouseRefusalException("'url': holds " + credential + ", refused (Flink keeps the URL in its plan,"
                    + " a script shows it to whoever reads it); give ?user=NAME and ?password-env=VARIABLE or"
                    + " ?password-file=PATH");
        }
        if (env != null && file != null) {
            throw new SQLException(PASSWORD_FILE + ": give either " + PASSWORD_ENV + " or " + PASSWORD_FILE + ", not both");
        }
        try {
            return new Resolved(base, Secrets.read(env, PASSWORD_ENV, file, PASSWORD_FILE));
        } catch (IOException e) {
            throw new SQLException(e.getMessage(), e);
        }
    }

    private Driver delegate() throws SQLException {
        Driver d = delegate;
        if (d == null) {
            try {
                d = (Driver) Class.forName(DELEGATE, true, ClickHouseSecretsDriver.class.getClassLoader())
                        .getDeclaredConstructor()
                        .newInstance();
            } catch (ReflectiveOperationException e) {
                throw new SQLException("ClickHouse's JDBC driver (" + DELEGATE + ", clickhouse-jdbc) is not on the classpath", e);
            }
            delegate = d;
        }
        return d;
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
        return delegate().getPropertyInfo(resolve(url).url(), info);
    }

    @Override
    public int getMajorVersion() {
        return 0;
    }

    @Override
    public int getMinorVersion() {
        return 10;
    }

    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }
}
