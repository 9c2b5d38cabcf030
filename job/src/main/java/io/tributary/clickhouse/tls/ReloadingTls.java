package io.tributary.clickhouse.tls;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * An {@link SSLContext} for {@link ClickHouseTls} whose CA bundle and client certificate are read
 * again when their files change: each new connection looks at the files' modification times and
 * sizes (at most once per {@link #CHECK_INTERVAL_NANOS}), so a certificate renewed on disk (cert-manager,
 * Vault agent) is shown from the next connection on, without a restart. A change that cannot be
 * used yet (a key that does not match the certificate while the two files are being replaced, a
 * half-written file) keeps the previous material and is tried again at the next check.
 *
 * <p>Failed checks of the server's certificate say which setting to look at: the CA bundle
 * ({@code clickhouse.tls.ca-file}) when the chain is not trusted, the host name check
 * ({@code clickhouse.tls.verify-hostname}) when the certificate does not name the host.
 */
public final class ReloadingTls {

    private static final Logger LOG = LoggerFactory.getLogger(ReloadingTls.class);
    static final long CHECK_INTERVAL_NANOS = 1_000_000_000L;

    private ReloadingTls() {}

    /** The context; reads the files now, failing with the setting's name when one is unusable. */
    public static SSLContext context(ClickHouseTls tls) throws IOException {
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(
                    tls.clientCertFile() == null ? null : new X509ExtendedKeyManager[] {new ClientKeys(tls)},
                    new TrustManager[] {new ServerTrust(tls)},
                    null);
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new IOException("TLS: " + e.getMessage(), e);
        }
    }

    /** What files are on disk now: modification time and size of each, to see a change. */
    private static List<Long> stamp(List<Path> files) {
        List<Long> out = new ArrayList<>();
        for (Path p : files) {
            try {
                out.add(Files.getLastModifiedTime(p).toMillis());
                out.add(Files.size(p));
            } catch (IOException e) {
                out.add(-1L); // being replaced: seen as a change, and tried again later
            }
        }
        return out;
    }

    /** Material read from files, read again when they change. */
    private abstract static class Reloading<T> {
        private final List<Path> files;
        private volatile T current;
        /** What {@link #current} replaced, for a handshake that chose it before the change. */
        private volatile T previous;
        private volatile List<Long> loadedStamp;
        private volatile long nextCheck;
        private List<Long> failedStamp;

        Reloading(List<Path> files) throws IOException {
            this.files = files;
            this.loadedStamp = stamp(files);
            this.current = load();
            this.nextCheck = System.nanoTime() + CHECK_INTERVAL_NANOS;
        }

        abstract T load() throws IOException;

        abstract String what();

        T get() {
            long now = System.nanoTime();
            if (now - nextCheck < 0) {
                return current;
            }
            synchronized (this) {
                if (now - nextCheck < 0) {
                    return current;
                }
                nextCheck = now + CHECK_INTERVAL_NANOS;
                List<Long> s = stamp(files);
                if (!s.equals(loadedStamp) && !s.equals(failedStamp)) {
                    try {
                        T fresh = load();
                        if (!s.equals(stamp(files))) {
                            return current; // changed while read: read it at the next check
                        }
                        previous = current;
                        current = fresh;
                        loadedStamp = s;
                        failedStamp = null;
                        LOG.info("ClickHouse TLS: read {} again after it changed ({})", what(), files);
                    } catch (IOException | RuntimeException e) {
                        failedStamp = s;
                        LOG.warn("ClickHouse TLS: {} changed but cannot be used yet, keeping the previous one: {}",
                                what(), e.getMessage());
                    }
                }
                return current;
            }
        }
    }

    /** A certificate chain and its key, checked to belong together. */
    private record Identity(X509Certificate[] chain, PrivateKey key, int generation) {}

    /** The client certificate of mutual TLS. Aliases carry a generation, so a handshake keeps one pair. */
    private static final class ClientKeys extends X509ExtendedKeyManager {
        private final Reloading<Identity> identity;

        ClientKeys(ClickHouseTls tls) throws IOException {
            if (tls.clientKeyFile() == null) {
                throw new IOException(ClickHouseTls.CLIENT_KEY_FILE + ": needed with " + ClickHouseTls.CLIENT_CERT_FILE);
            }
            Path cert = Path.of(tls.clientCertFile());
            Path key = Path.of(tls.clientKeyFile());
            List<Path> files = new ArrayList<>(List.of(cert, key));
            if (tls.keyPasswordFile() != null) {
                files.add(Path.of(tls.keyPasswordFile()));
            }
            int[] generation = {0};
            this.identity = new Reloading<>(files) {
                @Override
                Identity load() throws IOException {
                    List<X509Certificate> chain = Pem.certificates(cert, ClickHouseTls.CLIENT_CERT_FILE);
                    PrivateKey k = Pem.privateKey(key, ClickHouseTls.CLIENT_KEY_FILE, tls.keyPassword(),
                            tls.keyPasswordEnv() != null ? ClickHouseTls.KEY_PASSWORD_ENV : ClickHouseTls.KEY_PASSWORD_FILE);
                    checkPair(chain.get(0), k);
                    return new Identity(chain.toArray(new X509Certificate[0]), k, ++generation[0]);
                }

                @Override
                String what() {
                    return "the client certificate";
                }
            };
        }

        private static void checkPair(X509Certificate cert, PrivateKey key) throws IOException {
            String algorithm = key.getAlgorithm().equals("EC") ? "SHA256withECDSA"
                    : key.getAlgorithm().equals("RSA") ? "SHA256withRSA" : null;
            if (algorithm == null) {
                return; // EdDSA and others: the handshake says it if they do not match
            }
            try {
                byte[] probe = "tributary".getBytes(StandardCharsets.US_ASCII);
                Signature s = Signature.getInstance(algorithm);
                s.initSign(key);
                s.update(probe);
                byte[] signature = s.sign();
                s.initVerify(cert.getPublicKey());
                s.update(probe);
                if (!s.verify(signature)) {
                    throw new IOException(ClickHouseTls.CLIENT_KEY_FILE + ": the key is not the key of the certificate in "
                            + ClickHouseTls.CLIENT_CERT_FILE + " (" + cert.getSubjectX500Principal() + ")");
                }
            } catch (GeneralSecurityException e) {
                throw new IOException(ClickHouseTls.CLIENT_KEY_FILE + ": the key does not fit the certificate in "
                        + ClickHouseTls.CLIENT_CERT_FILE + ": " + e.getMessage(), e);
            }
        }

        private Identity byAlias(String alias) {
            Identity now = identity.get();
            if (alias == null) {
                return null;
            }
            if (alias.equals("client-" + now.generation())) {
                return now;
            }
            Identity before = identity.previous;
            return before != null && alias.equals("client-" + before.generation()) ? before : null;
        }

        private String alias(String[] keyTypes) {
            Identity now = identity.get();
            for (String t : keyTypes) {
                if (t.equalsIgnoreCase(now.key().getAlgorithm())) {
                    return "client-" + now.generation();
                }
            }
            return null;
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            return alias(keyType);
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
            return alias(keyType);
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            Identity i = byAlias(alias);
            return i == null ? null : i.chain().clone();
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            Identity i = byAlias(alias);
            return i == null ? null : i.key();
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            String a = alias(new String[] {keyType});
            return a == null ? null : new String[] {a};
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return null;
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return null;
        }
    }

    /** The server's certificate: the CA bundle (or the JVM's), and its names when asked. */
    private static final class ServerTrust extends X509ExtendedTrustManager {
        private final ClickHouseTls tls;
        private final Reloading<X509ExtendedTrustManager> trust;

        ServerTrust(ClickHouseTls tls) throws IOException {
            this.tls = tls;
            List<Path> files = tls.caFile() == null ? List.of() : List.of(Path.of(tls.caFile()));
            this.trust = new Reloading<>(files) {
                @Override
                X509ExtendedTrustManager load() throws IOException {
                    return trustManager(tls.caFile());
                }

                @Override
                String what() {
                    return "the CA bundle";
                }
            };
        }

        private static X509ExtendedTrustManager trustManager(String caFile) throws IOException {
            try {
                KeyStore store = null;
                if (caFile != null) {
                    store = KeyStore.getInstance(KeyStore.getDefaultType());
                    store.load(null, null);
                    int n = 0;
                    for (X509Certificate c : Pem.certificates(Path.of(caFile), ClickHouseTls.CA_FILE)) {
                        store.setCertificateEntry("ca-" + n++, c);
                    }
                }
                TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                f.init(store);
                for (TrustManager m : f.getTrustManagers()) {
                    if (m instanceof X509ExtendedTrustManager) {
                        return (X509ExtendedTrustManager) m;
                    }
                }
                throw new IOException("no X509 trust manager in this JVM");
            } catch (GeneralSecurityException e) {
                throw new IOException(ClickHouseTls.CA_FILE + ": " + e.getMessage(), e);
            }
        }

        private String trustSource() {
            return tls.caFile() == null
                    ? "the JVM's trust store (set " + ClickHouseTls.CA_FILE + " to the PEM bundle of your CA)"
                    : "the CAs of " + ClickHouseTls.CA_FILE + " = " + tls.caFile();
        }

        private void checkChain(X509TrustManager m, X509Certificate[] chain, String authType) throws CertificateException {
            try {
                m.checkServerTrusted(chain, authType);
            } catch (CertificateException e) {
                throw new CertificateException("ClickHouse's certificate (" + chain[0].getSubjectX500Principal()
                        + ", issued by " + chain[0].getIssuerX500Principal() + ") is not trusted by " + trustSource()
                        + ": " + e.getMessage(), e);
            }
        }

        private CertificateException nameMismatch(CertificateException e) {
            return new CertificateException("ClickHouse's certificate does not name the host of clickhouse.url ("
                    + e.getMessage() + "); use the name the certificate holds, or set " + ClickHouseTls.VERIFY_HOSTNAME
                    + " = false (not checking the name lets anyone with a certificate of that CA stand in)", e);
        }

        /** The name check of one connection: the JDK's, which takes the host from the engine or socket. */
        private interface NameCheck {
            void check(X509ExtendedTrustManager m) throws CertificateException;
        }

        private void checkServer(X509Certificate[] chain, String authType, NameCheck named) throws CertificateException {
            X509ExtendedTrustManager m = trust.get();
            checkChain(m, chain, authType);
            if (tls.verifyHostname()) {
                try {
                    named.check(m);
                } catch (CertificateException e) {
                    throw nameMismatch(e);
                }
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            checkServer(chain, authType, m -> m.checkServerTrusted(chain, authType, engine));
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            checkServer(chain, authType, m -> m.checkServerTrusted(chain, authType, socket));
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            // no connection to take the host from: only the chain can be checked
            checkChain(trust.get(), chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            throw new CertificateException("a client does not check clients");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            throw new CertificateException("a client does not check clients");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("a client does not check clients");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return trust.get().getAcceptedIssuers();
        }
    }

}
