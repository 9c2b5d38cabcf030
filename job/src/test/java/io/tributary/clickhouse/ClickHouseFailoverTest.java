package io.tributary.clickhouse;

import io.tributary.clickhouse.body.Compression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How requests spread over several endpoints and leave a failing one: stand-in HTTP servers play
 * ClickHouse replicas and the proxies in front of them.
 */
class ClickHouseFailoverTest {

    private final List<HttpServer> servers = new ArrayList<>();

    /** A stand-in that answers every request with {@code status} (and a ClickHouse code when given), counting them. */
    private String server(int status, String code, AtomicInteger hits) throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        s.createContext("/", ex -> {
            hits.incrementAndGet();
            byte[] body = (status == 200 ? "1\n" : "refused").getBytes(StandardCharsets.UTF_8);
            if (code != null) {
                ex.getResponseHeaders().add("X-ClickHouse-Exception-Code", code);
            }
            ex.getResponseHeaders().add("X-ClickHouse-Summary", "{\"written_rows\":\"3\"}");
            ex.sendResponseHeaders(status, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        s.start();
        servers.add(s);
        return "http://127.0.0.1:" + s.getAddress().getPort();
    }

    /** A port nothing listens on: connections are refused. */
    private static String closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return "http://127.0.0.1:" + s.getLocalPort();
        }
    }

    @AfterEach
    void stop() {
        servers.forEach(s -> s.stop(0));
    }

    private static ClickHouseClient client(String... urls) throws IOException {
        return new ClickHouseClient(ClickHouseEndpoint.of(String.join(",", urls)), Duration.ofSeconds(5));
    }

    private static ClickHouseClient.EndpointState state(ClickHouseClient c, int i) {
        return c.endpoints().get(i);
    }

    @Test
    void requestsGoRoundRobinOverHealthyEndpoints() throws Exception {
        AtomicInteger a = new AtomicInteger();
        AtomicInteger b = new AtomicInteger();
        try (ClickHouseClient c = client(server(200, null, a), server(200, null, b))) {
            for (int i = 0; i < 10; i++) {
                assertThat(c.insert("INSERT", Map.of(), new byte[] {1}, Compression.NONE)).isEqualTo(3);
            }
            assertThat(a.get()).isEqualTo(5);
            assertThat(b.get()).isEqualTo(5);
            assertThat(state(c, 0).requests().sum()).isEqualTo(5);
            assertThat(state(c, 0).errors().sum()).isZero();
            assertThat(state(c, 0).healthy()).isTrue();
        }
    }

    @Test
    void anEndpointThatRefusesConnectionsIsTakenOutAndTheRequestGoesToTheNextAtOnce() throws Exception {
        AtomicInteger b = new AtomicInteger();
        String dead = closedPort();
        try (ClickHouseClient c = client(dead, server(200, null, b))) {
            for (int i = 0; i < 6; i++) {
                assertThat(c.query("SELECT 1")).isEqualTo("1\n");
            }
            assertThat(b.get()).isEqualTo(6);
            // tried once, then left out for its backoff (1 s), not tried by every request
            assertThat(state(c, 0).requests().sum()).isEqualTo(1);
            assertThat(state(c, 0).errors().sum()).isEqualTo(1);
            assertThat(state(c, 0).healthy()).isFalse();
            assertThat(state(c, 0).label()).isEqualTo(dead.substring("http://".length()));
            assertThat(state(c, 1).healthy()).isTrue();
            Thread.sleep(ClickHouseClient.INITIAL_BACKOFF.toMillis() + 100);
            c.query("SELECT 1");
            c.query("SELECT 1");
            assertThat(state(c, 0).requests().sum()).as("tried again after its backoff").isEqualTo(2);
            assertThat(state(c, 0).healthy()).isFalse();
        }
    }

