package io.tributary.services;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Background processes recorded in pid files: started detached (own session, stdin from /dev/null,
 * output appended to a log), recognised by a marker argument on their command line so a recycled PID
 * is never taken for ours, polled for health, stopped with SIGTERM then SIGKILL.
 */
final class Supervisor {

    /** A log bigger than this is moved to {@code <log>.1} when its service starts. */
    static final long LOG_ROTATE_BYTES = 50L * 1024 * 1024;

    private Supervisor() {}

    /**
     * The live PID recorded in {@code pidFile} whose command line holds {@code marker}; a stale pid
     * file is removed (and said so when {@code quiet} is false).
     */
    static Optional<Long> pid(Path pidFile, String marker, boolean quiet) {
        if (!Files.exists(pidFile)) {
            return Optional.empty();
        }
        String text;
        try {
            text = Files.readString(pidFile).strip();
        } catch (IOException e) {
            text = "";
        }
        if (text.matches("[0-9]{1,10}")) {
            long pid = Long.parseLong(text);
            if (alive(pid) && commandLine(pid).contains(marker)) {
                return Optional.of(pid);
            }
        }
        if (!quiet) {
            System.err.println("tributary: removing stale pid file " + pidFile + " (pid "
                    + (text.isEmpty() ? "?" : text) + " is not running)");
        }
        deleteQuietly(pidFile);
        return Optional.empty();
    }

