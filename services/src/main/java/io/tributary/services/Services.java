package io.tributary.services;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The command line of the local services, run by {@code bin/tributary} (through {@code bin/lib/services.sh}):
 *
 * <pre>
 *   services start [--env] [clickhouse|kafka]...   start them (default: both); reuses ones already running
 *   services stop [--purge] [clickhouse|kafka]...  stop them; --purge also deletes their data and logs
 *   services status [clickhouse|kafka]...          running (pid, port, RSS) or stopped; exit status 3 when any is stopped
 *   services reset [clickhouse|kafka]...           stop --purge
 *   services pid NAME                              the live PID of a service or cluster process (exit 1: none)
 *   services is-running NAME | clickhouse-url | kafka-bootstrap | kafka-secure | kafka-classpath
 *   services query SQL | kafka-tool CLASS ARGS...  ClickHouse over HTTP; a Kafka tool on the broker's classpath
 *   services cluster start|stop|status | cluster submit JAR [--savepoint P] [--allow-non-restored-state] [ARGS...]
 *   services test-tools                            Debian's tools the tests use, installed when missing
 * </pre>
 *
 * With {@code --env}, {@code start} prints {@code export NAME='value'} lines for a shell to evaluate (the
 * {@code TRIBUTARY_TEST_*} addresses the integration tests read, and {@code TRIBUTARY_STARTED}, the
 * services this call started) and its messages go to stderr. Settings are in {@link Settings}; the
 * repository root comes from the {@code ROOT} variable.
 */
public final class Services {

    static final List<String> NAMES = List.of(ClickHouse.NAME, Kafka.NAME);

    private final Map<String, String> env;
    private final Path root;

    Services(Map<String, String> env, Path root) {
        this.env = env;
        this.root = root;
    }

    public static void main(String[] args) {
        String rootVar = System.getenv("ROOT");
        if (rootVar == null || rootVar.isEmpty()) {
            Console.error("ROOT is not set (bin/tributary sets it to the repository root)");
            System.exit(1);
        }
        int code;
        try {
            code = new Services(System.getenv(), Path.of(rootVar)).run(List.of(args));
        } catch (ServiceException e) {
            Console.error(e.getMessage());
            code = 1;
        }
        System.exit(code);
    }

    /** Runs one command and returns the exit status. */
    int run(List<String> args) {
        String command = args.isEmpty() ? "" : args.get(0);
        List<String> rest = args.isEmpty() ? List.of() : args.subList(1, args.size());
        switch (command) {
            case "start" -> {
                boolean asEnv = !rest.isEmpty() && rest.get(0).equals("--env");
                return start(names(asEnv ? rest.subList(1, rest.size()) : rest), asEnv);
            }
            case "stop" -> {
                boolean purge = !rest.isEmpty() && rest.get(0).equals("--purge");
                stop(names(purge ? rest.subList(1, rest.size()) : rest), purge);
                return 0;
            }
            case "reset" -> {
                stop(names(rest), true);
                return 0;
            }
            case "status" -> {
                return status(names(rest));
            }
            case "is-running" -> {
                return rest.size() == 1 && pid(names(rest).get(0), true).isPresent() ? 0 : 1;
            }
            case "pid" -> {
                if (rest.size() != 1) {
                    throw new ServiceException("pid needs one name: clickhouse, kafka, flink-jobmanager or flink-taskmanager");
                }
                Optional<Long> pid = pidOf(rest.get(0));
                pid.ifPresent(System.out::println);
                return pid.isPresent() ? 0 : 1;
            }
            case "clickhouse-url" -> System.out.println(settings().clickHouseUrl());
            case "kafka-bootstrap" -> System.out.println(settings().kafkaBootstrap());
            case "kafka-secure" -> {
                Map<String, String> secure = new Kafka(settings()).secureEnvironment();
                if (secure.isEmpty()) {
                    return 1;
                }
                // the names services.sh printed: sasl_ssl, ssl, ca_file, ca_key, oauth_key
                secure.forEach((k, v) -> System.out.println(k.substring("TRIBUTARY_TEST_KAFKA_".length())
                        .replace("_BOOTSTRAP", "").toLowerCase(java.util.Locale.ROOT) + "=" + v));
            }
            case "kafka-classpath" -> System.out.println(new Kafka(settings()).classpath());
            case "kafka-tool" -> {
                if (rest.isEmpty()) {
                    throw new ServiceException("kafka-tool needs a main class, e.g. org.apache.kafka.tools.TopicCommand");
                }
                return kafkaTool(rest);
            }
            case "query" -> {
                if (rest.size() != 1) {
                    throw new ServiceException("query needs one SQL statement");
                }
                String out = new ClickHouse(settings()).query(rest.get(0)).stripTrailing();
                if (!out.isEmpty()) {
                    System.out.println(out);
                }
            }
            case "cluster" -> {
                return cluster(rest);
            }
            case "test-tools" -> TestTools.ensure();
            case "help", "-h", "--help" -> System.out.print(usage());
            default -> {
                if (!command.isEmpty()) {
                    Console.error("unknown services command '" + command + "'");
                }
                System.err.print(usage());
                return 2;
            }
        }
        return 0;
    }

