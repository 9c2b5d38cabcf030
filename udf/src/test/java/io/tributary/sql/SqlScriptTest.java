package io.tributary.sql;

import io.tributary.config.ConfigException;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SqlScriptTest {

    @Test
    void splitsAtSemicolonsOutsideLiteralsIdentifiersAndComments() {
        String script = "-- a comment; not a statement end\n"
                + "CREATE TABLE t (`a;b` STRING) WITH ('k' = 'v;w', 'q' = 'it''s; fine');\n"
                + "/* block; comment */ INSERT INTO t SELECT \"x;y\" FROM s;\n"
                + ";  \n -- only a comment\n";
        assertThat(SqlScript.statements(script)).containsExactly(
                "-- a comment; not a statement end\nCREATE TABLE t (`a;b` STRING) WITH ('k' = 'v;w', 'q' = 'it''s; fine')",
                "/* block; comment */ INSERT INTO t SELECT \"x;y\" FROM s");
    }

    @Test
    void aStatementSetIsOneStatementOfInserts() {
        String script = "CREATE VIEW v AS SELECT 1;\nEXECUTE STATEMENT SET \n  BEGIN\nINSERT INTO a SELECT * FROM v;\n"
                + "-- second\nINSERT INTO b SELECT * FROM v;\nEND;\nSELECT 2";
        List<String> statements = SqlScript.statements(script);
        assertThat(statements).hasSize(3);
        assertThat(SqlScript.statementSetInserts(statements.get(1)))
                .containsExactly("INSERT INTO a SELECT * FROM v", "-- second\nINSERT INTO b SELECT * FROM v");
        assertThat(statements.get(2)).isEqualTo("SELECT 2");
        // the SQL client's form, and EXPLAIN forms, stay one statement too
        List<String> client = SqlScript.statements("BEGIN STATEMENT SET;\n-- a\nINSERT INTO a SELECT 1;\nINSERT INTO b SELECT 2;\nEND;");
        assertThat(client).hasSize(1);
        assertThat(SqlScript.statementSetInserts(client.get(0))).containsExactly("-- a\nINSERT INTO a SELECT 1", "INSERT INTO b SELECT 2");
        assertThat(SqlScript.statements("EXPLAIN CHANGELOG_MODE STATEMENT SET BEGIN INSERT INTO a SELECT 1; END; SELECT 3"))
                .containsExactly("EXPLAIN CHANGELOG_MODE STATEMENT SET BEGIN INSERT INTO a SELECT 1; END", "SELECT 3");
        assertThat(SqlScript.statements("EXPLAIN STATEMENT SET BEGIN INSERT INTO a SELECT 1; INSERT INTO b SELECT 2; END;"))
                .containsExactly("EXPLAIN STATEMENT SET BEGIN INSERT INTO a SELECT 1; INSERT INTO b SELECT 2; END");
        assertThatThrownBy(() -> SqlScript.statements("EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT 1;"))
                .hasMessageContaining("no END");
        assertThatThrownBy(() -> SqlScript.statementSetInserts("EXECUTE STATEMENT SET BEGIN CREATE TABLE x (a INT); END"))
                .hasMessageContaining("INSERT statements only");
    }

    @Test
    void variablesAndDefaults() {
        String text = "SELECT '${a}', '${b.c-d:-60}', '${b.c-d:-60}', '${e:-}'";
        assertThat(SqlScript.variables(text)).containsExactly("a", "b.c-d", "e");
        assertThat(SqlScript.substitute(text, Map.of("a", "x$1\\"))).isEqualTo("SELECT 'x$1\\', '60', '60', ''");
        assertThat(SqlScript.substitute(text, Map.of("a", "x", "b.c-d", "30"))).isEqualTo("SELECT 'x', '30', '30', ''");
        assertThatThrownBy(() -> SqlScript.substitute("SELECT ${missing.key}", Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("missing.key: the script reads ${missing.key}; pass --missing.key VALUE");
    }

    /** A group id or topic as users have them: quotes, a backslash, a line break, a semicolon, a comment start. */
    private static final String ODD = "it's \"a\" `b` \\ c;\n-- d /* e */ f''";

    @Test
    void aValueInAStringLiteralIsThatStringWhateverItHolds() {
        String script = "CREATE TABLE t (a STRING) WITH ('k' = '${v}', 'k2' = 'x-${v}-y');\nSELECT '${v:-it's}', '${w:-it's}'";
        List<String> statements = SqlScript.statements(SqlScript.substitute(script, Map.of("v", ODD)));
        String quoted = ODD.replace("'", "''");
        assertThat(statements).containsExactly(
                "CREATE TABLE t (a STRING) WITH ('k' = '" + quoted + "', 'k2' = 'x-" + quoted + "-y')",
                "SELECT '" + quoted + "', 'it''s'");
        // as Flink's SET reads it back: the value itself
        assertThat(SqlScript.setting(SqlScript.substitute("SET 'a' = '${v}'", Map.of("v", ODD))))
                .isEqualTo(new SqlScript.Setting("a", ODD));
        // a back-quoted name is that name; a placeholder after a quoted default is still in code
        assertThat(SqlScript.substitute("SELECT `${v}` FROM `x${v}`", Map.of("v", "a`b")))
                .isEqualTo("SELECT `a``b` FROM `xa``b`");
    }

    @Test
    void outsideQuotesOnlyNumbersNamesAndTheRunnersFragmentsAreTaken() {
        assertThat(SqlScript.substitute("SELECT ${n} FROM ${t} LIMIT ${m}", Map.of("n", "-1.5e3", "t", "cat.db.tbl", "m", "10")))
                .isEqualTo("SELECT -1.5e3 FROM cat.db.tbl LIMIT 10");
        assertThat(SqlScript.substitute("WITH ('a' = 'b'${opts})", Map.of("opts", ", 'c' = 'it''s'"), java.util.Set.of("opts")))
                .isEqualTo("WITH ('a' = 'b', 'c' = 'it''s')");
        for (String v : new String[] {ODD, "1; DROP TABLE t", "a b", "x'", "--", "1 --"}) {
            assertThatThrownBy(() -> SqlScript.substitute("SELECT ${v}", Map.of("v", v)))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageStartingWith("v: the script puts ${v} outside quotes")
                    .hasMessageNotContaining(v);
        }
        // a default outside quotes is a value too
        assertThatThrownBy(() -> SqlScript.substitute("SELECT ${v:-a b}", Map.of()))
                .hasMessageStartingWith("v: the script puts ${v} outside quotes");
    }

    @Test
    void whatCannotBeWrittenWhereThePlaceholderStandsIsRefusedNamingTheKey() {
        assertThatThrownBy(() -> SqlScript.substitute("SELECT \"${v}\"", Map.of("v", "a\"b")))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("v: its value has a \" and the script puts ${v}");
        assertThatThrownBy(() -> SqlScript.substitute("-- reads ${v}\nSELECT 1", Map.of("v", "x\nDROP TABLE t")))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("v: its value has a line break");
        assertThatThrownBy(() -> SqlScript.substitute("/* reads ${v} */ SELECT 1", Map.of("v", "*/ DROP TABLE t /*")))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("v: its value has */");
        assertThatThrownBy(() -> SqlScript.substitute("SELECT * FROM t /*+ OPTIONS('k' = '${v}') */", Map.of("v", "*/")))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("v: its value has */");
        // what can be written is: in comments as it is, in a hint as SQL reads it
        assertThat(SqlScript.substitute("-- ${v}\n/* ${v} */ SELECT * FROM t /*+ OPTIONS('k' = '${v}') */ WHERE a = '${v}'",
                Map.of("v", "it's")))
                .isEqualTo("-- it's\n/* it's */ SELECT * FROM t /*+ OPTIONS('k' = 'it''s') */ WHERE a = 'it''s'");
    }

    @Test
    void setStatements() {
        assertThat(SqlScript.setting("SET 'table.exec.source.idle-timeout' = '30 s'"))
                .isEqualTo(new SqlScript.Setting("table.exec.source.idle-timeout", "30 s"));
        assertThat(SqlScript.setting("-- why\nset 'a''b'='it''s'")).isEqualTo(new SqlScript.Setting("a'b", "it's"));
        assertThat(SqlScript.setting("RESET 'x'")).isEqualTo(new SqlScript.Setting("x", null));
        assertThat(SqlScript.setting("SET x = y")).isNull();
        assertThat(SqlScript.keywords("/* c */ insert\n  into t -- x\n values (1)")).isEqualTo("INSERT INTO T VALUES (1)");
    }
}
