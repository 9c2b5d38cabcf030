package io.tributary.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.tools.cli.Tributary;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * docs/configuration.md's generated part equals what {@link ConfigReference} renders from the
 * option constants, and what it renders is true to them: every default parses back to itself,
 * every listed value parses, every doc link leads to a heading that exists.
 */
class ConfigReferenceTest {

    private static final Path DOCS = Path.of(System.getProperty("user.dir")).resolve("../docs").normalize();
    private static final String REGENERATE =
            "mvn -B -o -pl job test -Dtest=ConfigReferenceTest -Dtributary.docs.write=true (from the repository's root)";

    @Test
    void docsConfigurationIsCurrent() throws Exception {
        Path file = DOCS.resolve("configuration.md");
        String now = Files.readString(file, StandardCharsets.UTF_8);
        String want = ConfigReference.updated(now);
        if (Boolean.getBoolean("tributary.docs.write") && !now.equals(want)) {
            Files.writeString(file, want, StandardCharsets.UTF_8);
            now = want;
        }
        assertThat(now).as("docs/configuration.md is stale; regenerate it with " + REGENERATE).isEqualTo(want);
    }

    @Test
    void everyOptionIsListedOnceWithItsKeyDefaultAndType() {
        String md = ConfigReference.markdown();
        for (Option<?> o : TributaryOptions.ALL) {
            assertThat(ConfigReference.sectionsOf(o.key())).as(o.key()).isEqualTo(1);
            assertThat(md).contains("| `" + o.key() + "` | ");
            assertThat(o.description()).as(o.key()).isNotBlank();
        }
        assertThat(md).contains("| `sink.delivery` | `at-least-once` | `at-least-once` \\| `exactly-once` | ")
                .contains("| `sink.batch.max-bytes` | `64 mb` | size, below `2 gb` | ")
                .contains("| `signals` | `traces,logs,metrics` | comma-separated `traces`, `logs`, `metrics`, `profiles` | ")
                .contains("| `parallelism` |  | integer, at least 1 | ")
                .contains("| `kafka.properties.*` |  |  | ")
                .contains("| `flink.*` |  |  | ");
    }

    @Test
    void defaultsAsShownParseBackToTheDefaults() {
        for (Option<?> o : TributaryOptions.ALL) {
            if (o.defaultValue() != null) {
                assertThat((Object) o.parse(ConfigReference.defaultText(o))).as(o.key()).isEqualTo(o.defaultValue());
            }
        }
    }

    @Test
    void everyListedValueParses() {
        for (Option<?> o : TributaryOptions.ALL) {
            for (String v : o.type().values()) {
                o.parse(v);
            }
        }
    }

    @Test
    void linksInTheDescriptionsLeadToHeadingsThatExist() throws Exception {
        Matcher m = Pattern.compile("\\]\\(([a-z0-9-]+\\.md)?(?:#([a-z0-9-]+))?\\)").matcher(ConfigReference.markdown());
        int links = 0;
        while (m.find()) {
            Path file = DOCS.resolve(m.group(1) == null ? "configuration.md" : m.group(1));
            assertThat(file).as(m.group()).exists();
            if (m.group(2) != null) {
                assertThat(anchors(Files.readString(file, StandardCharsets.UTF_8))).as(m.group()).contains(m.group(2));
            }
            links++;
        }
        assertThat(links).isGreaterThan(5);
    }

    @Test
    void runHelpPrintsTheSameReference() {
        PrintStream stdout = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            Tributary.main(new String[] {"run", "--help"});
        } catch (Exception e) {
            throw new AssertionError(e);
        } finally {
            System.setOut(stdout);
        }
        String help = out.toString(StandardCharsets.UTF_8);
        assertThat(help).isEqualTo(ConfigReference.text());
        for (Option<?> o : TributaryOptions.ALL) {
            assertThat(help).contains("\n  " + o.key() + "  (");
        }
        assertThat(help).contains("  sink.delivery  (at-least-once | exactly-once; default at-least-once)\n")
                .doesNotContain("`");
    }

    /** GitHub's anchors of a Markdown file's headings. */
    private static Set<String> anchors(String markdown) {
        Set<String> out = new HashSet<>();
        boolean code = false;
        for (String line : markdown.split("\n")) {
            code ^= line.startsWith("```");
            if (!code && line.startsWith("#")) {
                String title = line.replaceFirst("^#+ ", "").toLowerCase(Locale.ROOT);
                out.add(title.replaceAll("[^a-z0-9 _-]", "").replace(' ', '-'));
            }
        }
        return out;
    }
}