    static String usage() {
        return """
                usage: bin/tributary services start|stop|status|reset [clickhouse|kafka]...

                  start           start the services (default: both); reuses ones already running
                  stop [--purge]  stop them; --purge also deletes their data and logs
                  status          print running (pid, port, RSS) or stopped; exit status 3 when any is stopped
                  reset           same as stop --purge

                Settings: TRIBUTARY_CLICKHOUSE_PORT (8123), TRIBUTARY_CLICKHOUSE_TCP_PORT (ClickHouse port + 1),
                TRIBUTARY_KAFKA_PORT (9092), TRIBUTARY_KAFKA_CONTROLLER_PORT (Kafka port + 1),
                TRIBUTARY_KAFKA_SASL_SSL_PORT (Kafka port + 2), TRIBUTARY_KAFKA_SSL_PORT (Kafka port + 3),
                TRIBUTARY_KAFKA_PARTITIONS (4), TRIBUTARY_CLICKHOUSE_MAX_MEMORY (4294967296),
                TRIBUTARY_KAFKA_HEAP (512m), TRIBUTARY_STATE_DIR (.run), TRIBUTARY_CACHE_DIR (~/.cache/tributary).
                """;
    }

    Settings settings() {
        return Settings.from(env, root);
    }

    /** Checks service names and returns them in start order (all when none given). */
    static List<String> names(List<String> given) {
        if (given.isEmpty()) {
            return NAMES;
        }
        for (String name : given) {
            if (!NAMES.contains(name)) {
                throw new ServiceException("unknown service '" + name + "' (known: " + String.join(" ", NAMES) + ")");
            }
        }
        return NAMES.stream().filter(given::contains).toList();
    }

    private Optional<Long> pid(String name, boolean quiet) {
        Settings s = settings();
        return name.equals(ClickHouse.NAME) ? new ClickHouse(s).pid(quiet) : new Kafka(s).pid(quiet);
    }

    /** The live PID of a service or of the cluster's {@code flink-jobmanager} or {@code flink-taskmanager}. */
    private Optional<Long> pidOf(String name) {
        if (name.equals(FlinkCluster.JOBMANAGER) || name.equals(FlinkCluster.TASKMANAGER)) {
            Settings s = settings();
            return Supervisor.pid(s.pidFile(name), new FlinkCluster(s, env).marker(name), true);
        }
        return pid(names(List.of(name)).get(0), true);
    }

    private int start(List<String> names, boolean asEnv) {
        if (asEnv) {
            Console.out = System.err;
        }
        Map<String, String> exports = start(names);
        if (asEnv) {
            System.out.print(shellExports(exports));
        }
        return 0;
    }

