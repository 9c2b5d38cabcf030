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

    /**
     * Closing a client ends the threads it started: at once its request threads (before, the JDK's
     * default executor kept them for a minute), and its selector once the client is collected
     * (at once on Java 21+). A task restarted 20 times must not leave 20 clients' threads behind,
     * each keeping the job's class loader.
     */
    @Test
    void closeEndsTheThreadsTheClientStarted() throws Exception {
        status.set(200);
        code.set(null);
        java.util.Set<Thread> before = Thread.getAllStackTraces().keySet();
        java.lang.ref.WeakReference<ClickHouseClient> ref = useAndClose(before);
        assertThat(awaitNone(before, t -> true, 15_000)).as("threads alive once the client is collected").isEmpty();
        assertThat(ref.get()).isNull();
    }

    /** A client that sent concurrent requests and was closed, no longer referenced but weakly. */
    private java.lang.ref.WeakReference<ClickHouseClient> useAndClose(java.util.Set<Thread> before) throws Exception {
        ClickHouseClient c = new ClickHouseClient(
                new ClickHouseEndpoint("http://127.0.0.1:" + server.getAddress().getPort(), "writer", null, null),
                Duration.ofSeconds(5));
        java.util.concurrent.ExecutorService callers = java.util.concurrent.Executors.newFixedThreadPool(8);
        java.util.List<java.util.concurrent.Future<String>> calls = new java.util.ArrayList<>();
        for (int i = 0; i < 8; i++) { // concurrent requests: the client's executor runs several threads
            calls.add(callers.submit(() -> c.query("SELECT 1")));
        }
        for (java.util.concurrent.Future<String> f : calls) {
            f.get(10, java.util.concurrent.TimeUnit.SECONDS);
        }
        callers.shutdown();
        assertThat(callers.awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(started(before)).as("the client's threads while it works").isNotEmpty();
        c.close();
        assertThat(awaitNone(before, t -> !t.getName().contains("SelectorManager"), 2_000))
                .as("request threads alive after close").isEmpty();
        return new java.lang.ref.WeakReference<>(c);
    }

    /** Threads started since {@code before} (ForkJoin workers of the test itself aside), alive now. */
    private static java.util.List<Thread> started(java.util.Set<Thread> before) {
        java.util.List<Thread> out = new java.util.ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (!before.contains(t) && t.isAlive() && !t.getName().startsWith("ForkJoinPool")) {
                out.add(t);
            }
        }
        return out;
    }

    /** Waits up to {@code millis} (collecting garbage) until no started thread matches; returns those left. */
    private static java.util.List<String> awaitNone(java.util.Set<Thread> before, java.util.function.Predicate<Thread> which,
            long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        java.util.List<String> left;
        do {
            System.gc();
            Thread.sleep(100);
            left = started(before).stream().filter(which).map(Thread::getName).toList();
        } while (!left.isEmpty() && System.nanoTime() < deadline);
        return left;
    }
}
