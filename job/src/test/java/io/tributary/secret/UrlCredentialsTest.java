package io.tributary.secret;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which URLs hold credentials, and that the answer quotes nothing of them. */
class UrlCredentialsTest {

    private static final String S = "PLANTED-s3cr3t-q7Xz";

    @Test
    void userInfoAnywhereAfterTheSchemeIsFoundHoweverTheUrlBreaks() {
        for (String url : new String[] {
            "https://writer:" + S + "@ch.example:8443",
            "http://writer@ch.example:8123",
            "http://u:" + S + "@ss@ch.example",
            "http://u:" + S + "/x@ch.example", // a '/' in the password: a parser sees a path
            "http://u:" + S + "?x@ch.example",
            "http://u:" + S + "#x@ch.example",
            "http://a:8123,http://u:" + S + ",x@b:8123", // a ',' in the password: a list sees two entries
            "jdbc:clickhouse:http://w:" + S + "@h:8123/db",
            "s3://AKIA:" + S + "@bucket/checkpoints"}) {
            assertThat(UrlCredentials.find(url, true)).as(url).isEqualTo("a user or password (an '@' after '://')");
            assertThat(UrlCredentials.find(url, false)).as(url).isNotNull();
        }
    }

    @Test
    void queryParametersNamedLikeCredentialsAreFound() {
        String[][] cases = {
            {"password", "a secret (holding 'password')"},
            {"PassWord", "a secret (holding 'password')"},
            {"pass%77ord", "a secret (holding 'password')"},
            {"db_passwd", "a secret (holding 'passwd')"},
            {"key_store_password", "a secret (holding 'password')"},
            {"private_key_passphrase", "a secret (holding 'passphrase')"},
            {"client_secret", "a secret (holding 'secret')"},
            {"access_token", "a secret (holding 'token')"},
            {"X-Amz-Security-Token", "a secret (holding 'token')"},
            {"X-Amz-Credential", "a secret (holding 'credential')"},
            {"X-Amz-Signature", "a secret (holding 'signature')"},
            {"sig", "a secret ('sig')"},
            {"pwd", "a secret ('pwd')"},
            {"pass", "a secret ('pass')"},
            {"key", "a secret ('key')"},
            {"auth", "a secret ('auth')"},
            {"Authorization", "a secret ('authorization')"},
            {"api-key", "a key (ending in 'apikey')"},
            {"apiKey", "a key (ending in 'apikey')"},
            {"x_api_key", "a key (ending in 'apikey')"},
            {"access_key", "a key (ending in 'accesskey')"},
        };
        for (String[] c : cases) {
            for (String url : new String[] {"http://h:8123/?" + c[0] + "=" + S, "http://h:8123/?a=1&" + c[0] + "=" + S,
                "jdbc:sqlserver://h;" + c[0] + "=" + S, "http://h/?" + c[0]}) {
                assertThat(UrlCredentials.find(url, true)).as(url).isEqualTo("a query parameter named like " + c[1]);
                assertThat(UrlCredentials.find(url, false)).as(url).isEqualTo("a query parameter named like " + c[1]);
            }
        }
    }

    @Test
    void aUserParameterCountsOnlyWhereUsersHaveASettingOfTheirOwn() {
        for (String name : new String[] {"user", "USER", "username", "login"}) {
            String url = "http://h:8123/?" + name + "=writer";
            assertThat(UrlCredentials.find(url, true)).as(url).startsWith("a query parameter named like a user");
            assertThat(UrlCredentials.find(url, false)).as(url).isNull();
        }
    }

    @Test
    void urlsWithoutCredentialsPass() {
        for (String text : new String[] {
            "http://localhost:8123", "https://ch-1.example:8443, http://ch-2.example:8123/",
            "http://h/?database=otel&compress=1",
            "jdbc:clickhouse:https://h:8443/otel?sslrootcert=%2Fca.pem&sslcert=%2Fc.pem&ssl_key=%2Fc.key",
            "http://h/?quota_key=abc&keep_alive_timeout=3&monkey=1", "otlp_spans", "user@example.com", "a?password=x",
            "https://idp.example/realms/x/protocol/openid-connect/token"}) {
            assertThat(UrlCredentials.find(text, true)).as(text).isNull();
        }
        assertThat(UrlCredentials.find("jdbc:clickhouse:http://h:8123/otel?user=w&ssl=true", false)).isNull();
    }

    @Test
    void theAnswerNeverQuotesTheText() {
        // a password holding '&' makes a piece of it look like a parameter's name
        String url = "http://h/?password=a&" + S + "token=1&" + S + "=x";
        String found = UrlCredentials.find(url, true);
        assertThat(found).isNotNull().doesNotContain("PLANTED").doesNotContain("s3cr3t");
        assertThat(UrlCredentials.find("http://h/?" + S + "Password=1", true)).doesNotContain("PLANTED");
    }
}
