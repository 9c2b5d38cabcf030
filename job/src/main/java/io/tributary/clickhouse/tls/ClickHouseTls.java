package io.tributary.clickhouse.tls;

import io.tributary.secret.Secrets;

import java.io.Serializable;

/**
 * How the job speaks TLS to ClickHouse over {@code https://}: which certificate authorities it
 * trusts, which client certificate it shows (mutual TLS) and whether the server's name is checked.
 * Only file paths and the source of the key's password travel with it; the files are read on the
 * TaskManagers, and read again when they change (see {@link ReloadingTls}).
 *
 * @param caFile PEM bundle of the CAs to trust, or null for the JVM's trust store
 *     ({@code clickhouse.tls.ca-file})
 * @param clientCertFile PEM client certificate chain, or null for none
 *     ({@code clickhouse.tls.client-cert-file})
 * @param clientKeyFile PEM (PKCS #8, maybe encrypted, or PKCS #1) private key of that certificate
 *     ({@code clickhouse.tls.client-key-file})
 * @param keyPasswordEnv environment variable holding the key's password, or null
 * @param keyPasswordFile file holding the key's password, or null
 * @param verifyHostname whether the server certificate must name the URL's host
 */
public record ClickHouseTls(
        String caFile,
        String clientCertFile,
        String clientKeyFile,
        String keyPasswordEnv,
        String keyPasswordFile,
        boolean verifyHostname)
        implements Serializable {

    public static final String CA_FILE = "clickhouse.tls.ca-file";
    public static final String CLIENT_CERT_FILE = "clickhouse.tls.client-cert-file";
    public static final String CLIENT_KEY_FILE = "clickhouse.tls.client-key-file";
    public static final String KEY_PASSWORD = "clickhouse.tls.client-key-password";
    public static final String KEY_PASSWORD_ENV = KEY_PASSWORD + "-env";
    public static final String KEY_PASSWORD_FILE = KEY_PASSWORD + "-file";
    public static final String VERIFY_HOSTNAME = "clickhouse.tls.verify-hostname";

    /** The JVM's trust store, no client certificate, names checked. */
    public static final ClickHouseTls DEFAULT = new ClickHouseTls(null, null, null, null, null, true);

    /** The password of the client key, null when none is configured; read now, by {@link Secrets#read}. */
    String keyPassword() throws java.io.IOException {
        return Secrets.read(keyPasswordEnv, KEY_PASSWORD_ENV, keyPasswordFile, KEY_PASSWORD_FILE);
    }
}
