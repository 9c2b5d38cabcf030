package io.tributary.clickhouse;

import io.tributary.clickhouse.body.Body;
import io.tributary.clickhouse.body.Compression;
import io.tributary.clickhouse.tls.ClickHouseTls;
import io.tributary.clickhouse.tls.ReloadingTls;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;

/**
 * A minimal client for ClickHouse's HTTP interface (https://clickhouse.com/docs/interfaces/http):
 * statements in the {@code query} parameter, the INSERT payload as the request body, credentials
 * in the {@code X-ClickHouse-User} / {@code X-ClickHouse-Key} headers (never in the URL, which
 * servers and proxies log). Thread-safe.
 *
 * <p><b>Several endpoints</b> (replicas, or proxies in front of them): INSERTs go round-robin over
 * the healthy ones; statements (DDL, queries) go to the first healthy one in the order given, so
 * that a script's statements meet one server. An endpoint that refuses the connection, resets it,
 * times out, whose proxy answers 502/503/504 without a ClickHouse error code, or that reports a
 * trouble of its own (read-only replica, no Keeper: {@link ClickHouseErrors#isOfTheServer}) is
 * taken out for a backoff (1 s, doubling to 30 s; then one request tries it again). A statement
 * goes to the next endpoint at once. An INSERT does so only when the failure proves that nothing
 * was stored (the connection was refused, ClickHouse itself reported the trouble, a proxy
 * answered 503); after a timeout, a reset or a 502/504 the first server may still be storing the
 * rows, so the failure is thrown for the caller's retry with backoff (which then picks the next
 * healthy endpoint, with the same deduplication token). Any other answer from ClickHouse, an
 * error included, leaves its endpoint healthy. When every endpoint fails, the last failure is
 * thrown, for the caller's retries.
 *
 * <p><b>Answers</b>: an INSERT counts as done only on HTTP 200 with ClickHouse's summary and no
 * exception: an {@code X-ClickHouse-Exception-Code} header or an exception in the body is a
 * failure whatever the status (a server that sent its headers before the query ended, with
 * {@code send_progress_in_http_headers}, reports a later failure only there; the caller pins
 * {@code wait_end_of_query=1} so that it does not happen).
 *
 * <p><b>Closing</b> ends the HTTP client's threads (its executor; its selector thread ends once
 * the client is no longer referenced, or at once from Java 21), so a restarted task leaves
 * nothing behind that pins the job's class loader.
 *
 * <p><b>TLS</b> for {@code https://}: {@link ClickHouseTls} (CA bundle, client certificate, host
 * name check), with files read again when they change. A certificate that is not trusted, a host
 * name it does not hold, a client certificate the server wants or refuses: each is a {@link
 * ClickHouseException} that is not retried, naming the setting to fix.
 */
public final class ClickHouseClient implements InsertClient {

    private static final Logger LOG = LoggerFactory.getLogger(ClickHouseClient.class);
    static final Duration INITIAL_BACKOFF = Duration.ofSeconds(1);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

    private final List<Node> nodes;
    private final String user;
    private final String password;
    private final ClickHouseTls tls;
    private final Duration requestTimeout;
    private final HttpClient http;
    private final java.util.concurrent.ExecutorService executor;
    private final AtomicInteger next = new AtomicInteger();
    private static final AtomicInteger CLIENTS = new AtomicInteger();

    public ClickHouseClient(ClickHouseEndpoint endpoint, Duration requestTimeout) throws IOException {
        List<Node> n = new ArrayList<>();
        boolean https = false;
        for (String u : endpoint.urls()) {
            n.add(new Node(u.endsWith("/") ? u : u + "/"));
            https |= u.regionMatches(true, 0, "https:", 0, 6);
        }
        if (n.isEmpty()) {
            throw new IOException("clickhouse.url: no URL given");
        }
        this.nodes = Collections.unmodifiableList(n);
        this.user = endpoint.user();
        this.password = headerValue(endpoint.resolvePassword());
        this.tls = endpoint.tls();
        this.requestTimeout = requestTimeout;
        int id = CLIENTS.incrementAndGet();
        AtomicInteger threads = new AtomicInteger();
        this.executor = java.util.concurrent.Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "tributary-clickhouse-http-" + id + "-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        HttpClient.Builder b = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .executor(executor)
                .connectTimeout(Duration.ofSeconds(10));
        if (https) {
            // also with the JVM's trust store alone: its failures then name the setting that fixes them
            b.sslContext(ReloadingTls.context(tls));
        }
        this.http = b.build();
    }

