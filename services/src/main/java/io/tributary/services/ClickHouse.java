package io.tributary.services;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The local ClickHouse 26.7: {@code libchdb.so} from the npm package {@code @chdb/lib-linux-x64-gnu} (a
 * complete ClickHouse 26.7.2.1 build) run by {@code services/clickhouse_server.py} in its own process
 * (the engine installs its own signal handlers, so never inside a JVM), serving HTTP and the native
 * protocol on 127.0.0.1, with the users and profiles the integration tests log in as.
 */
final class ClickHouse {

    static final String NAME = "clickhouse";
    static final String PACKAGE = "@chdb/lib-linux-x64-gnu";
    static final String VERSION = "26.7.3-stable.1";
    /** shasum from {@code npm view @chdb/lib-linux-x64-gnu@26.7.3-stable.1 dist}; guards a reused tarball. */
    static final String SHA1 = "d2905fafd0e0ac0e231cccadd1f0f6d010977297";
    static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(25);

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Settings settings;

    ClickHouse(Settings settings) {
        this.settings = settings;
    }

    /** The argument that tells this state dir's ClickHouse apart on its command line. */
    String marker() {
        return "--path=" + settings.dir(NAME).resolve("data");
    }

    Optional<Long> pid(boolean quiet) {
        return Supervisor.pid(settings.pidFile(NAME), marker(), quiet);
    }

    void start() {
        Path dir = settings.dir(NAME);
        Optional<Long> running = pid(false);
        if (running.isPresent()) {
            await(running.get());
            Console.say("clickhouse: already running, reusing it (pid " + running.get() + ", " + settings.clickHouseUrl() + ")");
            return;
        }
        Supervisor.checkPortFree(NAME, settings.clickHousePort(), "TRIBUTARY_CLICKHOUSE_PORT");
        Supervisor.checkPortFree(NAME, settings.clickHouseTcpPort(), "TRIBUTARY_CLICKHOUSE_TCP_PORT");
        Supervisor.require("python3");
        Path lib = library();
        try {
            Files.createDirectories(dir.resolve("data"));
            Files.writeString(dir.resolve("users.xml"), usersXml());
            Files.writeString(dir.resolve("config.xml"), configXml(dir.resolve("users.xml"), settings.logFile(NAME)));
        } catch (IOException e) {
            throw new ServiceException("clickhouse: cannot write its configuration in " + dir + ": " + e.getMessage(), e);
        }
        Supervisor.rotateLog(settings.logFile(NAME));
        long started = System.nanoTime();
        long pid = Supervisor.spawn(List.of("python3", settings.root().resolve("services/clickhouse_server.py").toString(),
                "--lib", lib.toString(), marker(), "--http-port", Integer.toString(settings.clickHousePort()),
                "--tcp-port", Integer.toString(settings.clickHouseTcpPort()), "--listen-host", "127.0.0.1",
                "--", "--config-file=" + dir.resolve("config.xml"), "--log-level=warning"), settings.logFile(NAME), Map.of());
        Supervisor.writePid(settings.pidFile(NAME), pid);
        await(pid);
        String version;
        try {
            version = query("SELECT version()").strip();
        } catch (ServiceException e) {
            Console.logTail(settings.logFile(NAME));
            throw new ServiceException("clickhouse (pid " + pid + ") answers /ping but not 'SELECT version()'; see "
                    + settings.logFile(NAME));
        }
        Console.say("clickhouse: started ClickHouse " + version + " (pid " + pid + ", " + settings.clickHouseUrl()
                + ", data in " + dir.resolve("data") + ") in " + (System.nanoTime() - started) / 1_000_000 + " ms");
    }

    private void await(long pid) {
        Supervisor.awaitHealthy(NAME, pid, settings.pidFile(NAME), settings.logFile(NAME), START_TIMEOUT, this::healthy);
    }