    @Test
    void aProxyAnsweringForAnAbsentServerFailsOverAClickHouseErrorDoesNot() throws Exception {
        AtomicInteger proxy = new AtomicInteger();
        AtomicInteger good = new AtomicInteger();
        try (ClickHouseClient c = client(server(503, null, proxy), server(200, null, good))) {
            c.query("SELECT 1");
            c.query("SELECT 1");
            assertThat(good.get()).isEqualTo(2);
            assertThat(proxy.get()).isEqualTo(1);
            assertThat(state(c, 0).healthy()).isFalse();
        }
        AtomicInteger refusing = new AtomicInteger();
        AtomicInteger other = new AtomicInteger();
        try (ClickHouseClient c = client(server(404, "60", refusing), server(200, null, other))) {
            // ClickHouse itself said no (unknown table): the same on every replica, so not sent on
            ClickHouseException e = catchThrowableOfType(ClickHouseException.class, () -> c.query("SELECT 1"));
            assertThat(e.errorCode()).isEqualTo(60);
            assertThat(other.get()).isZero();
            assertThat(state(c, 0).healthy()).isTrue();
            assertThat(state(c, 0).errors().sum()).isEqualTo(1);
        }
    }

    @Test
    void whenEveryEndpointFailsTheLastFailureIsThrownForTheCallersRetries() throws Exception {
        String first = closedPort();
        String second = closedPort();
        try (ClickHouseClient c = client(first, second)) {
            IOException e = catchThrowableOfType(IOException.class, () -> c.query("SELECT 1"));
            assertThat(e).isNotInstanceOf(ClickHouseException.class);
            assertThat(e.getMessage()).contains("refused the connection");
            assertThat(state(c, 0).requests().sum() + state(c, 1).requests().sum()).isEqualTo(2);
            // both resting: the next request still tries them, soonest back first, rather than failing unasked
            catchThrowableOfType(IOException.class, () -> c.query("SELECT 1"));
            assertThat(state(c, 0).requests().sum() + state(c, 1).requests().sum()).isEqualTo(4);
        }
    }

    @Test
    void checkAsksEveryEndpointAndReportsTheOnesAway() throws Exception {
        AtomicInteger up = new AtomicInteger();
        String dead = closedPort();
        try (ClickHouseClient c = client(server(200, null, up), dead)) {
            Map<String, IOException> away = c.check();
            assertThat(away).containsOnlyKeys(dead.substring("http://".length()));
            assertThat(up.get()).isEqualTo(1);
        }
    }

    @Test
    void statementsMeetOneServerWhileInsertsSpread() throws Exception {
        AtomicInteger a = new AtomicInteger();
        AtomicInteger b = new AtomicInteger();
        try (ClickHouseClient c = client(server(200, null, a), server(200, null, b))) {
            for (int i = 0; i < 5; i++) {
                c.execute("CREATE TABLE IF NOT EXISTS t" + i + " (x UInt8) ENGINE = Null");
            }
            assertThat(a.get()).as("DDL of one script on the first endpoint").isEqualTo(5);
            assertThat(b.get()).isZero();
            for (int i = 0; i < 4; i++) {
                c.insert("INSERT", Map.of(), new byte[] {1}, Compression.NONE);
            }
            assertThat(b.get()).isEqualTo(2);
        }
    }

    @Test
    void aReplicaReportingTroubleOfItsOwnIsLeftForTheNext() throws Exception {
        AtomicInteger readOnly = new AtomicInteger();
        AtomicInteger good = new AtomicInteger();
        try (ClickHouseClient c = client(server(500, "242", readOnly), server(200, null, good))) {
            assertThat(c.insert("INSERT", Map.of(), new byte[] {1}, Compression.NONE)).isEqualTo(3);
            assertThat(c.insert("INSERT", Map.of(), new byte[] {1}, Compression.NONE)).isEqualTo(3);
            assertThat(readOnly.get()).as("TABLE_IS_READ_ONLY: taken out after the first").isEqualTo(1);
            assertThat(good.get()).isEqualTo(2);
            assertThat(state(c, 0).healthy()).isFalse();
        }
    }
}