    /** The endpoints, in the order of {@code clickhouse.url}, with their health and counts. */
    public List<EndpointState> endpoints() {
        return Collections.unmodifiableList(new ArrayList<>(nodes));
    }

    /**
     * Sends one INSERT with its body.
     *
     * @param sql the {@code INSERT ... FORMAT RowBinary} statement
     * @param settings extra query settings (e.g. async_insert)
     * @throws ClickHouseException when the server refuses it (with its code and message)
     * @throws IOException when the connection fails
     */
    @Override
    public long insert(String sql, Map<String, String> settings, Body body, Compression compression)
            throws IOException, InterruptedException {
        HttpResponse<String> resp = exchange(order(true), true, node -> {
            HttpRequest.Builder req = request(node, sql, settings).POST(body.publisher());
            if (compression.contentEncoding() != null) {
                req.header("Content-Encoding", compression.contentEncoding());
            }
            return req.build();
        });
        // A server that sent 200 and its headers before the INSERT ended (progress headers)
        // reports a later failure in a trailing header or in the body only.
        ClickHouseException late = lateFailure(resp);
        if (late != null) {
            throw late;
        }
        // ClickHouse sends the summary of every query; a 200 without it comes from something else
        // (a proxy answering for an absent server), and says nothing about the rows.
        String summary = resp.headers().firstValue("X-ClickHouse-Summary").orElse(null);
        if (summary == null) {
            throw new ClickHouseException("HTTP 200 without X-ClickHouse-Summary: the reply does not come from ClickHouse"
                    + " (a proxy answering for it, or one that drops ClickHouse's X-ClickHouse-* headers), so the INSERT"
                    + " may not have been stored", 200, -1, true);
        }
        Matcher m = WRITTEN_ROWS.matcher(summary);
        if (!m.find()) {
            throw new ClickHouseException("X-ClickHouse-Summary without written_rows: " + summary, 200, -1, true);
        }
        return Long.parseLong(m.group(1));
    }

    /** ClickHouse's exception text in a body: "Code: N. DB::Exception: ..." (and the marker of 25.x+). */
    private static final Pattern EXCEPTION_IN_BODY = Pattern.compile("(?s)(?:^|\\n)Code: (\\d+)\\. |__exception__");

    /**
     * The failure a 200 reply to an INSERT reports after its headers: an exception code header, or
     * an exception in the body (an INSERT answers with an empty body when it succeeds); null when
     * there is none.
     */
    static ClickHouseException lateFailure(HttpResponse<String> resp) {
        int code = resp.headers().firstValue("X-ClickHouse-Exception-Code").map(ClickHouseClient::parseCode).orElse(-1);
        String body = resp.body() == null ? "" : resp.body().strip();
        Matcher m = EXCEPTION_IN_BODY.matcher(body);
        boolean inBody = m.find();
        if (code < 0 && !inBody) {
            return null;
        }
        if (code < 0 && m.group(1) != null) {
            code = parseCode(m.group(1));
        }
        if (body.length() > 2000) {
            body = body.substring(0, 2000) + "...";
        }
        return new ClickHouseException("ClickHouse answered HTTP " + resp.statusCode() + " but the INSERT failed afterwards"
                + (code >= 0 ? " (code " + code + ")" : "") + ": " + body, resp.statusCode(), code,
                ClickHouseErrors.isRetryable(500, code));
    }

    private static final Pattern WRITTEN_ROWS = Pattern.compile("\"written_rows\"\\s*:\\s*\"?(\\d+)");

    /** Runs a statement that returns nothing (DDL). */
    public void execute(String sql) throws IOException, InterruptedException {
        execute(sql, Map.of());
    }

    /** Runs a statement that returns nothing (DDL), with query settings. */
    public void execute(String sql, Map<String, String> settings) throws IOException, InterruptedException {
        exchange(order(false), false, node -> request(node, sql, settings).POST(HttpRequest.BodyPublishers.noBody()).build());
    }

