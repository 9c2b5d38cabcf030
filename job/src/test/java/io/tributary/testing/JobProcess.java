package io.tributary.testing;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code bin/tributary run}'s Java side (or another of the commands' main classes) started as its
 * own process, as the command starts it (the module's classes and the Maven-resolved classpath,
 * the local log4j configuration), so a test can {@code kill -9} it and run it again. Its output
 * goes to {@code target/job-<name>.log}.
 */
public final class JobProcess implements AutoCloseable {

    private final Process process;
    private final Path log;
    private final Thread reaper;

    private JobProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
        this.reaper = new Thread(process::destroyForcibly); // never outlive the test JVM
        Runtime.getRuntime().addShutdownHook(reaper);
    }

    /** Starts {@code io.tributary.tools.cli.Tributary} with {@code args} (e.g. {@code run --key value ...}). */
    public static JobProcess start(String name, List<String> args) throws Exception {
        return start(name, "io.tributary.tools.cli.Tributary", List.of(), args);
    }

    /** Starts {@code mainClass} of the current module with extra JVM options and {@code args}. */
    public static JobProcess start(String name, String mainClass, List<String> jvmOptions, List<String> args)
            throws Exception {
        return start(name, mainClass, jvmOptions, args, java.util.Map.of());
    }

    /** {@link #start(String, String, List, List)} with more environment variables (secrets, as a deployment gives them). */
    public static JobProcess start(String name, String mainClass, List<String> jvmOptions, List<String> args,
            java.util.Map<String, String> environment) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("--add-opens") || a.startsWith("--add-exports")) {
                cmd.add(a);
            }
        }
        cmd.add("-Xmx768m");
        cmd.add("-Dlog4j.configurationFile=" + new File("../flink-conf/log4j-local.properties").getCanonicalPath());
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(new File("target/classes").getCanonicalPath() + File.pathSeparator
                + Files.readString(Path.of("target", "local-classpath.txt")).strip());
        cmd.add(mainClass);
        cmd.addAll(args);
        Path log = Path.of("target", "job-" + name + ".log");
        ProcessBuilder builder = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        return new JobProcess(builder.start(), log);
    }

    /** SIGKILL: no flush, no goodbye. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    /** The exit code, or null when it has not ended within the timeout (it is then still running). */
    public Integer waitFor(long seconds) throws InterruptedException {
        return process.waitFor(seconds, TimeUnit.SECONDS) ? process.exitValue() : null;
    }

    public String log() throws Exception {
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /** Waits until the log contains {@code text}; false on timeout or when the process ended first. */
    public boolean awaitLog(String text, long seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            if (log().contains(text)) {
                return true;
            }
            if (!process.isAlive()) {
                return log().contains(text);
            }
            Thread.sleep(200);
        }
        return false;
    }

    @Override
    public void close() throws InterruptedException {
        kill();
        Runtime.getRuntime().removeShutdownHook(reaper);
    }
}
