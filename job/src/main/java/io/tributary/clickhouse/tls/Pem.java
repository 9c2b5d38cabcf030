package io.tributary.clickhouse.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * PEM files as OpenSSL writes them (RFC 7468): certificate bundles, and private keys in PKCS #8,
 * plain ({@code BEGIN PRIVATE KEY}) or password-encrypted ({@code BEGIN ENCRYPTED PRIVATE KEY},
 * e.g. PBES2 with AES, what {@code openssl pkcs8 -topk8} makes), plus RSA keys in PKCS #1
 * ({@code BEGIN RSA PRIVATE KEY}). Text around the blocks (OpenSSL's {@code subject=} lines) is
 * skipped. Every failure names the setting the file came from.
 */
public final class Pem {

    private Pem() {}

    private static final Pattern BLOCK =
            Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----\\s*(.*?)-----END \\1-----", Pattern.DOTALL);
    private static final String[] KEY_ALGORITHMS = {"RSA", "EC", "EdDSA", "RSASSA-PSS", "XDH", "DSA"};

    /** The certificates of a PEM file, in file order; at least one. */
    public static List<X509Certificate> certificates(Path file, String key) throws IOException {
        List<X509Certificate> out = new ArrayList<>();
        try {
            CertificateFactory f = CertificateFactory.getInstance("X.509");
            for (Block b : blocks(file, key)) {
                if (b.type.equals("CERTIFICATE") || b.type.equals("TRUSTED CERTIFICATE")) {
                    out.add((X509Certificate) f.generateCertificate(new ByteArrayInputStream(b.der)));
                }
            }
        } catch (CertificateException e) {
            throw new IOException(key + ": '" + file + "' holds a certificate that cannot be read: " + e.getMessage(), e);
        }
        if (out.isEmpty()) {
            throw new IOException(key + ": '" + file + "' holds no PEM certificate (-----BEGIN CERTIFICATE-----)");
        }
        return out;
    }

    /**
     * The private key of a PEM file.
     *
     * @param password the password of an encrypted key, or null
     * @param passwordKey the setting that gives the password ({@code ...-env} or {@code ...-file}), for messages
     */
    public static PrivateKey privateKey(Path file, String key, String password, String passwordKey) throws IOException {
        for (Block b : blocks(file, key)) {
            switch (b.type) {
                case "PRIVATE KEY":
                    return pkcs8(b.der, file, key);
                case "RSA PRIVATE KEY":
                    if (b.headers) {
                        throw new IOException(key + ": '" + file + "' is an RSA key encrypted in OpenSSL's old format;"
                                + " convert it to PKCS #8: openssl pkcs8 -topk8 -in OLD -out NEW");
                    }
                    return pkcs8(pkcs1ToPkcs8(b.der), file, key);
                case "ENCRYPTED PRIVATE KEY":
                    if (password == null) {
                        String base = passwordKey.replaceAll("-(env|file)$", "");
                        throw new IOException(key + ": '" + file + "' is encrypted; give its password with "
                                + base + "-env or " + base + "-file");
                    }
                    return pkcs8(decrypt(b.der, password, file, key, passwordKey), file, key);
                case "EC PRIVATE KEY":
                    throw new IOException(key + ": '" + file + "' is an EC key in OpenSSL's old format; convert it"
                            + " to PKCS #8: openssl pkcs8 -topk8 -nocrypt -in OLD -out NEW");
                default:
                    // a certificate in the same file, parameters: look on
            }
        }
        throw new IOException(key + ": '" + file + "' holds no PEM private key (-----BEGIN PRIVATE KEY-----)");
    }

    private static byte[] decrypt(byte[] der, String password, Path file, String key, String passwordKey)
            throws IOException {
        try {
            EncryptedPrivateKeyInfo info = new EncryptedPrivateKeyInfo(der);
            AlgorithmParameters params = info.getAlgParameters();
            // PBES2's parameters name the whole scheme (e.g. PBEWithHmacSHA256AndAES_256)
            String algorithm = params != null && info.getAlgName().equals("PBES2") ? params.toString() : info.getAlgName();
            SecretKeyFactory f = SecretKeyFactory.getInstance(algorithm);
            Cipher cipher = Cipher.getInstance(algorithm);
            cipher.init(Cipher.DECRYPT_MODE, f.generateSecret(new PBEKeySpec(password.toCharArray())), params);
            return info.getKeySpec(cipher).getEncoded();
        } catch (java.security.spec.InvalidKeySpecException e) {
            throw new IOException(passwordKey + ": the password does not decrypt '" + file + "' (" + key + ")", e);
        } catch (GeneralSecurityException | IOException e) {
            throw new IOException(key + ": cannot decrypt '" + file + "': " + e, e);
        }
    }

    private static PrivateKey pkcs8(byte[] der, Path file, String key) throws IOException {
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (GeneralSecurityException e) {
                // not this algorithm
            }
        }
        throw new IOException(key + ": '" + file + "' holds a private key of an algorithm Java cannot read");
    }

    /** PKCS #1 RSAPrivateKey inside PKCS #8 PrivateKeyInfo {version 0, rsaEncryption with NULL, key}. */
    static byte[] pkcs1ToPkcs8(byte[] pkcs1) {
        byte[] algorithm = {0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};
        byte[] version = {0x02, 0x01, 0x00};
        byte[] octets = der(0x04, pkcs1);
        byte[] body = new byte[version.length + algorithm.length + octets.length];
        System.arraycopy(version, 0, body, 0, version.length);
        System.arraycopy(algorithm, 0, body, version.length, algorithm.length);
        System.arraycopy(octets, 0, body, version.length + algorithm.length, octets.length);
        return der(0x30, body);
    }

    private static byte[] der(int tag, byte[] content) {
        int n = content.length;
        byte[] length = n < 0x80 ? new byte[] {(byte) n}
                : n < 0x100 ? new byte[] {(byte) 0x81, (byte) n}
                : n < 0x10000 ? new byte[] {(byte) 0x82, (byte) (n >> 8), (byte) n}
                : new byte[] {(byte) 0x83, (byte) (n >> 16), (byte) (n >> 8), (byte) n};
        byte[] out = new byte[1 + length.length + n];
        out[0] = (byte) tag;
        System.arraycopy(length, 0, out, 1, length.length);
        System.arraycopy(content, 0, out, 1 + length.length, n);
        return out;
    }

    private record Block(String type, byte[] der, boolean headers) {}

    private static List<Block> blocks(Path file, String key) throws IOException {
        String text;
        try {
            // ISO-8859-1 reads any byte: comments in a bundle may be UTF-8, the blocks are ASCII
            text = Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new IOException(key + ": cannot read '" + file + "': " + e.getMessage(), e);
        }
        List<Block> out = new ArrayList<>();
        Matcher m = BLOCK.matcher(text);
        while (m.find()) {
            String body = m.group(2);
            boolean headers = body.contains(":"); // RFC 1421 headers (Proc-Type, DEK-Info)
            if (headers) {
                int blank = body.indexOf("\n\n");
                body = blank < 0 ? "" : body.substring(blank);
            }
            try {
                out.add(new Block(m.group(1), Base64.getMimeDecoder().decode(body), headers));
            } catch (IllegalArgumentException e) {
                throw new IOException(key + ": '" + file + "' has a damaged PEM block (" + m.group(1) + ")", e);
            }
        }
        return out;
    }
}
