package io.tributary.services;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Debian tools the tests use, installed from Debian's packages when missing and this user may:
 * docker-compose validates docker/compose.yaml ({@code config} needs no Docker engine); socat is the
 * TLS terminator in front of ClickHouse and openssl makes the certificates ({@link Certificates}).
 */
final class TestTools {

    /** Command and the Debian package that holds it. */
    static final Map<String, String> TOOLS = Map.of("docker-compose", "docker-compose", "socat", "socat", "openssl", "openssl");

    private TestTools() {}

    static void ensure() {
        List<String> missing = new ArrayList<>();
        TOOLS.forEach((tool, pkg) -> {
            if (!Supervisor.onPath(tool)) {
                missing.add(pkg);
            }
        });
        if (missing.isEmpty()) {
            return;
        }
        boolean root = uid() == 0;
        if (!root || !Supervisor.onPath("apt-get")) {
            Console.say("not on PATH: " + String.join(" ", missing) + " (Debian: apt-get install "
                    + String.join(" ", missing) + "); the tests that use them will fail");
            return;
        }
        Console.say("installing Debian's " + String.join(" ", missing) + " (the tests use them)...");
        Map<String, String> env = Map.of("DEBIAN_FRONTEND", "noninteractive");
        boolean updated = false;
        for (String pkg : missing) {
            List<String> install = List.of("apt-get", "install", "-y", "-q", "--no-install-recommends", pkg);
            boolean ok = Supervisor.run(install, env, null).ok();
            if (!ok && !updated) {
                updated = Supervisor.run(List.of("apt-get", "update", "-q"), env, null).ok();
                ok = updated && Supervisor.run(install, env, null).ok();
            }
            if (!ok) {
                Console.say("could not install " + pkg + "; the tests that use it will fail");
            }
        }
    }

    /** This process's real user id (from {@code /proc/self/status}, as {@code id -u} gives it); -1 when unknown. */
    static long uid() {
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return Long.parseLong(line.substring(4).trim().split("\\s+")[0]);
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            // not Linux, or unreadable: treated as not root, so tools are installed with sudo
        }
        return -1;
    }
}
