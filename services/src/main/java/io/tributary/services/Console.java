package io.tributary.services;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Messages of the services program: every line starts with {@code tributary:}; errors go to stderr. */
final class Console {

    /** Where progress goes: stdout, or stderr when stdout carries {@code start --env}'s shell lines. */
    static PrintStream out = System.out;

    private Console() {}

    static void say(String message) {
        out.println("tributary: " + message);
        out.flush();
    }

    static void error(String message) {
        System.err.println("tributary: error: " + message);
    }

    /** The last lines of a log file on stderr, indented, after naming it: what a failed start-up said. */
    static void logTail(Path log) {
        try {
            List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
            if (lines.isEmpty()) {
                System.err.println("tributary: " + log + " is empty or missing");
                return;
            }
            System.err.println("tributary: last lines of " + log + ":");
            lines.subList(Math.max(0, lines.size() - 25), lines.size()).forEach(l -> System.err.println("    " + l));
        } catch (IOException | java.io.UncheckedIOException e) {
            System.err.println("tributary: cannot read " + log + ": " + e.getMessage());
        }
    }

    /** The last lines of a tool's output, indented, on stderr. */
    static void tail(String output, int lines) {
        List<String> all = output.lines().toList();
        all.subList(Math.max(0, all.size() - lines), all.size()).forEach(l -> System.err.println("    " + l));
    }
}