    /** {@code /ping} answers "Ok.". */
    boolean healthy() {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(settings.clickHouseUrl() + "/ping"))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 && r.body().strip().equals("Ok.");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Runs {@code sql} over HTTP as the default user and returns the answer; fails with ClickHouse's error. */
    String query(String sql) {
        HttpResponse<String> r;
        try {
            r = HTTP.send(HttpRequest.newBuilder(URI.create(settings.clickHouseUrl() + "/"))
                    .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.ofString(sql)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new ServiceException("clickhouse: no answer on " + settings.clickHouseUrl() + " (is it started?)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServiceException("interrupted", e);
        }
        if (r.statusCode() != 200) {
            throw new ServiceException("clickhouse: " + r.body().strip());
        }
        return r.body();
    }

    /** The path of libchdb.so, downloading and unpacking the npm package on first use. */
    Path library() {
        Path dir = settings.cacheDir().resolve("chdb");
        Path lib = dir.resolve("lib-linux-x64-gnu-" + VERSION).resolve("libchdb.so");
        if (Files.exists(lib)) {
            return lib;
        }
        return Supervisor.locked(dir.resolve(".lock"), () -> fetch(dir, lib));
    }

    private Path fetch(Path dir, Path lib) throws IOException {
        if (Files.exists(lib)) {
            return lib; // unpacked by a concurrent start while we waited for the lock
        }
        String os = System.getProperty("os.name");
        String arch = System.getProperty("os.arch");
        if (!os.equals("Linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            throw new ServiceException("clickhouse: " + PACKAGE + " runs on Linux x86-64 only (this is " + os + " " + arch + ")");
        }
        Path tarball = dir.resolve("chdb-lib-linux-x64-gnu-" + VERSION + ".tgz"); // the name npm pack gives it
        if (Files.exists(tarball) && !SHA1.equals(sha1(tarball))) {
            Console.say("clickhouse: " + tarball + " is incomplete or corrupt, downloading it again");
            Files.delete(tarball);
        }
        if (!Files.exists(tarball)) {
            Supervisor.require("npm");
            Console.say("clickhouse: downloading " + PACKAGE + "@" + VERSION + " (ClickHouse 26.7, ~178 MB) into " + dir);
            Path tmp = Files.createTempDirectory(dir, ".download.");
            try {
                Supervisor.Result r = Supervisor.run(List.of("npm", "pack", "--silent", "--ignore-scripts",
                        PACKAGE + "@" + VERSION), Map.of(), tmp);
                if (!r.ok()) {
                    Console.tail(r.output(), 10);
                    throw new ServiceException("clickhouse: 'npm pack " + PACKAGE + "@" + VERSION
                            + "' failed (is the npm registry reachable?)");
                }
                Path downloaded = tmp.resolve(tarball.getFileName());
                if (!SHA1.equals(sha1(downloaded))) {
                    throw new ServiceException("clickhouse: the downloaded tarball's sha1 is not " + SHA1);
                }
                Files.move(downloaded, tarball, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                deleteTree(tmp);
            }
        }
        Console.say("clickhouse: unpacking libchdb.so into " + lib.getParent());
        Supervisor.require("tar");
        Path tmp = Files.createTempDirectory(dir, ".unpack.");
        try {
            Supervisor.Result r = Supervisor.run(List.of("tar", "-xzf", tarball.toString(), "-C", tmp.toString(),
                    "package/libchdb.so"), Map.of(), null);
            if (!r.ok()) {
                throw new ServiceException("clickhouse: cannot unpack " + tarball + ": " + r.output().strip());
            }
            deleteTree(lib.getParent());
            Files.move(tmp.resolve("package"), lib.getParent());
        } finally {
            deleteTree(tmp);
        }
        return lib;
    }

    static String sha1(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-1");
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /**
     * The users and profiles: the built-in {@code default} user, and the users whose profiles the
     * integration tests need (read-only, progress headers, little memory, a password).
     */
    static String usersXml() {
        return """
                <!-- Written by bin/tributary services on every start; edits are overwritten. -->
                <clickhouse>
                    <profiles>
                        <default></default>
                        <readonly><readonly>1</readonly></readonly>
                        <!-- ClickHouse sends 200 and its headers before a query ends, and a later failure only in
                             a trailing header and the body (the tests of INSERTs that fail after their 200) -->
                        <progress>
                            <send_progress_in_http_headers>1</send_progress_in_http_headers>
                            <http_headers_progress_interval_ms>1</http_headers_progress_interval_ms>
                        </progress>
                        <!-- a server short of memory for large INSERTs (the tests of batches split for memory) -->
                        <small_memory>
                            <max_memory_usage>40000000</max_memory_usage>
                        </small_memory>
                    </profiles>
                    <users>
                        <!-- as clickhouse-local's built-in default user -->
                        <default>
                            <password></password>
                            <networks><ip>::/0</ip></networks>
                            <profile>default</profile>
                            <quota>default</quota>
                        </default>
                        <!-- a user that may read but not write, for the tests of permission errors -->
                        <tributary_readonly>
                            <password></password>
                            <networks><ip>::/0</ip></networks>
                            <profile>readonly</profile>
                            <quota>default</quota>
                        </tributary_readonly>
                        <!-- users whose profiles above change how INSERTs are answered or limited -->
                        <tributary_progress>
                            <password></password>
                            <networks><ip>::/0</ip></networks>
                            <profile>progress</profile>
                            <quota>default</quota>
                        </tributary_progress>
                        <tributary_small_memory>
                            <password></password>
                            <networks><ip>::/0</ip></networks>
                            <profile>small_memory</profile>
                            <quota>default</quota>
                        </tributary_small_memory>
                        <!-- a user with a password, for the tests of passwords taken from files and the environment -->
                        <tributary_password>
                            <password>pw-from-the-environment</password>
                            <networks><ip>::/0</ip></networks>
                            <profile>default</profile>
                            <quota>default</quota>
                        </tributary_password>
                    </users>
                    <quotas><default></default></quotas>
                </clickhouse>
                """;
    }

    /** The server configuration: the users file, one local shard over the native port, memory caps, logs. */
    String configXml(Path usersFile, Path logFile) {
        return """
                <!-- Written by bin/tributary services on every start; edits are overwritten. -->
                <clickhouse>
                    <users_config>%s</users_config>
                    <!-- One shard of this server over its native port: what Distributed tables in the tests spread over.
                         clickhouse-local runs no distributed DDL (ON CLUSTER), so replicated clusters are not tried here. -->
                    <remote_servers>
                        <tributary_local>
                            <shard><replica><host>127.0.0.1</host><port>%d</port></replica></shard>
                        </tributary_local>
                    </remote_servers>
                    <!-- A shared development machine: cap the server instead of taking 90%% of RAM. -->
                    <max_server_memory_usage>%d</max_server_memory_usage>
                    <mark_cache_size>268435456</mark_cache_size>
                    <index_mark_cache_size>134217728</index_mark_cache_size>
                    <primary_index_cache_size>268435456</primary_index_cache_size>
                    <!-- Off by default in clickhouse-local; kept a few days to debug what the sink sent. -->
                    <query_log>
                        <database>system</database>
                        <table>query_log</table>
                        <flush_interval_milliseconds>1000</flush_interval_milliseconds>
                        <ttl>event_date + INTERVAL 3 DAY</ttl>
                    </query_log>
                    <logger>
                        <log>%s</log>
                        <console>0</console>
                    </logger>
                </clickhouse>
                """.formatted(xml(usersFile), settings.clickHouseTcpPort(), settings.clickHouseMaxMemory(), xml(logFile));
    }

    /** A path as XML text. */
    static String xml(Path path) {
        return path.toString().replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
