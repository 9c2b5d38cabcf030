package io.tributary.clickhouse;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * How refusals are classified when a proxy, not ClickHouse, answers (no {@code
 * X-ClickHouse-Exception-Code}) and when ClickHouse does: a stand-in HTTP server plays the proxy.
 */
class ClickHouseClientTest {

    private HttpServer server;
    private final AtomicInteger status = new AtomicInteger();
    private final AtomicReference<String> code = new AtomicReference<>();

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", ex -> {
            byte[] body = "refused".getBytes(StandardCharsets.UTF_8);
            if (code.get() != null) {
                ex.getResponseHeaders().add("X-ClickHouse-Exception-Code", code.get());
            }
            ex.sendResponseHeaders(status.get(), body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private ClickHouseException refusal(int httpStatus, String clickHouseCode) throws Exception {
        status.set(httpStatus);
        code.set(clickHouseCode);
        ClickHouseClient c = new ClickHouseClient(
                new ClickHouseEndpoint("http://127.0.0.1:" + server.getAddress().getPort(), "writer", null, null),
                Duration.ofSeconds(5));
        try {
            return catchThrowableOfType(ClickHouseException.class, () -> c.query("SELECT 1"));
        } finally {
            c.close();
        }
    }

    @Test
    void proxiesOverloadedOrAwayAreRetriedAuthenticationIsNotAndNamesTheUser() throws Exception {
        for (int s : new int[] {429, 502, 503, 504}) {
            ClickHouseException e = refusal(s, null);
            assertThat(e.retryable()).as("HTTP " + s).isTrue();
            assertThat(e.httpStatus()).isEqualTo(s);
        }
        for (int s : new int[] {401, 403}) {
            ClickHouseException e = refusal(s, null);
            assertThat(e.retryable()).as("HTTP " + s).isFalse();
            assertThat(e).hasMessage("ClickHouse answered HTTP " + s + " refusing user 'writer' (clickhouse.user and its password): refused");
        }
        assertThat(refusal(400, null).retryable()).isFalse();
    }

    @Test
    void clickHousesOwnCodeDecidesWhenItIsThere() throws Exception {
        assertThat(refusal(500, "241").retryable()).isTrue(); // MEMORY_LIMIT_EXCEEDED
        ClickHouseException unknownTable = refusal(404, "60");
        assertThat(unknownTable.retryable()).isFalse();
        assertThat(unknownTable.errorCode()).isEqualTo(60);
        ClickHouseException auth = refusal(403, "516"); // AUTHENTICATION_FAILED
        assertThat(auth.retryable()).isFalse();
        assertThat(auth).hasMessageContaining("(code 516) refusing user 'writer'");
    }
}
