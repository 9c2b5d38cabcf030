package io.tributary.clickhouse;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A minimal client for ClickHouse's HTTP interface (https://clickhouse.com/docs/interfaces/http):
 * statements in the {@code query} parameter, the INSERT payload as the request body, credentials
 * in the {@code X-ClickHouse-User} / {@code X-ClickHouse-Key} headers (never in the URL, which
 * servers and proxies log). Thread-safe.
 */
public final class ClickHouseClient implements InsertClient {

    private final String baseUrl;
    private final String user;
    private final String password;
    private final Duration requestTimeout;
    private final HttpClient http;

    public ClickHouseClient(ClickHouseEndpoint endpoint, Duration requestTimeout) throws IOException {
        String u = endpoint.url();
        this.baseUrl = u.endsWith("/") ? u : u + "/";
        this.user = endpoint.user();
        this.password = endpoint.resolvePassword();
        this.requestTimeout = requestTimeout;
        this.http =
                HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(10))
                        .build();
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
        HttpRequest.Builder req = request(sql, settings).POST(body.publisher());
        if (compression.contentEncoding() != null) {
            req.header("Content-Encoding", compression.contentEncoding());
        }
        HttpResponse<String> resp = exchange(req.build());
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

    private static final Pattern WRITTEN_ROWS = Pattern.compile("\"written_rows\"\\s*:\\s*\"?(\\d+)");

    /** Runs a statement that returns nothing (DDL). */
    public void execute(String sql) throws IOException, InterruptedException {
        execute(sql, Map.of());
    }

    /** Runs a statement that returns nothing (DDL), with query settings. */
    public void execute(String sql, Map<String, String> settings) throws IOException, InterruptedException {
        send(request(sql, settings).POST(HttpRequest.BodyPublishers.noBody()).build());
    }

    /** Runs a query and returns the response body (use a text FORMAT). */
    public String query(String sql) throws IOException, InterruptedException {
        return send(request(sql, Map.of()).POST(HttpRequest.BodyPublishers.noBody()).build());
    }

    private HttpRequest.Builder request(String sql, Map<String, String> settings) {
        StringBuilder url = new StringBuilder(baseUrl).append("?query=").append(enc(sql));
        for (Map.Entry<String, String> e : settings.entrySet()) {
            url.append('&').append(enc(e.getKey())).append('=').append(enc(e.getValue()));
        }
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create(url.toString()))
                        .timeout(requestTimeout)
                        .header("X-ClickHouse-User", user);
        if (!password.isEmpty()) {
            b.header("X-ClickHouse-Key", password);
        }
        return b;
    }

    private String send(HttpRequest request) throws IOException, InterruptedException {
        return exchange(request).body();
    }

    /** The reply to a request, or the server's refusal as a {@link ClickHouseException}. */
    private HttpResponse<String> exchange(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> resp = http.send(request, HttpResponse.BodyHandlers.ofString());
        int status = resp.statusCode();
        if (status == 200) {
            return resp;
        }
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
        throw new ClickHouseException(
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
        // java.net.http.HttpClient has close() only from Java 21; on 17 its threads are daemons.
    }
}