    /** Runs a query and returns the response body (use a text FORMAT). */
    public String query(String sql) throws IOException, InterruptedException {
        return exchange(order(false), false,
                node -> request(node, sql, Map.of()).POST(HttpRequest.BodyPublishers.noBody()).build()).body();
    }

    /**
     * Asks every endpoint once ({@code SELECT 1}), each on its own, for a check at start.
     *
     * @return the endpoints that cannot be reached now, with why (they are retried later)
     * @throws ClickHouseException the first endpoint's refusal that configuration causes: TLS
     *     (naming the setting), or user and password (HTTP 401/403)
     */
    public Map<String, IOException> check() throws IOException, InterruptedException {
        Map<String, IOException> away = new java.util.LinkedHashMap<>();
        for (Node node : nodes) {
            try {
                exchange(List.of(node), false,
                        n -> request(n, "SELECT 1", Map.of()).POST(HttpRequest.BodyPublishers.noBody()).build());
            } catch (ClickHouseException e) {
                if (!e.retryable()) {
                    throw e;
                }
                away.put(node.label, e);
            } catch (IOException e) {
                away.put(node.label, e);
            }
        }
        return away;
    }

    private HttpRequest.Builder request(Node node, String sql, Map<String, String> settings) {
        StringBuilder url = new StringBuilder(node.baseUrl).append("?query=").append(enc(sql));
        for (Map.Entry<String, String> e : settings.entrySet()) {
            url.append('&').append(enc(e.getKey())).append('=').append(enc(e.getValue()));
        }
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create(url.toString()))
                        .timeout(requestTimeout)
                        .header("X-ClickHouse-User", user);
        if (!password.isEmpty()) {
            try {
                b.header("X-ClickHouse-Key", password);
            } catch (IllegalArgumentException e) {
                // the JDK's message quotes the value: never pass it on
                throw new IllegalArgumentException("the ClickHouse password (clickhouse.password-env or"
                        + " clickhouse.password-file) holds a character an HTTP header cannot carry");
            }
        }
        return b;
    }

    /**
     * A header value carrying {@code s}'s UTF-8 bytes, one character per byte, as HTTP/1.1 sends
     * header values (ISO-8859-1 octets): a password outside ASCII reaches ClickHouse as its UTF-8
     * bytes, and the JDK accepts it.
     */
    static String headerValue(String s) {
        return new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    }

    /**
     * The order in which to try the endpoints for one request: the healthy ones (round-robin for
     * INSERTs, else in the order given), then the rest, soonest back first.
     */
    private List<Node> order(boolean spread) {
        int size = nodes.size();
        if (size == 1) {
            return nodes;
        }
        long now = System.nanoTime();
        int start = spread ? Math.floorMod(next.getAndIncrement(), size) : 0;
        List<Node> out = new ArrayList<>(size);
        List<Node> healthy = new ArrayList<>(size);
        List<Node> resting = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            Node n = nodes.get((start + i) % size);
            if (n.healthy) {
                healthy.add(n);
            } else if (n.claimProbe(now)) {
                out.add(n); // its pause is over: this request tries it first
            } else {
                resting.add(n);
            }
        }
        resting.sort((a, b) -> Long.compare(a.retryAt.get(), b.retryAt.get()));
        out.addAll(healthy);
        out.addAll(resting);
        return out;
    }

    /**
     * The reply to a request, or the server's refusal as a {@link ClickHouseException}. With
     * {@code insert}, a failure after which the rows may be stored ends the walk over the
     * endpoints (see the class comment).
     */
    private HttpResponse<String> exchange(List<Node> order, boolean insert, Function<Node, HttpRequest> requestFor)
            throws IOException, InterruptedException {
        IOException last = null;
        for (Node node : order) {
            long started = System.nanoTime();
            node.requests.increment();
            HttpResponse<String> resp;
            try {
                resp = http.send(requestFor.apply(node), HttpResponse.BodyHandlers.ofString());
            } catch (SSLException e) {
                ClickHouseException refused = tlsRefusal(node, e);
                if (refused != null) {
                    node.errors.increment();
                    throw refused;
                }
                last = unreachable(node, e);
                if (insert && !notSent(e)) {
                    throw last;
                }
                continue;
            } catch (IOException e) {
                last = unreachable(node, e);
                if (insert && !notSent(e)) {
                    throw last;
                }
                continue;
            }
            node.latency(System.nanoTime() - started);
            int status = resp.statusCode();
            if (status == 200) {
                node.up();
                return resp;
            }
            ClickHouseException error = refusal(resp);
            if (error.errorCode() < 0 && (status == 502 || status == 503 || status == 504)
                    || ClickHouseErrors.isOfTheServer(error.errorCode())) {
                last = unreachable(node, error); // a proxy whose ClickHouse is away, or a replica in trouble
                if (insert && error.errorCode() < 0 && status != 503) {
                    throw last; // a gateway that forwarded the INSERT: it may be stored
                }
                continue;
            }
            node.up(); // ClickHouse answered: the endpoint works, the request did not
            node.errors.increment();
            throw error;
        }
        throw last;
    }

    /**
     * True when a failed exchange cannot have reached ClickHouse: the connection was never made.
     * A timeout of the request or a reset may come after the server took the rows.
     */
    static boolean notSent(IOException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.http.HttpConnectTimeoutException || t instanceof ConnectException
                    || t instanceof java.nio.channels.UnresolvedAddressException
                    || t instanceof java.net.UnknownHostException) {
                return true;
            }
        }
        return false;
    }

    /** Takes an endpoint out after a failed connection; returns the error, naming the endpoint. */
    private IOException unreachable(Node node, IOException e) {
        node.errors.increment();
        Duration backoff = node.down();
        String what = e instanceof HttpTimeoutException ? "timed out"
                : e instanceof ConnectException ? "refused the connection"
                : e instanceof ClickHouseException ? (((ClickHouseException) e).errorCode() >= 0
                        ? "reported trouble of its own" : "answered for an absent server") : "failed";
        if (nodes.size() > 1) {
            LOG.warn("ClickHouse endpoint {} {} ({}); taken out for {} ms, trying the next one",
                    node.label, what, e.toString(), backoff.toMillis());
        }
        if (e instanceof ClickHouseException) {
            return e;
        }
        return new IOException("ClickHouse at " + node.baseUrl + " " + what + ": " + e, e);
    }

    /**
     * A TLS failure that configuration causes, as a permanent error naming the setting; null for
     * one the network causes (a reset during the handshake), which is retried.
     */
    private ClickHouseException tlsRefusal(Node node, SSLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof CertificateException) {
                return new ClickHouseException("TLS to " + node.baseUrl + ": " + t.getMessage(), -1, -1, false);
            }
        }
        String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        if (m.contains("received fatal alert")) {
            boolean certificates = m.contains("certificate") || m.contains("unknown_ca") || m.contains("access_denied")
                    || m.contains("handshake_failure") || m.contains("decrypt_error");
            String fix = !certificates ? "check the server's TLS settings"
                    : tls.clientCertFile() == null
                    ? "it asks for a client certificate: set " + ClickHouseTls.CLIENT_CERT_FILE + " and "
                            + ClickHouseTls.CLIENT_KEY_FILE
                    : "it does not accept the client certificate of " + ClickHouseTls.CLIENT_CERT_FILE + " = "
                            + tls.clientCertFile() + " (its CA, its validity, its key usage)";
            return new ClickHouseException("TLS to " + node.baseUrl + ": the server ended the handshake (" + e.getMessage()
                    + "); " + fix, -1, -1, false);
        }
        if (m.contains("unsupported or unrecognized ssl message") || m.contains("plaintext connection")) {
            return new ClickHouseException("TLS to " + node.baseUrl + ": the server does not speak TLS on that port"
                    + " (clickhouse.url: https:// needs ClickHouse's https_port, e.g. 8443)", -1, -1, false);
        }
        return null;
    }

    private ClickHouseException refusal(HttpResponse<String> resp) {
        int status = resp.statusCode();
        int code =
                resp.headers()
                        .firstValue("X-ClickHouse-Exception-Code")
                        .map(ClickHouseClient::parseCode)
                        .orElse(-1);
        String body = resp.body() == null ? "" : resp.body().strip();
        if (body.length() > 2000) {
            body = body.substring(0, 2000) + "...";
        }
        // 401/403 without a ClickHouse code come from a proxy in front of it; either way, the user
        String who = status == 401 || status == 403 ? " refusing user '" + user + "' (clickhouse.user and its password)" : "";
        return new ClickHouseException(
                "ClickHouse answered HTTP " + status + (code >= 0 ? " (code " + code + ")" : "") + who + ": " + body,
                status,
                code,
                ClickHouseErrors.isRetryable(status, code));
    }

    private static int parseCode(String s) {
        try {
            return Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        executor.shutdownNow();
        // Java 21+ can stop the client's selector thread at once; on 17 it ends when the client is
        // no longer referenced (it checks every few seconds)
        try {
            HttpClient.class.getMethod("shutdownNow").invoke(http);
        } catch (ReflectiveOperationException e) {
            // Java 17: nothing more to do
        }
    }

    /** One endpoint's health and counts, for the metrics. */
    public interface EndpointState {
        /** host:port of the URL. */
        String label();

        /** False while the endpoint is taken out after a failure. */
        boolean healthy();

        /** Requests sent to it. */
        java.util.concurrent.atomic.LongAdder requests();

        /** Requests that failed there: no connection, a timeout, or an error answer. */
        java.util.concurrent.atomic.LongAdder errors();

        /** Called with the milliseconds of each request it answered. */
        void onLatency(java.util.function.LongConsumer listener);
    }

    private static final class Node implements EndpointState {
        final String baseUrl;
        final String label;
        final java.util.concurrent.atomic.LongAdder requests = new java.util.concurrent.atomic.LongAdder();
        final java.util.concurrent.atomic.LongAdder errors = new java.util.concurrent.atomic.LongAdder();
        final java.util.concurrent.atomic.AtomicLong retryAt = new java.util.concurrent.atomic.AtomicLong();
        volatile boolean healthy = true;
        private int failures;
        private volatile java.util.function.LongConsumer latencyListener = ms -> {};

        Node(String baseUrl) {
            this.baseUrl = baseUrl;
            URI u = URI.create(baseUrl);
            int port = u.getPort() >= 0 ? u.getPort() : "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
            // getHost() is null for names URI does not take as host names (an '_' in them)
            String host = u.getHost() != null ? u.getHost() : u.getRawAuthority().replaceFirst(":\\d+$", "");
            this.label = host + ":" + port;
        }

        /**
         * Resting and due a try: this request claims it (the next ones see the endpoint resting
         * for another backoff until the try answers), so one request probes it at a time.
         */
        boolean claimProbe(long now) {
            long due = retryAt.get();
            return now - due >= 0 && retryAt.compareAndSet(due, now + backoffNanos());
        }

        private synchronized long backoffNanos() {
            return Math.min(MAX_BACKOFF.toMillis(), INITIAL_BACKOFF.toMillis() << Math.min(Math.max(failures - 1, 0), 20))
                    * 1_000_000L;
        }

        synchronized Duration down() {
            failures++;
            long ms = Math.min(MAX_BACKOFF.toMillis(), INITIAL_BACKOFF.toMillis() << Math.min(failures - 1, 20));
            retryAt.set(System.nanoTime() + ms * 1_000_000L);
            healthy = false;
            return Duration.ofMillis(ms);
        }

        synchronized void up() {
            if (!healthy) {
                LOG.info("ClickHouse endpoint {} answers again", label);
            }
            failures = 0;
            healthy = true;
        }

        void latency(long nanos) {
            latencyListener.accept(nanos / 1_000_000L);
        }

        @Override
        public String label() {
            return label;
        }

        @Override
        public boolean healthy() {
            return healthy;
        }

        @Override
        public java.util.concurrent.atomic.LongAdder requests() {
            return requests;
        }

        @Override
        public java.util.concurrent.atomic.LongAdder errors() {
            return errors;
        }

        @Override
        public void onLatency(java.util.function.LongConsumer listener) {
            this.latencyListener = listener;
        }
    }
}
