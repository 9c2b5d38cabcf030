package io.tributary.services;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * The one certificate factory of the project: the local Kafka's listener certificates and OAuth key,
 * and the integration tests' CAs, server and client certificates ({@code io.tributary.testing.TlsFiles}).
 * Made with Debian's {@code openssl} as a platform team would, so the files are what real deployments
 * hand the job. Not for anything but this machine's tests.
 */
public final class Certificates {

    private Certificates() {}

    /** Whether {@code openssl} can be run. */
    public static boolean available() {
        return Supervisor.onPath("openssl");
    }

    /** A self-signed CA certificate and its unencrypted RSA 2048 key, valid {@code days}. */
    public static void selfSigned(Path cert, Path key, String commonName, int days) {
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key.toString(), "-out", cert.toString(),
                "-days", Integer.toString(days), "-subj", "/CN=" + commonName);
    }

    /**
     * A certificate for {@code commonName} signed by {@code caCert}, with a new unencrypted key, and
     * {@code extension} (an {@code openssl x509 -extfile} line such as
     * {@code subjectAltName=DNS:localhost}). The request and extension files stay beside the certificate.
     */
    public static void issue(Path cert, Path key, String commonName, Path caCert, Path caKey, String extension, int days) {
        Path csr = cert.resolveSibling(cert.getFileName() + ".csr");
        Path ext = cert.resolveSibling(cert.getFileName() + ".ext");
        write(ext, extension + "\n");
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", key.toString(), "-out", csr.toString(),
                "-subj", "/CN=" + commonName);
        openssl("x509", "-req", "-in", csr.toString(), "-CA", caCert.toString(), "-CAkey", caKey.toString(),
                "-CAcreateserial", "-out", cert.toString(), "-days", Integer.toString(days), "-extfile", ext.toString());
    }

    /**
     * {@code key} encrypted with {@code password} into {@code out} (PKCS #8): PBES2 with AES-256-CBC as
     * {@code openssl pkcs8 -topk8} makes by default, or, with {@code pbes1}, PBES1 with 3DES, the scheme
     * the Kafka clients' PEM reader takes. The password goes through a file, never onto a command line.
     */
    public static void encrypt(Path key, Path out, String password, boolean pbes1) {
        Path pass = out.resolveSibling(out.getFileName() + ".pass");
        write(pass, password);
        try {
            openssl("pkcs8", "-topk8", "-in", key.toString(), "-out", out.toString(),
                    pbes1 ? "-v1" : "-v2", pbes1 ? "PBE-SHA1-3DES" : "aes-256-cbc", "-passout", "file:" + pass);
        } finally {
            Supervisor.deleteQuietly(pass);
        }
    }

    /** {@code key} rewritten in the traditional (PKCS #1, "BEGIN RSA PRIVATE KEY") form. */
    public static void traditional(Path key, Path out) {
        openssl("rsa", "-in", key.toString(), "-out", out.toString(), "-traditional");
    }

    /** A new RSA 2048 key, unencrypted PKCS #8. */
    public static void rsaKey(Path key) {
        openssl("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key.toString());
    }

    /**
     * The public half of an unencrypted PKCS #8 RSA key as a JSON Web Key Set (RFC 7517) of one RS256
     * signing key named {@code kid}: what a broker checks OAUTHBEARER tokens against.
     */
    public static String jwks(Path rsaKey, String kid) {
        RSAPrivateCrtKey key = readRsaKey(rsaKey);
        return "{\"keys\": [{\"kty\": \"RSA\", \"kid\": \"" + kid + "\", \"use\": \"sig\", \"alg\": \"RS256\", \"n\": \""
                + base64Url(key.getModulus()) + "\", \"e\": \"" + base64Url(key.getPublicExponent()) + "\"}]}";
    }

    /** An unsigned big-endian integer as RFC 7518's Base64urlUInt: no sign byte, no padding. */
    static String base64Url(BigInteger value) {
        byte[] bytes = value.toByteArray();
        if (bytes.length > 1 && bytes[0] == 0) {
            bytes = Arrays.copyOfRange(bytes, 1, bytes.length);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    static RSAPrivateCrtKey readRsaKey(Path pem) {
        try {
            String text = Files.readString(pem);
            int begin = text.indexOf("-----BEGIN PRIVATE KEY-----");
            int end = text.indexOf("-----END PRIVATE KEY-----");
            if (begin < 0 || end < begin) {
                throw new ServiceException(pem + " is not an unencrypted PKCS #8 key (BEGIN PRIVATE KEY)");
            }
            byte[] der = Base64.getMimeDecoder().decode(text.substring(begin + 27, end));
            return (RSAPrivateCrtKey) KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (IOException | GeneralSecurityException | ClassCastException e) {
            throw new ServiceException("cannot read the RSA key " + pem + ": " + e.getMessage(), e);
        }
    }

    /** Owner read/write only: for keys. */
    static void ownerOnly(Path... files) {
        for (Path f : files) {
            try {
                Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
            } catch (IOException | UnsupportedOperationException e) {
                throw new ServiceException("cannot restrict the permissions of " + f + ": " + e.getMessage(), e);
            }
        }
    }

    /** Runs {@code openssl args}; fails with its output when it fails. */
    public static void openssl(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add("openssl");
        cmd.addAll(List.of(args));
        Supervisor.Result r = Supervisor.run(cmd, Map.of(), null);
        if (!r.ok()) {
            throw new ServiceException("openssl " + String.join(" ", args) + " failed: " + r.output().strip());
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ServiceException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
