package io.tributary.services;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAPrivateCrtKey;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The certificate factory, checked with the JDK's own X.509 and key readers rather than with openssl. */
class CertificatesTest {

    @TempDir
    Path tmp;

    private static X509Certificate cert(Path pem) throws Exception {
        try (InputStream in = Files.newInputStream(pem)) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }

    @Test
    void aCaSignsAServerCertificateForItsNames() throws Exception {
        Path ca = tmp.resolve("ca.pem");
        Path caKey = tmp.resolve("ca.key");
        Certificates.selfSigned(ca, caKey, "Test CA", 2);
        Path server = tmp.resolve("server.pem");
        Path serverKey = tmp.resolve("server.key");
        Certificates.issue(server, serverKey, "localhost", ca, caKey, "subjectAltName=DNS:localhost,IP:127.0.0.1", 2);

        X509Certificate caCert = cert(ca);
        X509Certificate serverCert = cert(server);
        assertThat(caCert.getSubjectX500Principal().getName()).isEqualTo("CN=Test CA");
        caCert.verify(caCert.getPublicKey());
        serverCert.verify(caCert.getPublicKey()); // throws when another key signed it
        assertThat(serverCert.getSubjectX500Principal().getName()).isEqualTo("CN=localhost");
        assertThat(serverCert.getIssuerX500Principal()).isEqualTo(caCert.getSubjectX500Principal());
        assertThat(serverCert.getSubjectAlternativeNames()).containsExactlyInAnyOrder(List.of(2, "localhost"), List.of(7, "127.0.0.1"));
        long days = (serverCert.getNotAfter().getTime() - serverCert.getNotBefore().getTime()) / 86_400_000L;
        assertThat(days).isEqualTo(2);
        // the key in server.key is the certificate's
        RSAPrivateCrtKey key = Certificates.readRsaKey(serverKey);
        assertThat(((java.security.interfaces.RSAPublicKey) serverCert.getPublicKey()).getModulus()).isEqualTo(key.getModulus());
    }

