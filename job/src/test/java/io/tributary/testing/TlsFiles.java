package io.tributary.testing;

import io.tributary.services.Certificates;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Certificates for the TLS tests, made by the project's one certificate factory
 * ({@link Certificates}, which also makes the local Kafka's): a CA, a server certificate for
 * {@code localhost} only (so {@code 127.0.0.1} is a wrong host name), client certificates, a key
 * encrypted with a password, and a second, unrelated CA.
 */
public final class TlsFiles {

    /** The password of {@link #clientKeyEncrypted}. */
    public static final String KEY_PASSWORD = "key-secret";

    public final Path dir;
    public final Path ca;
    public final Path caKey;
    public final Path otherCa;
    public final Path otherCaKey;
    public final Path serverCert;
    public final Path serverKey;
    public final Path clientCert;
    public final Path clientKey;
    public final Path clientKeyEncrypted;
    public final Path clientKeyPkcs1;
    public final Path keyPasswordFile;
    public final Path wrongClientCert;
    public final Path wrongClientKey;

    private TlsFiles(Path dir) {
        this.dir = dir;
        ca = dir.resolve("ca.pem");
        caKey = dir.resolve("ca.key");
        otherCa = dir.resolve("other-ca.pem");
        otherCaKey = dir.resolve("other-ca.key");
        serverCert = dir.resolve("server.pem");
        serverKey = dir.resolve("server.key");
        clientCert = dir.resolve("client.pem");
        clientKey = dir.resolve("client.key");
        clientKeyEncrypted = dir.resolve("client-encrypted.key");
        clientKeyPkcs1 = dir.resolve("client-pkcs1.key");
        keyPasswordFile = dir.resolve("key-password");
        wrongClientCert = dir.resolve("wrong-client.pem");
        wrongClientKey = dir.resolve("wrong-client.key");
    }

    /** Makes every file in {@code dir}. */
    public static TlsFiles make(Path dir) throws IOException, InterruptedException {
        TlsFiles f = new TlsFiles(Files.createDirectories(dir));
        f.selfSigned(f.ca, f.caKey, "Tributary Test CA");
        f.selfSigned(f.otherCa, f.otherCaKey, "Some Other CA");
        f.issue(f.serverCert, f.serverKey, "localhost", f.ca, f.caKey, "subjectAltName=DNS:localhost");
        f.issue(f.clientCert, f.clientKey, "tributary", f.ca, f.caKey, "extendedKeyUsage=clientAuth");
        f.issue(f.wrongClientCert, f.wrongClientKey, "tributary", f.otherCa, f.otherCaKey, "extendedKeyUsage=clientAuth");
        Certificates.encrypt(f.clientKey, f.clientKeyEncrypted, KEY_PASSWORD, false);
        Certificates.traditional(f.clientKey, f.clientKeyPkcs1);
        Files.writeString(f.keyPasswordFile, KEY_PASSWORD + "\n");
        return f;
    }

    /** A new client certificate and key from {@code caCert}, written over {@code cert} and {@code key}. */
    public void renewClient(Path cert, Path key, Path caCert, Path caKeyFile) throws IOException, InterruptedException {
        Path newCert = dir.resolve(cert.getFileName() + ".new");
        Path newKey = dir.resolve(key.getFileName() + ".new");
        issue(newCert, newKey, "tributary-renewed", caCert, caKeyFile, "extendedKeyUsage=clientAuth");
        // the way cert-manager and Vault agent do it: each file replaced whole, one after the other
        Files.move(newKey, key, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Files.move(newCert, cert, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * {@code key} encrypted with {@code password} into {@code out} (PKCS #8): PBES2 with AES as
     * {@code openssl pkcs8 -topk8} makes by default, or, with {@code pbes1}, PBES1 with 3DES, the
     * scheme the Kafka clients' PEM reader takes.
     */
    public void encrypt(Path key, Path out, String password, boolean pbes1) throws IOException, InterruptedException {
        Certificates.encrypt(key, out, password, pbes1);
    }

    /** A new CA, for rotations. */
    public void newCa(Path cert, Path key, String name) throws IOException, InterruptedException {
        selfSigned(cert, key, name);
    }

    private void selfSigned(Path cert, Path key, String name) throws IOException, InterruptedException {
        Certificates.selfSigned(cert, key, name, 2);
    }

    private void issue(Path cert, Path key, String cn, Path caCert, Path caKeyFile, String extension)
            throws IOException, InterruptedException {
        Certificates.issue(cert, key, cn, caCert, caKeyFile, extension, 2);
    }
}
