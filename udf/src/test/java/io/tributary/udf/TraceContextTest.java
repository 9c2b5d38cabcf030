package io.tributary.udf;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * TRACEPARENT and SQLCOMMENTER parsing against the examples of the W3C Trace Context and
 * SQLCommenter specifications, and malformed input, which gives null and never throws.
 */
class TraceContextTest {

    private static final String TP = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void traceparentHeaderValues() {
        assertThat(TraceContext.traceparent(TP))
                .isEqualTo(new TraceContext.Traceparent("00", "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", "01"));
        assertThat(TraceContext.traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00").flags()).isEqualTo("00");
        assertThat(TraceContext.traceparent(" \t" + TP + " ")).isNotNull(); // optional whitespace of a header
        assertThat(TraceContext.traceparent("traceparent: " + TP).spanId()).isEqualTo("00f067aa0ba902b7");
        assertThat(TraceContext.traceparent("traceparent=" + TP).traceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        // a later version may carry more fields after a dash; a version-00 parser reads the first four
        assertThat(TraceContext.traceparent("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-09-what-the-future-will-be-like"))
                .isEqualTo(new TraceContext.Traceparent("cc", "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", "09"));
    }

    @Test
    void malformedTraceparentsAreNull() {
        String[] bad = {
            null, "", "garbage", TP.substring(0, 54), TP + "-", TP + "x",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", // version ff is invalid
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01", // all-zero trace id
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", // all-zero parent id
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", // upper case
            "00-4bf92f3577b34da6a3ce929d0e0e473-600f067aa0ba902b7-01", // fields of wrong lengths
            "00_4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7_01",
            "0g-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-09x", // more after flags needs a dash
            "SELECT 1 /*traceparent='00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0'*/",
        };
        for (String b : bad) {
            assertThat(TraceContext.traceparent(b)).as(String.valueOf(b)).isNull();
        }
    }

    @Test
    void traceparentInASqlComment() {
        // pg_tracing / SQLCommenter: the context at the end (or start) of the statement
        assertThat(TraceContext.traceparent("SELECT * FROM t WHERE id = 1 /*traceparent='" + TP + "'*/"))
                .isEqualTo(TraceContext.traceparent(TP));
        assertThat(TraceContext.traceparent("/*traceparent='" + TP + "'*/ SELECT 1")).isNotNull();
        assertThat(TraceContext.traceparent("SELECT 1 /*action='run',traceparent='00-5bd66ef5095369c7b0d1f8f4bd33716a-c532cb4098ac3dd2-01'*/").spanId())
                .isEqualTo("c532cb4098ac3dd2");
        assertThat(TraceContext.traceparent("SELECT 1 /*action='run'*/")).isNull();
        // the context in an earlier comment than the last SQLCommenter one
        assertThat(TraceContext.traceparent("/*traceparent='" + TP + "'*/ SELECT 1 /*route='x'*/")).isNotNull();
    }

    @Test
    void sqlCommenterSpecExample() {
        // https://google.github.io/sqlcommenter/spec/ (its worked example)
        String sql = "SELECT * FROM FOO /*action='%2Fparam*d',controller='index',framework='spring',"
                + "traceparent='00-5bd66ef5095369c7b0d1f8f4bd33716a-c532cb4098ac3dd2-01',"
                + "tracestate='congo%3Dt61rcWkgMzE%2Crojo%3D00f067aa0ba902b7'*/";
        assertThat(TraceContext.sqlCommenter(sql)).containsExactly(
                Map.entry("action", "/param*d"),
                Map.entry("controller", "index"),
                Map.entry("framework", "spring"),
                Map.entry("traceparent", "00-5bd66ef5095369c7b0d1f8f4bd33716a-c532cb4098ac3dd2-01"),
                Map.entry("tracestate", "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7"));
        assertThat(TraceContext.traceparent(sql).traceId()).isEqualTo("5bd66ef5095369c7b0d1f8f4bd33716a");
    }

    @Test
    void sqlCommenterEscapesAndEncodings() {
        assertThat(TraceContext.sqlCommenter("SELECT 1 /*name='O\\'Reilly',k%20ey='a%20b+c',u='%C3%BC'*/"))
                .containsExactly(Map.entry("name", "O'Reilly"), Map.entry("k ey", "a b+c"), Map.entry("u", "ü"));
        assertThat(TraceContext.sqlCommenter("SELECT 1 /* a='1' , b='2' */")).containsExactly(Map.entry("a", "1"), Map.entry("b", "2"));
        // the last comment in that form wins; other comments are skipped
        assertThat(TraceContext.sqlCommenter("/*a='1'*/ SELECT 1 /* just a note */ /*b='2'*/")).containsExactly(Map.entry("b", "2"));
        assertThat(TraceContext.sqlCommenter("/*a='1'*/ SELECT 1 /* just a note */")).containsExactly(Map.entry("a", "1"));
    }

    @Test
    void malformedCommentsAreNull() {
        String[] bad = {
            null, "", "SELECT 1", "SELECT 1 /**/", "SELECT 1 /* a note */", "SELECT 1 /*a=b*/", "SELECT 1 /*a='1'",
            "SELECT 1 /*a='unclosed*/", "SELECT 1 /*a='1' b='2'*/", "SELECT 1 /*a='1',*/", "SELECT 1 /*='1'*/",
            "SELECT 1 /*a='%ZZ'*/", "SELECT 1 /*a='%4'*/", "SELECT 1 /*a='%C3'*/", "SELECT 1 /*a='1',b*/",
        };
        for (String b : bad) {
            assertThat(TraceContext.sqlCommenter(b)).as(String.valueOf(b)).isNull();
        }
    }
}