    /** Alive and not a zombie (which an init that reaps slowly can leave for a while). */
    static boolean alive(long pid) {
        if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            return false;
        }
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("State:")) {
                    return !line.substring(6).strip().startsWith("Z");
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // no /proc: ProcessHandle's answer stands
        }
        return true;
    }

    /** The arguments of {@code pid}'s command line, or empty when they cannot be read. */
    static List<String> commandLine(long pid) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
            return splitNul(raw);
        } catch (IOException e) {
            return ProcessHandle.of(pid).flatMap(h -> h.info().arguments()).map(List::of).orElse(List.of());
        }
    }

    static List<String> splitNul(byte[] raw) {
        List<String> args = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < raw.length; i++) {
            if (raw[i] == 0) {
                args.add(new String(raw, start, i - start, StandardCharsets.UTF_8));
                start = i + 1;
            }
        }
        if (start < raw.length) {
            args.add(new String(raw, start, raw.length - start, StandardCharsets.UTF_8));
        }
        return args;
    }

    /**
     * Starts {@code command} detached and returns its PID: its own session ({@code setsid}, so a
     * Ctrl-C in the terminal that started it does not reach it), stdin from /dev/null, stdout and
     * stderr appended to {@code log}. The JVM closes every other descriptor in the child.
     */
    static long spawn(List<String> command, Path log, Map<String, String> environment) {
        List<String> cmd = new ArrayList<>();
        // setsid(1) execs in place (no fork) because a child of the JVM never leads a process group
        if (new File("/usr/bin/setsid").canExecute() || new File("/bin/setsid").canExecute()) {
            cmd.add("setsid");
        }
        cmd.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().putAll(environment);
        long pid;
        try {
            pid = pb.start().pid();
        } catch (IOException e) {
            throw new ServiceException("cannot start " + command.get(0) + ": " + e.getMessage(), e);
        }
        awaitExec(pid, command);
        return pid;
    }

    /**
     * Waits (a few seconds at most) until {@code pid} runs {@code command} itself: until then its
     * command line is still that of the launcher ({@code setsid}, or the JVM's helper), which has
     * neither the marker that tells the service's process apart nor its own session yet.
     */
    private static void awaitExec(long pid, List<String> command) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline && alive(pid) && !commandLine(pid).equals(command)) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    static void writePid(Path pidFile, long pid) {
        try {
            Files.writeString(pidFile, pid + "\n");
        } catch (IOException e) {
            throw new ServiceException("cannot write " + pidFile + ": " + e.getMessage(), e);
        }
    }

    /** Whether something accepts TCP connections on 127.0.0.1:{@code port}. */
    static boolean portOpen(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Fails when {@code port} answers but is not ours: the service could not bind it. */
    static void checkPortFree(String service, int port, String variable) {
        if (portOpen(port)) {
            throw new ServiceException(service + ": port " + port + " on 127.0.0.1 is already in use by another"
                    + " process; stop it or choose another port with " + variable + "=...");
        }
    }

    /**
     * Waits until {@code healthy} holds, failing early when {@code pid} exits (its pid file removed and
     * its log's tail shown). The process must still be alive after the check passed, so that another
     * process answering on the same port does not pass it.
     */
    static void awaitHealthy(String name, long pid, Path pidFile, Path log, Duration timeout, BooleanSupplier healthy) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!alive(pid)) {
                deleteQuietly(pidFile);
                Console.logTail(log);
                throw new ServiceException(name + " (pid " + pid + ") exited during start-up; see " + log);
            }
            if (healthy.getAsBoolean() && alive(pid)) {
                return;
            }
            sleep(500);
        }
        Console.logTail(log);
        throw new ServiceException(name + " (pid " + pid + ") did not become healthy within " + timeout.toSeconds()
                + "s; see " + log + " (it is left running: 'bin/tributary services stop' ends it)");
    }

    /** SIGTERM, then SIGKILL after {@code timeout}; says what it did. */
    static void stop(String name, Path pidFile, String marker, Duration timeout) {
        Optional<Long> pid = pid(pidFile, marker, false);
        if (pid.isEmpty()) {
            Console.say(name + ": not running");
            return;
        }
        ProcessHandle handle = ProcessHandle.of(pid.get()).orElse(null);
        if (handle != null) {
            handle.destroy();
            if (!waitGone(pid.get(), timeout)) {
                Console.say(name + ": pid " + pid.get() + " still running " + timeout.toSeconds()
                        + "s after SIGTERM, sending SIGKILL");
                handle.destroyForcibly();
                waitGone(pid.get(), Duration.ofSeconds(10));
            }
        }
        deleteQuietly(pidFile);
        Console.say(name + ": stopped (pid " + pid.get() + ")");
    }

    private static boolean waitGone(long pid, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (alive(pid)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            sleep(200);
        }
        return true;
    }

    /**
     * The resident memory of {@code pid} and its child processes (ClickHouse's engine runs in a child
     * of its supervisor) as "123 MiB", or "?" where /proc is missing.
     */
    static String rss(long pid) {
        Path status = Path.of("/proc", Long.toString(pid), "status");
        if (!Files.isReadable(status)) {
            return "?";
        }
        long kb = rssKb(pid);
        try {
            String children = Files.readString(Path.of("/proc", Long.toString(pid), "task", Long.toString(pid), "children"));
            for (String child : children.trim().split("\\s+")) {
                if (!child.isEmpty()) {
                    kb += rssKb(Long.parseLong(child));
                }
            }
        } catch (IOException e) {
            // no children file: the process alone
        }
        return (kb / 1024) + " MiB";
    }

    private static long rssKb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.substring(6).replace("kB", "").strip());
                }
            }
        } catch (IOException | RuntimeException e) {
            // gone meanwhile
        }
        return 0;
    }

    static void rotateLog(Path log) {
        try {
            if (Files.exists(log) && Files.size(log) > LOG_ROTATE_BYTES) {
                Files.move(log, log.resolveSibling(log.getFileName() + ".1"),
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new ServiceException("cannot rotate " + log + ": " + e.getMessage(), e);
        }
    }

    /**
     * Runs {@code body} holding an exclusive lock on {@code lockFile}, so two concurrent starts do not
     * download, resolve or launch the same thing twice.
     */
    static <T> T locked(Path lockFile, Callable<T> body) {
        try {
            Files.createDirectories(lockFile.getParent());
            try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
                FileLock lock;
                while ((lock = channel.tryLock()) == null) {
                    if (System.nanoTime() > deadline) {
                        throw new ServiceException("timed out waiting for the lock " + lockFile);
                    }
                    sleep(200);
                }
                try {
                    return body.call();
                } finally {
                    lock.release();
                }
            }
        } catch (ServiceException e) {
            throw e;
        } catch (Exception e) {
            throw new ServiceException(e.getMessage() == null ? e.toString() : e.getMessage(), e);
        }
    }

    /** Runs a short command to its end and returns its exit code and output (stdout and stderr). */
    static Result run(List<String> command, Map<String, String> environment, Path directory) {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().putAll(environment);
        if (directory != null) {
            pb.directory(directory.toFile());
        }
        try {
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return new Result(p.waitFor(), out);
        } catch (IOException e) {
            throw new ServiceException("cannot run " + command.get(0) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServiceException("interrupted while running " + command.get(0), e);
        }
    }

    /** A finished command's exit code and output. */
    record Result(int exitCode, String output) {
        boolean ok() {
            return exitCode == 0;
        }
    }

    /** Whether {@code tool} is an executable on PATH. */
    static boolean onPath(String tool) {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && new File(dir, tool).canExecute()) {
                return true;
            }
        }
        return false;
    }

    static void require(String... tools) {
        for (String tool : tools) {
            if (!onPath(tool)) {
                throw new ServiceException("'" + tool + "' is required but not on PATH");
            }
        }
    }

    /** The java launcher running this program: the one every Java service is started with. */
    static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // a pid file we cannot delete is found stale again next time
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServiceException("interrupted", e);
        }
    }
}
