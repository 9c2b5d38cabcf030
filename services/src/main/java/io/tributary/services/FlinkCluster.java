package io.tributary.services;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A standalone Flink 2.2.1 session cluster on this machine: one JobManager
 * ({@code StandaloneSessionClusterEntrypoint}) and one TaskManager ({@code TaskManagerRunner}), each
 * its own process, from the Maven-resolved Flink jars ({@code job/target/flink-classpath.txt}, and the
 * table stack in {@code udf/target/table-classpath.txt} once the udf module is built) and
 * {@code flink-conf/}, as Flink's own start-cluster.sh runs them from a distribution. State (pid, log,
 * checkpoints, savepoints, uploaded jars) under {@code $TRIBUTARY_STATE_DIR/flink-{jobmanager,taskmanager}}
 * and {@code flink/}.
 *
 * <p>Settings: {@code TRIBUTARY_FLINK_REST_PORT} (8081: dashboard and REST API),
 * {@code TRIBUTARY_FLINK_RPC_PORT} (6123), {@code TRIBUTARY_FLINK_PROMETHEUS_JM_PORT} (9249),
 * {@code TRIBUTARY_FLINK_PROMETHEUS_TM_PORT} (9250), {@code TRIBUTARY_CLUSTER_START_TIMEOUT} (90 s).
 */
final class FlinkCluster {

