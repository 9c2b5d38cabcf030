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
