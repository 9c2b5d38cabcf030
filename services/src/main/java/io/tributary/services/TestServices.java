package io.tributary.services;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The integration tests' services when no {@code bin/tributary test} started them (a test run from an
 * IDE, or {@code mvn verify} alone): the same ClickHouse and Kafka, on the same test ports and state
 * directory ({@code TRIBUTARY_TEST_*_PORT}, {@code TRIBUTARY_TEST_STATE_DIR}, default 18123, 19092 and
 * {@code .run/test}), started on first use and stopped when the test JVM exits if this JVM started them.
 * Services already running are used and left running.
 */
public final class TestServices {

    private static Map<String, String> addresses;

    private TestServices() {}

    /**
     * The {@code TRIBUTARY_TEST_*} addresses of the running test services ({@code
     * TRIBUTARY_TEST_CLICKHOUSE_URL}, {@code TRIBUTARY_TEST_KAFKA_BOOTSTRAP} and the secure listeners'),
     * starting them first when they are not running.
     */
    public static synchronized Map<String, String> addresses() {
        if (addresses == null) {
            Map<String, String> env = testEnvironment(System.getenv(), root());
            Services services = new Services(env, root());
            Map<String, String> started = services.start(Services.NAMES);
            List<String> ours = Arrays.stream(started.getOrDefault("TRIBUTARY_STARTED", "").split(" "))
                    .filter(n -> !n.isEmpty()).toList();
            if (!ours.isEmpty()) {
                Runtime.getRuntime().addShutdownHook(new Thread(() -> services.run(
                        java.util.stream.Stream.concat(java.util.stream.Stream.of("stop"), ours.stream()).toList()),
                        "tributary-test-services-stop"));
            }
            addresses = Map.copyOf(started);
        }
        return addresses;
    }

    /**
     * The {@code TRIBUTARY_*} settings that point the services program at the test services (for a
     * test that runs {@code bin/lib/services.sh} itself): the same {@code bin/tributary test} exports.
     */
    public static Map<String, String> settings() {
        Map<String, String> all = testEnvironment(System.getenv(), root());
        Map<String, String> e = new HashMap<>();
        for (String k : List.of("TRIBUTARY_CLICKHOUSE_PORT", "TRIBUTARY_KAFKA_PORT", "TRIBUTARY_KAFKA_CONTROLLER_PORT",
                "TRIBUTARY_STATE_DIR")) {
            e.put(k, all.get(k));
        }
        return e;
    }

    /** The environment {@code bin/tributary test} gives the services: the test ports and state directory. */
    static Map<String, String> testEnvironment(Map<String, String> env, Path root) {
        Map<String, String> e = new HashMap<>(env);
        e.put("TRIBUTARY_CLICKHOUSE_PORT", Settings.orDefault(env, "TRIBUTARY_TEST_CLICKHOUSE_PORT", "18123"));
        e.put("TRIBUTARY_KAFKA_PORT", Settings.orDefault(env, "TRIBUTARY_TEST_KAFKA_PORT", "19092"));
        e.put("TRIBUTARY_KAFKA_CONTROLLER_PORT", Settings.orDefault(env, "TRIBUTARY_TEST_KAFKA_CONTROLLER_PORT", "19093"));
        e.put("TRIBUTARY_STATE_DIR", Settings.orDefault(env, "TRIBUTARY_TEST_STATE_DIR", root.resolve(".run/test").toString()));
        return e;
    }

    /** The repository root: the nearest directory at or above the working directory with services/pom.xml. */
    static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path d = dir; d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("services/pom.xml"))) {
                return d;
            }
        }
        throw new ServiceException("no repository root (a directory with services/pom.xml) at or above " + dir);
    }
}
