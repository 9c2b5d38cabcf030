package io.tributary.services;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The local services' settings, read from {@code TRIBUTARY_*} environment variables once and checked
 * together; every message names the variable.
 *
 * <pre>
 *   TRIBUTARY_CLICKHOUSE_PORT        ClickHouse HTTP port                          8123
 *   TRIBUTARY_CLICKHOUSE_TCP_PORT    ClickHouse native port (Distributed tables)   ClickHouse port + 1
 *   TRIBUTARY_CLICKHOUSE_MAX_MEMORY  ClickHouse max_server_memory_usage, bytes     4294967296
 *   TRIBUTARY_KAFKA_PORT             Kafka PLAINTEXT listener                      9092
 *   TRIBUTARY_KAFKA_CONTROLLER_PORT  KRaft controller listener                     Kafka port + 1
 *   TRIBUTARY_KAFKA_SASL_SSL_PORT    SASL_SSL listener (SCRAM-SHA-512, PLAIN, OAUTHBEARER)  Kafka port + 2
 *   TRIBUTARY_KAFKA_SSL_PORT         SSL listener requiring client certificates    Kafka port + 3
 *   TRIBUTARY_KAFKA_PARTITIONS       num.partitions of auto-created topics         4
 *   TRIBUTARY_KAFKA_HEAP             broker JVM -Xmx                               512m
 *   TRIBUTARY_STATE_DIR              data, pid and log files, one dir per service  $ROOT/.run
 *   TRIBUTARY_CACHE_DIR              downloads, kept outside the work tree         ${XDG_CACHE_HOME:-~/.cache}/tributary
 * </pre>
 *
 * @param root the repository root (where {@code services/} and {@code flink-conf/} are)
 */
public record Settings(
        Path root,
        int clickHousePort,
        int clickHouseTcpPort,
        long clickHouseMaxMemory,
        int kafkaPort,
        int kafkaControllerPort,
        int kafkaSaslSslPort,
        int kafkaSslPort,
        int kafkaPartitions,
        String kafkaHeap,
        Path stateDir,
        Path cacheDir) {

    /** ClickHouse refuses to run queries with much less. */
    static final long MIN_CLICKHOUSE_MEMORY = 268_435_456L;

    private static final Pattern HEAP = Pattern.compile("[0-9]+[kKmMgG]?");

    /** Reads and checks the settings; the state and cache directories are made and made absolute. */
    public static Settings from(Map<String, String> env, Path root) {
        int chPort = port(env, "TRIBUTARY_CLICKHOUSE_PORT", 8123);
        int kafkaPort = port(env, "TRIBUTARY_KAFKA_PORT", 9092);
        int controller = port(env, "TRIBUTARY_KAFKA_CONTROLLER_PORT", kafkaPort + 1);
        int saslSsl = port(env, "TRIBUTARY_KAFKA_SASL_SSL_PORT", kafkaPort + 2);
        int ssl = port(env, "TRIBUTARY_KAFKA_SSL_PORT", kafkaPort + 3);
        int chTcp = port(env, "TRIBUTARY_CLICKHOUSE_TCP_PORT", chPort + 1);
        Map<String, Integer> ports = new LinkedHashMap<>();
        ports.put("TRIBUTARY_CLICKHOUSE_PORT", chPort);
        ports.put("TRIBUTARY_CLICKHOUSE_TCP_PORT", chTcp);
        ports.put("TRIBUTARY_KAFKA_PORT", kafkaPort);
        ports.put("TRIBUTARY_KAFKA_CONTROLLER_PORT", controller);
        ports.put("TRIBUTARY_KAFKA_SASL_SSL_PORT", saslSsl);
        ports.put("TRIBUTARY_KAFKA_SSL_PORT", ssl);
        if (ports.values().stream().distinct().count() != ports.size()) {
            StringBuilder sb = new StringBuilder();
            ports.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ", ").append(k).append(" (").append(v).append(')'));
            throw new ServiceException(sb + " must all differ");
        }
        String partitions = orDefault(env, "TRIBUTARY_KAFKA_PARTITIONS", "4");
        if (!partitions.matches("[0-9]{1,9}") || Integer.parseInt(partitions) < 1) {
            throw new ServiceException("TRIBUTARY_KAFKA_PARTITIONS='" + partitions + "' is not a positive integer");
        }
        String memory = orDefault(env, "TRIBUTARY_CLICKHOUSE_MAX_MEMORY", "4294967296");
        if (!memory.matches("[0-9]{1,18}") || Long.parseLong(memory) < MIN_CLICKHOUSE_MEMORY) {
            throw new ServiceException("TRIBUTARY_CLICKHOUSE_MAX_MEMORY='" + memory
                    + "' must be a number of bytes, at least " + MIN_CLICKHOUSE_MEMORY);
        }
        String heap = orDefault(env, "TRIBUTARY_KAFKA_HEAP", "512m");
        if (!HEAP.matcher(heap).matches()) {
            throw new ServiceException("TRIBUTARY_KAFKA_HEAP='" + heap + "' is not a JVM heap size such as 512m or 1g");
        }
        Path state = directory(env, "TRIBUTARY_STATE_DIR", root.resolve(".run").toString());
        String home = orDefault(env, "HOME", System.getProperty("user.home"));
        String xdg = orDefault(env, "XDG_CACHE_HOME", home + "/.cache");
        Path cache = directory(env, "TRIBUTARY_CACHE_DIR", xdg + "/tributary");
        return new Settings(root, chPort, chTcp, Long.parseLong(memory), kafkaPort, controller, saslSsl, ssl,
                Integer.parseInt(partitions), heap, state, cache);
    }

    /** A port setting, or {@code fallback} when unset; fails naming {@code name} when it is not a TCP port. */
    static int port(Map<String, String> env, String name, int fallback) {
        String v = env.get(name);
        if (v == null || v.isEmpty()) {
            v = Integer.toString(fallback);
        }
        if (!v.matches("[0-9]{1,5}") || Integer.parseInt(v) < 1 || Integer.parseInt(v) > 65535) {
            throw new ServiceException(name + "='" + v + "' is not a TCP port (1-65535)");
        }
        return Integer.parseInt(v);
    }

    private static Path directory(Map<String, String> env, String name, String fallback) {
        String v = env.get(name);
        Path dir = Path.of(v == null || v.isEmpty() ? fallback : v);
        try {
            return Files.createDirectories(dir).toRealPath();
        } catch (IOException e) {
            throw new ServiceException("cannot create " + name + " '" + dir + "': " + e.getMessage(), e);
        }
    }

    /** {@code <state>/<service>}, the directory of one service's data, pid and log files. */
    public Path dir(String service) {
        return stateDir.resolve(service);
    }

    public Path pidFile(String service) {
        return dir(service).resolve(service + ".pid");
    }

    public Path logFile(String service) {
        return dir(service).resolve(service + ".log");
    }

    public String clickHouseUrl() {
        return "http://127.0.0.1:" + clickHousePort;
    }

    public String kafkaBootstrap() {
        return "127.0.0.1:" + kafkaPort;
    }

    /** A variable's value, or {@code fallback} when it is unset or empty (as the shell's {@code ${VAR:-fallback}}). */
    static String orDefault(Map<String, String> env, String name, String fallback) {
        String v = env.get(name);
        return v == null || v.isEmpty() ? fallback : v;
    }
}
