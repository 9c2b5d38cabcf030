package io.tributary.clickhouse.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.clickhouse.tls.Pem;
import io.tributary.testing.TlsFiles;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;

/** PEM files as openssl writes them. */
class PemTest {

    @TempDir
    static Path dir;

    private static TlsFiles files;

    @BeforeAll
    static void make() throws Exception {
        files = TlsFiles.make(dir.resolve("tls"));
    }

    @Test
    void keysInPkcs8Pkcs1AndEncryptedPkcs8AreTheSameKey() throws Exception {
        PrivateKey plain = Pem.privateKey(files.clientKey, "k", null, "p-file");
        assertThat(Pem.privateKey(files.clientKeyPkcs1, "k", null, "p-file").getEncoded()).isEqualTo(plain.getEncoded());
        assertThat(Pem.privateKey(files.clientKeyEncrypted, "k", TlsFiles.KEY_PASSWORD, "p-file").getEncoded())
                .isEqualTo(plain.getEncoded());
        assertThat(plain.getAlgorithm()).isEqualTo("RSA");
    }

    @Test
    void anEncryptedKeyNeedsItsPasswordAndTheMessagesNameTheSettings() {
        assertThatThrownBy(() -> Pem.privateKey(files.clientKeyEncrypted, "clickhouse.tls.client-key-file", null,
                "clickhouse.tls.client-key-password-file"))
                .hasMessageContaining("is encrypted; give its password with clickhouse.tls.client-key-password-env or"
                        + " clickhouse.tls.client-key-password-file");
        assertThatThrownBy(() -> Pem.privateKey(files.clientKeyEncrypted, "clickhouse.tls.client-key-file", "wrong",
                "clickhouse.tls.client-key-password-env"))
                .hasMessageStartingWith("clickhouse.tls.client-key-password-env: the password does not decrypt");
        assertThatThrownBy(() -> Pem.privateKey(files.clientCert, "clickhouse.tls.client-key-file", null, "p-file"))
                .hasMessageStartingWith("clickhouse.tls.client-key-file: ").hasMessageContaining("holds no PEM private key");
        assertThatThrownBy(() -> Pem.privateKey(dir.resolve("absent.key"), "clickhouse.tls.client-key-file", null, "p-file"))
                .hasMessageStartingWith("clickhouse.tls.client-key-file: cannot read");
    }

    @Test
    void bundlesKeepEveryCertificateAndSkipTextAroundThem() throws Exception {
        Path bundle = dir.resolve("bundle.pem");
        Files.writeString(bundle, "subject=CN = Tributary Test CA\n" + Files.readString(files.ca)
                + "\n# the other one\n" + Files.readString(files.otherCa));
        List<X509Certificate> certs = Pem.certificates(bundle, "clickhouse.tls.ca-file");
        assertThat(certs).extracting(c -> c.getSubjectX500Principal().getName())
                .containsExactly("CN=Tributary Test CA", "CN=Some Other CA");
        assertThatThrownBy(() -> Pem.certificates(files.clientKey, "clickhouse.tls.ca-file"))
                .hasMessageStartingWith("clickhouse.tls.ca-file: ").hasMessageContaining("holds no PEM certificate");
    }

    @Test
    void anEcKeyInOpenSslsOldFormatIsRefusedSayingHowToConvertIt() throws Exception {
        Path ec = dir.resolve("ec.key");
        Process p = new ProcessBuilder("openssl", "ecparam", "-genkey", "-name", "prime256v1", "-noout", "-out", ec.toString())
                .redirectErrorStream(true).start();
        assertThat(p.waitFor()).isZero();
        assertThatThrownBy(() -> Pem.privateKey(ec, "clickhouse.tls.client-key-file", null, "p-file"))
                .hasMessageContaining("openssl pkcs8 -topk8 -nocrypt");
    }
}