    @Test
    void aClientCertificateFromAnotherCaDoesNotVerify() throws Exception {
        Certificates.selfSigned(tmp.resolve("a.pem"), tmp.resolve("a.key"), "A", 2);
        Certificates.selfSigned(tmp.resolve("b.pem"), tmp.resolve("b.key"), "B", 2);
        Certificates.issue(tmp.resolve("c.pem"), tmp.resolve("c.key"), "tributary", tmp.resolve("b.pem"),
                tmp.resolve("b.key"), "extendedKeyUsage=clientAuth", 2);
        X509Certificate client = cert(tmp.resolve("c.pem"));
        assertThat(client.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.2");
        assertThatThrownBy(() -> client.verify(cert(tmp.resolve("a.pem")).getPublicKey()))
                .isInstanceOf(java.security.SignatureException.class);
    }

    @Test
    void encryptedKeysOpenWithTheirPasswordOnly() throws Exception {
        Path key = tmp.resolve("k.key");
        Certificates.rsaKey(key);
        for (boolean pbes1 : new boolean[] {false, true}) {
            Path out = tmp.resolve("k-" + pbes1 + ".key");
            Certificates.encrypt(key, out, "s3cret", pbes1);
            String pem = Files.readString(out);
            assertThat(pem).startsWith("-----BEGIN ENCRYPTED PRIVATE KEY-----").doesNotContain("s3cret");
            assertThat(tmp.resolve(out.getFileName() + ".pass")).as("the password file is gone").doesNotExist();
            byte[] der = Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
            javax.crypto.EncryptedPrivateKeyInfo info = new javax.crypto.EncryptedPrivateKeyInfo(der);
            assertThat(info.getAlgName()).isEqualTo(pbes1 ? "PBEWithSHA1AndDESede" : "PBES2");
            Path pass = Files.writeString(tmp.resolve("pass"), "s3cret");
            Path wrong = Files.writeString(tmp.resolve("wrong"), "s3cret!");
            Supervisor.Result opened = Supervisor.run(List.of("openssl", "rsa", "-in", out.toString(), "-passin",
                    "file:" + pass, "-noout", "-modulus"), Map.of(), null);
            assertThat(opened.output().strip())
                    .isEqualTo("Modulus=" + Certificates.readRsaKey(key).getModulus().toString(16).toUpperCase(java.util.Locale.ROOT));
            assertThat(Supervisor.run(List.of("openssl", "rsa", "-in", out.toString(), "-passin", "file:" + wrong, "-noout"),
                    Map.of(), null).ok()).isFalse();
        }
        Certificates.traditional(key, tmp.resolve("pkcs1.key"));
        assertThat(Files.readString(tmp.resolve("pkcs1.key"))).startsWith("-----BEGIN RSA PRIVATE KEY-----");
    }

    @Test
    void theJwksHoldsThePublicHalfOfTheKey() throws Exception {
        Path key = tmp.resolve("oauth.key");
        Certificates.rsaKey(key);
        String jwks = Certificates.jwks(key, "tributary-test");
        RSAPrivateCrtKey k = Certificates.readRsaKey(key);
        String n = jwks.replaceAll(".*\"n\": \"([^\"]+)\".*", "$1");
        assertThat(new BigInteger(1, Base64.getUrlDecoder().decode(n))).isEqualTo(k.getModulus());
        assertThat(Base64.getUrlDecoder().decode(n)).hasSize(256); // 2048 bits, no sign byte
        assertThat(jwks).isEqualTo("{\"keys\": [{\"kty\": \"RSA\", \"kid\": \"tributary-test\", \"use\": \"sig\","
                + " \"alg\": \"RS256\", \"n\": \"" + n + "\", \"e\": \"AQAB\"}]}");
        // what openssl says the modulus is
        String modulus = Supervisor.run(List.of("openssl", "rsa", "-in", key.toString(), "-noout", "-modulus"), Map.of(), null)
                .output().strip();
        assertThat(modulus).isEqualTo("Modulus=" + k.getModulus().toString(16).toUpperCase(java.util.Locale.ROOT));
    }

    @Test
    void base64UrlUIntDropsTheSignByte() {
        assertThat(Certificates.base64Url(BigInteger.valueOf(65537))).isEqualTo("AQAB");
        assertThat(Certificates.base64Url(BigInteger.valueOf(255))).isEqualTo("_w"); // 0x00ff -> 0xff
        assertThat(Certificates.base64Url(BigInteger.ZERO)).isEqualTo("AA");
    }

    @Test
    void aFailingOpensslCallNamesItsArguments() {
        assertThatThrownBy(() -> Certificates.traditional(tmp.resolve("missing.key"), tmp.resolve("o.key")))
                .isInstanceOf(ServiceException.class)
                .hasMessageStartingWith("openssl rsa -in " + tmp.resolve("missing.key") + " -out");
    }

    @Test
    void theBrokersTlsIsMadeOnceWithKeysForItsOwnerOnly() throws Exception {
        Path tls = tmp.resolve("tls");
        Kafka.makeTls(tls);
        X509Certificate ca = cert(tls.resolve("ca.pem"));
        X509Certificate broker = cert(tls.resolve("broker.pem"));
        broker.verify(ca.getPublicKey());
        assertThat(ca.getSubjectX500Principal().getName()).isEqualTo("CN=Tributary local Kafka CA");
        assertThat(broker.getSubjectAlternativeNames()).containsExactlyInAnyOrder(List.of(2, "localhost"), List.of(7, "127.0.0.1"));
        assertThat(Files.readString(tls.resolve("broker-keystore.pem")))
                .isEqualTo(Files.readString(tls.resolve("broker.key")) + Files.readString(tls.resolve("broker.pem")));
        assertThat(Files.readString(tls.resolve("jwks.json"))).isEqualTo(Certificates.jwks(tls.resolve("oauth.key"), "tributary-test") + "\n");
        for (String secret : new String[] {"ca.key", "broker.key", "broker-keystore.pem", "oauth.key"}) {
            assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(tls.resolve(secret))))
                    .as(secret).isEqualTo("rw-------");
        }
        byte[] before = Files.readAllBytes(tls.resolve("ca.pem"));
        Kafka.makeTls(tls);
        assertThat(Files.readAllBytes(tls.resolve("ca.pem"))).as("kept, so issued client certificates stay valid").isEqualTo(before);
    }
}
