package io.tributary.secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The one secret reader, each case taken from an environment variable and from a file alike: one
 * final line end dropped, every other control character refused, and no message holding any part
 * of the value.
 */
class SecretsTest {

    /** Recognisable, and every piece of it too: a message quoting a slice of it would show. */
    private static final String S = "PLANTED-s3cr3t-q7Xz";

    /** The value of variable V, or of a file with {@code content}, read as a secret. */
    private static String fromEnv(String content) throws IOException {
        return Secrets.read(Map.of("V", content)::get, "V", "x.password-env", null, "x.password-file");
    }

    private static String fromFile(Path dir, String content) throws IOException {
        Path f = Files.writeString(dir.resolve("secret-" + Integer.toHexString(content.hashCode())), content);
        return Secrets.read(name -> null, null, "x.password-env", f.toString(), "x.password-file");
    }

    @Test
    void oneFinalLineEndIsDroppedFromTheEnvironmentAndFilesAlike(@TempDir Path dir) throws Exception {
        Map<String, String> cases = Map.of(
                S, S,
                S + "\n", S,
                S + "\r\n", S,
                "", "",
                "\n", "",
                "pässwörd € 🔑\n", "pässwörd € 🔑",
                " spaces kept ", " spaces kept ");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            assertThat(fromEnv(c.getKey())).as("env %s", c.getKey()).isEqualTo(c.getValue());
            assertThat(fromFile(dir, c.getKey())).as("file %s", c.getKey()).isEqualTo(c.getValue());
        }
    }

    @Test
    void everyOtherControlCharacterIsRefusedNamingTheKeyNeverTheValue(@TempDir Path dir) {
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put(S + "\n\n", "a second line end");
        cases.put(S + "\r\n\r\n", "a second line end");
        cases.put("PLANTED\n" + S, "a line break inside");
        cases.put(S + "\r", "a carriage return");
        cases.put("PLANTED\r" + S, "a carriage return");
        cases.put(S + "\t", "a tab");
        cases.put("\tPLANTED" + S, "a tab");
        for (char c : new char[] {0x00, 0x01, 0x07, 0x1b, 0x1f, 0x7f, 0x80, 0x85, 0x9b, 0x9f}) {
            cases.put("PLANTED" + c + S, String.format("U+%04X", (int) c));
        }
        for (Map.Entry<String, String> c : cases.entrySet()) {
            String value = c.getKey();
            assertThatThrownBy(() -> fromEnv(value)).as("env %s", value)
                    .isInstanceOf(IOException.class)
                    .hasMessageStartingWith("x.password-env: the value of environment variable 'V' holds")
                    .hasMessageContaining(c.getValue())
                    .satisfies(e -> assertQuotesNone(e, value));
            assertThatThrownBy(() -> fromFile(dir, value)).as("file %s", value)
                    .isInstanceOf(IOException.class)
                    .hasMessageStartingWith("x.password-file: the value of '" + dir)
                    .hasMessageContaining(c.getValue())
                    .satisfies(e -> assertQuotesNone(e, value));
        }
    }

    @Test
    void readFailuresNameTheSettingAndWhereNeverWhatWasRead(@TempDir Path dir) throws Exception {
        assertThatThrownBy(() -> Secrets.read(name -> null, "TRIBUTARY_UNSET", "x.password-env", null, "x.password-file"))
                .hasMessage("x.password-env: environment variable 'TRIBUTARY_UNSET' is not set");
        Path absent = dir.resolve("absent");
        assertThatThrownBy(() -> Secrets.read(null, "x.password-env", absent.toString(), "x.password-file"))
                .hasMessage("x.password-file: cannot read '" + absent + "': no such file");
        assertThatThrownBy(() -> Secrets.read(null, "x.password-env", dir.toString(), "x.password-file"))
                .hasMessageStartingWith("x.password-file: cannot read '" + dir + "'");
        // not UTF-8: the bytes around the fault are the secret
        Path latin1 = Files.write(dir.resolve("latin1"), (S + "\u00e9" + S).getBytes(StandardCharsets.ISO_8859_1));
        assertThatThrownBy(() -> Secrets.read(null, "x.password-env", latin1.toString(), "x.password-file"))
                .hasMessage("x.password-file: '" + latin1 + "' is not UTF-8 text")
                .satisfies(e -> assertThat(e.getCause()).isNull());
        // a file no secret is this large: refused before it is held in memory
        Path big = Files.write(dir.resolve("big"), (S + " ".repeat(Secrets.MAX_BYTES)).getBytes(StandardCharsets.US_ASCII));
        assertThatThrownBy(() -> Secrets.read(null, "x.password-env", big.toString(), "x.password-file"))
                .hasMessageContaining("x.password-file: '" + big + "' is larger than 1024 KiB")
                .satisfies(e -> assertQuotesNone(e, S));
        assertThat(Secrets.read(null, "x.password-env", null, "x.password-file")).isNull();
        assertThat(Secrets.read("", "x.password-env", "", "x.password-file")).isNull();
    }

    @Test
    void aVariableNameThatCannotBeOneIsTakenForTheSecretAndNotQuoted() {
        for (String name : new String[] {S + " x", "a=" + S, S + "\n", S + "é"}) {
            assertThatThrownBy(() -> Secrets.read(n -> "whatever", name, "x.password-env", null, "x.password-file"))
                    .as(name)
                    .hasMessageStartingWith("x.password-env: not the name of an environment variable")
                    .satisfies(e -> assertQuotesNone(e, name));
        }
        assertThat(Secrets.isVariableName("CLICKHOUSE_PASSWORD")).isTrue();
        assertThat(Secrets.isVariableName("my.app-password")).isTrue(); // Kubernetes takes these
        assertThat(Secrets.isVariableName("")).isFalse();
    }

    @Test
    void documentsAreReadWholeLineEndsAndAll(@TempDir Path dir) throws Exception {
        String pem = "-----BEGIN PRIVATE KEY-----\nMIIB\r\nAAAA\n-----END PRIVATE KEY-----\n";
        Path f = Files.writeString(dir.resolve("key.pem"), pem);
        assertThat(Secrets.readDocument(f.toString(), "x.key-file")).isEqualTo(pem);
        assertThatThrownBy(() -> Secrets.readDocument(dir.resolve("absent").toString(), "x.key-file"))
                .hasMessageStartingWith("x.key-file: cannot read");
    }

    @Test
    void thePackageImportsNothingOfTheProject() throws Exception {
        // so whatever reads a secret (ClickHouse, Kafka's config provider, the SQL module's driver) can use it
        try (java.util.stream.Stream<Path> sources = Files.list(Path.of("src/main/java/io/tributary/secret"))) {
            for (Path f : (Iterable<Path>) sources::iterator) {
                assertThat(Files.readString(f)).as(f.toString()).doesNotContain("import io.tributary.")
                        .doesNotContain("io.tributary.clickhouse").doesNotContain("io.tributary.kafka")
                        .doesNotContain("io.tributary.config");
            }
        }
    }

    /** Neither the value nor any run of 6 of its characters is in the message, or in its causes'. */
    static void assertQuotesNone(Throwable e, String value) {
        String planted = value.replaceAll("\\p{Cntrl}", "");
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = String.valueOf(t.getMessage());
            for (int i = 0; i + 6 <= planted.length(); i++) {
                assertThat(m).as("message of %s", t).doesNotContain(planted.substring(i, i + 6));
            }
        }
    }
}
