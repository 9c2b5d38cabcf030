package io.tributary.secret;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * The one reader of secrets: the job's ClickHouse password and TLS key password, its Kafka
 * clients' passwords, client secrets and keys (through the Kafka config provider), and the SQL
 * module's JDBC driver all read theirs here, from an environment variable or a file named by a
 * setting, in the process that uses them.
 *
 * <p>A secret value is one line of text: one final line end ({@code \n} or {@code \r\n}) is dropped,
 * from a variable as from a file (a Kubernetes secret mounted as a variable keeps the newline of
 * the file it came from), and any other control character (U+0000-U+001F, U+007F-U+009F: a second
 * line end, a tab, an escape) is refused, because no HTTP header, JAAS option or key derivation
 * takes it as the user meant it. Every failure names the setting and, where there is one, the
 * variable or the path; never the value, nor anything read from the file.
 *
 * <p>This package imports nothing of the project: whatever reads a secret can depend on it.
 */
public final class Secrets {

    /** A secret file larger than this is not a secret: refused before it costs memory. */
    public static final int MAX_BYTES = 1 << 20;

    private Secrets() {}

    /**
     * The secret in the environment variable {@code env}, else in the file {@code file}, as one
     * line of text; null when neither is given (null or empty).
     *
     * @param envKey the setting that names the variable, for messages
     * @param fileKey the setting that names the file, for messages
     * @throws IOException naming {@code envKey} or {@code fileKey}: the variable is unset, the file
     *     unreadable, too large or not UTF-8, the value holds a control character
     */
    public static String read(String env, String envKey, String file, String fileKey) throws IOException {
        return read(System::getenv, env, envKey, file, fileKey);
    }

    /** {@link #read(String, String, String, String)} with the environment given, for tests. */
    static String read(UnaryOperator<String> environment, String env, String envKey, String file, String fileKey)
            throws IOException {
        if (env != null && !env.isEmpty()) {
            checkName(env, envKey);
            String v = environment.apply(env);
            if (v == null) {
                throw new IOException(envKey + ": environment variable '" + env + "' is not set");
            }
            return line(v, envKey, "environment variable '" + env + "'");
        }
        if (file != null && !file.isEmpty()) {
            return line(readText(file, fileKey), fileKey, shown(file));
        }
        return null;
    }

    /**
     * The whole text of {@code file} (UTF-8), line ends and all: a PEM key or certificate chain,
     * which is a secret too, but no one-line value.
     *
     * @throws IOException naming {@code fileKey} and the path
     */
    public static String readDocument(String file, String fileKey) throws IOException {
        if (file == null || file.isEmpty()) {
            throw new IOException(fileKey + ": no file given");
        }
        return readText(file, fileKey);
    }

    /**
     * True when {@code name} can be an environment variable's name: printable ASCII without
     * {@code =} or spaces. A value that cannot is most likely the secret itself, given where its
     * variable's name belongs, so messages about it never quote it.
     */
    public static boolean isVariableName(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c <= ' ' || c >= 0x7f || c == '=') {
                return false;
            }
        }
        return true;
    }

    private static void checkName(String env, String envKey) throws IOException {
        if (!isVariableName(env)) {
            // not quoted: a name with spaces or symbols outside ASCII is most likely the secret itself
            throw new IOException(envKey + ": not the name of an environment variable (printable ASCII without '='"
                    + " or spaces); give the variable's name, never the secret itself");
        }
    }

    /** The value without one final line end; refused when any other control character remains. */
    private static String line(String v, String key, String source) throws IOException {
        String s = v.endsWith("\r\n") ? v.substring(0, v.length() - 2) : v.endsWith("\n") ? v.substring(0, v.length() - 1) : v;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isISOControl(c)) {
                // the kind of character helps, where it is or what is around it would tell of the secret
                boolean lineEnd = c == '\n' || c == '\r' && i + 1 < s.length() && s.charAt(i + 1) == '\n';
                throw new IOException(key + ": the value of " + source + " holds "
                        + (lineEnd ? "a second line end or a line break inside" : describe(c))
                        + "; a secret is one line (one final line end is dropped, nothing else)");
            }
        }
        return s;
    }

    private static String describe(char c) {
        switch (c) {
            case '\r':
                return "a carriage return that ends no line";
            case '\t':
                return "a tab";
            default:
                return String.format("the control character U+%04X", (int) c);
        }
    }

    private static String reason(Exception e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof java.nio.file.FileSystemException && ((java.nio.file.FileSystemException) e).getReason() != null) {
            return ((java.nio.file.FileSystemException) e).getReason();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /**
     * A secret file's path for a message: quoted when it looks like a path (it holds a '/'), else
     * not at all, since a value without one may be the secret itself given in the wrong setting.
     */
    static String shown(String file) {
        return file.indexOf('/') >= 0 || file.indexOf('\\') >= 0 ? "'" + file + "'" : "the file it names";
    }

    private static String readText(String file, String fileKey) throws IOException {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(Path.of(file))) {
            bytes = in.readNBytes(MAX_BYTES + 1);
        } catch (IOException | RuntimeException e) {
            // the reason (no such file, access denied) without the exception, whose message repeats the path
            throw new IOException(fileKey + ": cannot read " + shown(file) + ": " + reason(e));
        }
        if (bytes.length > MAX_BYTES) {
            throw new IOException(fileKey + ": " + shown(file) + " is larger than " + (MAX_BYTES >> 10) + " KiB; a secret"
                    + " file holds the secret alone");
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            // no cause: its message is harmless, but the bytes around it are the secret
            throw new IOException(fileKey + ": " + shown(file) + " is not UTF-8 text");
        }
    }
}
