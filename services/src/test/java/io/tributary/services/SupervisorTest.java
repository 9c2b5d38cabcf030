package io.tributary.services;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Pid files, markers, detached processes, ports and locks, on real processes of this machine. */
class SupervisorTest {

    @TempDir
    Path tmp;

    @Test
    void aLiveProcessWithItsMarkerIsOursAndStopEndsIt() throws Exception {
        Path pidFile = tmp.resolve("x.pid");
        Path log = tmp.resolve("x.log");
        String marker = "--marker=" + tmp;
        long pid = Supervisor.spawn(List.of("python3", "-c",
                "import time; print('started', flush=True); time.sleep(60)", marker), log, Map.of());
        Supervisor.writePid(pidFile, pid);
        try {
            assertThat(Supervisor.pid(pidFile, marker, true)).contains(pid);
            Supervisor.awaitHealthy("x", pid, pidFile, log, Duration.ofSeconds(10), () -> {
                try {
                    return Files.readString(log).contains("started");
                } catch (java.io.IOException e) {
                    return false;
                }
            });
            // detached: a session of its own, so a terminal's Ctrl-C does not reach it (read once the
            // program runs: until setsid(1) has called setsid(2), the child is still in the JVM's session)
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            assertThat(Long.parseLong(fields[3])).as("session id").isEqualTo(pid);
            assertThat(Supervisor.rss(pid)).matches("[0-9]+ MiB");
        } finally {
            Supervisor.stop("x", pidFile, marker, Duration.ofSeconds(5));
        }
        assertThat(Supervisor.alive(pid)).isFalse();
        assertThat(pidFile).doesNotExist();
        assertThat(Files.readString(log)).isEqualTo("started\n");
    }

    @Test
    void aRecycledPidWithoutTheMarkerIsStaleAndItsFileRemoved() throws Exception {
        Path pidFile = tmp.resolve("y.pid");
        // this JVM is alive but is not the service
        Supervisor.writePid(pidFile, ProcessHandle.current().pid());
        assertThat(Supervisor.pid(pidFile, "--path=" + tmp + "/clickhouse/data", true)).isEmpty();
        assertThat(pidFile).doesNotExist();

        Files.writeString(pidFile, "not a pid\n");
        assertThat(Supervisor.pid(pidFile, "m", true)).isEmpty();
        assertThat(pidFile).doesNotExist();
        assertThat(Supervisor.pid(pidFile, "m", true)).isEmpty();
    }

    @Test
    void aDeadProcessIsNotAlive() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        assertThat(Supervisor.alive(p.pid())).isFalse();
        assertThat(Supervisor.alive(ProcessHandle.current().pid())).isTrue();
    }

    @Test
    void aProcessThatExitsDuringStartUpFailsTheWaitAtOnce() throws Exception {
        Path pidFile = tmp.resolve("z.pid");
        Path log = tmp.resolve("z.log");
        long pid = Supervisor.spawn(List.of("bash", "-c", "echo 'bad config' >&2; exit 3"), log, Map.of());
        Supervisor.writePid(pidFile, pid);
        long start = System.nanoTime();
        assertThatThrownBy(() -> Supervisor.awaitHealthy("z", pid, pidFile, log, Duration.ofSeconds(60), () -> false))
                .hasMessage("z (pid " + pid + ") exited during start-up; see " + log);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        assertThat(pidFile).doesNotExist();
        assertThat(Files.readString(log)).isEqualTo("bad config\n");
    }

    @Test
    void aTakenPortIsRefusedNamingTheVariable() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            int port = s.getLocalPort();
            assertThat(Supervisor.portOpen(port)).isTrue();
            assertThatThrownBy(() -> Supervisor.checkPortFree("kafka", port, "TRIBUTARY_KAFKA_PORT"))
                    .hasMessage("kafka: port " + port + " on 127.0.0.1 is already in use by another process;"
                            + " stop it or choose another port with TRIBUTARY_KAFKA_PORT=...");
            s.close();
            assertThat(Supervisor.portOpen(port)).isFalse();
            Supervisor.checkPortFree("kafka", port, "TRIBUTARY_KAFKA_PORT");
        }
    }

    @Test
    void stopWithoutAProcessSaysSo() {
        Supervisor.stop("kafka", tmp.resolve("none.pid"), "m", Duration.ofSeconds(1));
        assertThat(tmp.resolve("none.pid")).doesNotExist();
    }

    @Test
    void commandLinesSplitOnNul() {
        assertThat(Supervisor.splitNul("java\0-cp\0a b\0".getBytes(StandardCharsets.UTF_8)))
                .containsExactly("java", "-cp", "a b");
        assertThat(Supervisor.splitNul("x".getBytes(StandardCharsets.UTF_8))).containsExactly("x");
        assertThat(Supervisor.commandLine(ProcessHandle.current().pid())).isNotEmpty();
    }

    @Test
    void theLockWaitsForAnotherProcessHoldingIt() throws Exception {
        Path lock = tmp.resolve("sub/.lock");
        Files.createDirectories(lock.getParent());
        // another start, as a process of its own: Java's FileLock is a POSIX record lock, as Python's lockf
        Process other = new ProcessBuilder("python3", "-c", "import fcntl, sys, time\n"
                + "f = open(sys.argv[1], 'w'); fcntl.lockf(f, fcntl.LOCK_EX); print('locked', flush=True); time.sleep(1.5)",
                lock.toString()).redirectErrorStream(true).start();
        assertThat(new String(other.getInputStream().readNBytes(7), StandardCharsets.UTF_8)).isEqualTo("locked\n");
        long start = System.nanoTime();
        String got = Supervisor.locked(lock, () -> other.isAlive() ? "overlapped" : "after");
        assertThat(got).isEqualTo("after");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofMillis(500));
        other.waitFor();
    }

    @Test
    void bigLogsAreRotatedAtStart() throws Exception {
        Path log = tmp.resolve("k.log");
        Files.write(log, new byte[(int) Supervisor.LOG_ROTATE_BYTES + 1]);
        Supervisor.rotateLog(log);
        assertThat(log).doesNotExist();
        assertThat(Files.size(tmp.resolve("k.log.1"))).isEqualTo(Supervisor.LOG_ROTATE_BYTES + 1);
        Files.writeString(log, "small");
        Supervisor.rotateLog(log);
        assertThat(log).hasContent("small");
    }
}