    static final String JOBMANAGER = "flink-jobmanager";
    static final String TASKMANAGER = "flink-taskmanager";
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    /** What Flink's own scripts open up on Java 17 (env.java.opts.all in the distribution's config). */
    static final List<String> JAVA_OPENS = List.of(
            "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
            "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
            "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.net=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.text=ALL-UNNAMED",
            "--add-opens=java.base/java.time=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

    private static final Pattern TASKMANAGERS = Pattern.compile("\"taskmanagers\":([0-9]+)");
    private static final String RESULT_PREFIX = "BASH_JAVA_UTILS_EXEC_RESULT:";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Settings settings;
    final int restPort;
    final int rpcPort;
    final int prometheusJm;
    final int prometheusTm;
    private final Duration startTimeout;

    FlinkCluster(Settings settings, Map<String, String> env) {
        this.settings = settings;
        restPort = Settings.port(env, "TRIBUTARY_FLINK_REST_PORT", 8081);
        rpcPort = Settings.port(env, "TRIBUTARY_FLINK_RPC_PORT", 6123);
        prometheusJm = Settings.port(env, "TRIBUTARY_FLINK_PROMETHEUS_JM_PORT", 9249);
        prometheusTm = Settings.port(env, "TRIBUTARY_FLINK_PROMETHEUS_TM_PORT", 9250);
        String timeout = Settings.orDefault(env, "TRIBUTARY_CLUSTER_START_TIMEOUT", "90");
        if (!timeout.matches("[0-9]{1,6}") || Integer.parseInt(timeout) < 1) {
            throw new ServiceException("TRIBUTARY_CLUSTER_START_TIMEOUT='" + timeout + "' is not a positive number of seconds");
        }
        startTimeout = Duration.ofSeconds(Integer.parseInt(timeout));
    }

    private Path confDir() {
        return settings.root().resolve("flink-conf");
    }

    private Path dir() {
        return settings.dir("flink");
    }

    /** The marker system property of a role's process: this state dir's cluster, never a recycled PID. */
    String marker(String role) {
        return "-Dtributary.cluster=" + settings.dir(role);
    }

    /** Flink's jars and, when the udf module has been built, its table stack: what a distribution's lib/ holds. */
    String classpath() {
        Path flink = settings.root().resolve("job/target/flink-classpath.txt");
        Path table = settings.root().resolve("udf/target/table-classpath.txt");
        try {
            String cp = Files.readString(flink).strip();
            return Files.exists(table) ? cp + ":" + Files.readString(table).strip() : cp;
        } catch (IOException e) {
            throw new ServiceException("cluster: " + flink + " is missing (bin/tributary build makes it)", e);
        }
    }

    /** The settings every process of the cluster (and the CLI) gets on top of config.yaml: ports and paths. */
    List<String> dynamicProperties() {
        return List.of("-Drest.port=" + restPort, "-Drest.address=127.0.0.1", "-Djobmanager.rpc.address=127.0.0.1",
                "-Djobmanager.rpc.port=" + rpcPort,
                "-Dexecution.checkpointing.dir=file://" + dir().resolve("checkpoints"),
                "-Dexecution.checkpointing.savepoint-dir=file://" + dir().resolve("savepoints"),
                "-Dweb.upload.dir=" + dir().resolve("uploads"), "-Dio.tmp.dirs=" + dir().resolve("tmp"));
    }

    void start() {
        String classpath = classpath();
        long started = System.nanoTime();
        Optional<Long> jm = Supervisor.pid(settings.pidFile(JOBMANAGER), marker(JOBMANAGER), true);
        if (jm.isEmpty()) {
            Supervisor.checkPortFree("jobmanager", restPort, "TRIBUTARY_FLINK_REST_PORT");
            Supervisor.checkPortFree("jobmanager", rpcPort, "TRIBUTARY_FLINK_RPC_PORT");
            Supervisor.checkPortFree("jobmanager", prometheusJm, "TRIBUTARY_FLINK_PROMETHEUS_JM_PORT");
            jm = Optional.of(spawn(JOBMANAGER, "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
                    "JM", prometheusJm, classpath));
        }
        Supervisor.awaitHealthy(JOBMANAGER, jm.get(), settings.pidFile(JOBMANAGER), settings.logFile(JOBMANAGER),
                startTimeout, () -> overview().isPresent());
        Optional<Long> tm = Supervisor.pid(settings.pidFile(TASKMANAGER), marker(TASKMANAGER), true);
        if (tm.isEmpty()) {
            Supervisor.checkPortFree("taskmanager", prometheusTm, "TRIBUTARY_FLINK_PROMETHEUS_TM_PORT");
            tm = Optional.of(spawn(TASKMANAGER, "org.apache.flink.runtime.taskexecutor.TaskManagerRunner",
                    "TM", prometheusTm, classpath));
        }
        Supervisor.awaitHealthy(TASKMANAGER, tm.get(), settings.pidFile(TASKMANAGER), settings.logFile(TASKMANAGER),
                startTimeout, () -> overview().map(FlinkCluster::taskManagers).orElse(0) >= 1);
        Console.say("cluster: Flink 2.2.1 session cluster up in " + (System.nanoTime() - started) / 1_000_000
                + " ms: JobManager pid " + jm.get() + ", TaskManager pid " + tm.get()
                + "; dashboard and REST on http://localhost:" + restPort + ", Prometheus on :" + prometheusJm
                + " (JobManager) and :" + prometheusTm + " (TaskManager); logs in " + settings.stateDir() + "/flink-*/");
    }

    private long spawn(String role, String mainClass, String kind, int prometheus, String classpath) {
        List<String> params = resourceParams(kind, classpath);
        Path log = settings.logFile(role);
        try {
            Files.createDirectories(settings.dir(role));
            Files.createDirectories(dir().resolve("tmp"));
            Files.createDirectories(dir().resolve("uploads"));
        } catch (IOException e) {
            throw new ServiceException("cluster: cannot create its directories under " + settings.stateDir(), e);
        }
        Supervisor.rotateLog(log);
        List<String> cmd = new ArrayList<>();
        cmd.add(Supervisor.java());
        cmd.addAll(words(params.get(0)));
        cmd.addAll(JAVA_OPENS);
        cmd.add(marker(role));
        cmd.add("-Dlog.file=" + log);
        cmd.add("-Dlog4j.configurationFile=" + confDir().resolve("log4j-cluster.properties"));
        cmd.addAll(List.of("-cp", classpath, mainClass, "--configDir", confDir().toString()));
        cmd.addAll(dynamicProperties());
        cmd.add("-Dmetrics.reporter.prom.port=" + prometheus);
        cmd.addAll(words(params.get(1)));
        long pid = Supervisor.spawn(cmd, log, Map.of());
        Supervisor.writePid(settings.pidFile(role), pid);
        return pid;
    }

    /**
     * The JVM options (first) and dynamic properties (second) Flink derives from its memory settings
     * for {@code kind} (JM or TM), as Flink's scripts get them from BashJavaUtils; without them the
     * TaskManager dies with "'taskmanager.cpu.cores' is not set".
     */
    private List<String> resourceParams(String kind, String classpath) {
        List<String> cmd = new ArrayList<>(List.of(Supervisor.java(), "-cp", classpath, "-Dlog4j2.level=WARN",
                "org.apache.flink.runtime.util.bash.BashJavaUtils", "GET_" + kind + "_RESOURCE_PARAMS",
                "--configDir", confDir().toString()));
        cmd.addAll(dynamicProperties());
        Supervisor.Result r = Supervisor.run(cmd, Map.of(), null);
        List<String> params = r.ok() ? resultLines(r.output()) : List.of();
        if (params.size() != 2) {
            Console.tail(r.output(), 20);
            throw new ServiceException("cluster: computing the " + kind + " memory settings from "
                    + confDir().resolve("config.yaml") + " failed");
        }
        return params;
    }

    /** The last two result lines of BashJavaUtils' output, without their prefix. */
    static List<String> resultLines(String output) {
        List<String> lines = output.lines().filter(l -> l.startsWith(RESULT_PREFIX))
                .map(l -> l.substring(RESULT_PREFIX.length())).toList();
        return lines.subList(Math.max(0, lines.size() - 2), lines.size());
    }

    static List<String> words(String line) {
        return Arrays.stream(line.strip().split("\\s+")).filter(w -> !w.isEmpty()).toList();
    }

    /** The number of registered TaskManagers in a REST {@code /overview} answer. */
    static int taskManagers(String overview) {
        Matcher m = TASKMANAGERS.matcher(overview);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    Optional<String> overview() {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + restPort + "/overview"))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? Optional.of(r.body()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    void stop() {
        Supervisor.stop(TASKMANAGER, settings.pidFile(TASKMANAGER), marker(TASKMANAGER), STOP_TIMEOUT);
        Supervisor.stop(JOBMANAGER, settings.pidFile(JOBMANAGER), marker(JOBMANAGER), STOP_TIMEOUT);
    }

    /** Prints each process's state and the REST overview; false when a process is stopped. */
    boolean status() {
        boolean all = true;
        for (String role : List.of(JOBMANAGER, TASKMANAGER)) {
            Optional<Long> pid = Supervisor.pid(settings.pidFile(role), marker(role), true);
            if (pid.isPresent()) {
                Console.say(role + ": running (pid " + pid.get() + ", RSS " + Supervisor.rss(pid.get()) + ")");
            } else {
                Console.say(role + ": stopped");
                all = false;
            }
        }
        overview().ifPresent(o -> Console.say("cluster: http://localhost:" + restPort + " " + o.strip()));
        return all;
    }

    /**
     * Submits {@code jar} with Flink's own command line front end ({@code flink run --detached}) and
     * returns its exit code; its output (the job id) goes to this program's. {@code --savepoint P} and
     * {@code --allow-non-restored-state} are {@code flink run}'s {@code --fromSavepoint} and
     * {@code --allowNonRestoredState}; the other arguments are the job's.
     */
    int submit(String jar, List<String> args) {
        SubmitArguments parsed = SubmitArguments.parse(args);
        if (overview().isEmpty()) {
            throw new ServiceException("no Flink cluster answers on http://127.0.0.1:" + restPort
                    + " (bin/tributary cluster start)");
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(Supervisor.java());
        cmd.addAll(JAVA_OPENS);
        cmd.add("-Dlog4j.configurationFile=" + confDir().resolve("log4j-cli.properties"));
        cmd.addAll(List.of("-cp", classpath(), "org.apache.flink.client.cli.CliFrontend", "run", "--detached",
                "-Drest.address=127.0.0.1", "-Drest.port=" + restPort));
        cmd.addAll(parsed.flink());
        cmd.add(jar);
        cmd.addAll(parsed.job());
        ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO();
        pb.environment().put("FLINK_CONF_DIR", confDir().toString());
        try {
            return pb.start().waitFor();
        } catch (IOException e) {
            throw new ServiceException("cannot run Flink's CliFrontend: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServiceException("interrupted", e);
        }
    }

    /** {@code bin/tributary submit}'s arguments split into {@code flink run}'s and the job's. */
    record SubmitArguments(List<String> flink, List<String> job) {

        static SubmitArguments parse(List<String> args) {
            List<String> flink = new ArrayList<>();
            List<String> job = new ArrayList<>();
            for (int i = 0; i < args.size(); i++) {
                switch (args.get(i)) {
                    case "--savepoint" -> {
                        if (i + 1 >= args.size()) {
                            throw new ServiceException("--savepoint needs a path");
                        }
                        flink.addAll(List.of("--fromSavepoint", args.get(++i)));
                    }
                    case "--allow-non-restored-state" -> flink.add("--allowNonRestoredState");
                    default -> job.add(args.get(i));
                }
            }
            return new SubmitArguments(List.copyOf(flink), List.copyOf(job));
        }
    }
}