    /**
     * Starts the services not running yet and returns what the tests read of them: the {@code
     * TRIBUTARY_TEST_*} addresses, and {@code TRIBUTARY_STARTED}, the ones this call started.
     */
    Map<String, String> start(List<String> names) {
        Settings s = settings();
        List<String> started = new ArrayList<>();
        // What this call started is stopped again when a later service fails to start, and when the
        // call is interrupted (Ctrl-C during a first download): the caller only learns what to stop
        // from a start that succeeded.
        AtomicBoolean done = new AtomicBoolean();
        Thread undo = new Thread(() -> {
            if (done.compareAndSet(false, true)) {
                stopQuietly(started);
            }
        }, "tributary-services-undo");
        Runtime.getRuntime().addShutdownHook(undo);
        try {
            for (String name : names) {
                if (pid(name, true).isEmpty()) {
                    synchronized (started) {
                        started.add(name);
                    }
                }
                Supervisor.locked(s.dir(name).resolve(".lock"), () -> {
                    if (name.equals(ClickHouse.NAME)) {
                        new ClickHouse(s).start();
                    } else {
                        new Kafka(s).start();
                    }
                    return null;
                });
            }
            done.set(true);
        } catch (RuntimeException e) {
            if (done.compareAndSet(false, true)) {
                stopQuietly(started);
            }
            throw e;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(undo);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs (or ran) already
            }
        }
        Map<String, String> exports = new LinkedHashMap<>();
        exports.put("TRIBUTARY_STARTED", String.join(" ", started));
        if (names.contains(ClickHouse.NAME)) {
            exports.put("TRIBUTARY_TEST_CLICKHOUSE_URL", s.clickHouseUrl());
        }
        if (names.contains(Kafka.NAME)) {
            exports.put("TRIBUTARY_TEST_KAFKA_BOOTSTRAP", s.kafkaBootstrap());
            exports.putAll(new Kafka(s).secureEnvironment());
        }
        return exports;
    }

    /** {@code export NAME='value'} lines, each value single-quoted for a POSIX shell. */
    static String shellExports(Map<String, String> exports) {
        StringBuilder sb = new StringBuilder();
        exports.forEach((k, v) -> sb.append("export ").append(k).append("='").append(v.replace("'", "'\\''")).append("'\n"));
        return sb.toString();
    }

    /** Stops what a failed or interrupted start had started, saying so; a failure to stop is reported, not thrown. */
    private void stopQuietly(List<String> started) {
        List<String> names;
        synchronized (started) {
            names = new ArrayList<>(started);
        }
        if (names.isEmpty()) {
            return;
        }
        Console.say("stopping what this start had started: " + String.join(", ", names));
        try {
            stop(names, false);
        } catch (RuntimeException e) {
            Console.error("could not stop " + String.join(", ", names) + ": " + e.getMessage());
        }
    }

    private void stop(List<String> names, boolean purge) {
        Settings s = settings();
        for (String name : names) {
            if (name.equals(ClickHouse.NAME)) {
                Supervisor.stop(name, s.pidFile(name), new ClickHouse(s).marker(), ClickHouse.STOP_TIMEOUT);
            } else {
                Supervisor.stop(name, s.pidFile(name), new Kafka(s).marker(), Kafka.STOP_TIMEOUT);
            }
            if (purge && java.nio.file.Files.isDirectory(s.dir(name))) {
                try {
                    ClickHouse.deleteTree(s.dir(name));
                } catch (IOException e) {
                    throw new ServiceException("cannot delete " + s.dir(name) + ": " + e.getMessage(), e);
                }
                Console.say(name + ": deleted " + s.dir(name));
            }
        }
    }

    private int status(List<String> names) {
        Settings s = settings();
        int rc = 0;
        for (String name : names) {
            int port = name.equals(ClickHouse.NAME) ? s.clickHousePort() : s.kafkaPort();
            Optional<Long> pid = pid(name, true);
            if (pid.isPresent()) {
                String note = Supervisor.portOpen(port) ? "" : ", not answering on its port";
                Console.say(name + ": running (pid " + pid.get() + ", port " + port + ", RSS " + Supervisor.rss(pid.get()) + note + ")");
            } else {
                Console.say(name + ": stopped");
                rc = 3;
            }
        }
        return rc;
    }

    private int kafkaTool(List<String> classAndArgs) {
        Kafka kafka = new Kafka(settings());
        ProcessBuilder pb = new ProcessBuilder(kafka.toolCommand(classAndArgs)).inheritIO();
        pb.environment().put("CLASSPATH", kafka.classpath());
        try {
            return pb.start().waitFor();
        } catch (IOException e) {
            throw new ServiceException("cannot run " + classAndArgs.get(0) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 130;
        }
    }

    private int cluster(List<String> args) {
        String command = args.isEmpty() ? "" : args.get(0);
        FlinkCluster cluster = new FlinkCluster(settings(), env);
        switch (command) {
            case "start" -> cluster.start();
            case "stop" -> cluster.stop();
            case "status" -> {
                return cluster.status() ? 0 : 3;
            }
            case "submit" -> {
                if (args.size() < 2) {
                    throw new ServiceException("cluster submit needs a jar");
                }
                return cluster.submit(args.get(1), args.subList(2, args.size()));
            }
            default -> {
                if (!command.isEmpty()) {
                    Console.error("unknown cluster command '" + command + "'");
                }
                System.err.println("usage: bin/tributary cluster start|stop|status");
                return 2;
            }
        }
        return 0;
    }
}
