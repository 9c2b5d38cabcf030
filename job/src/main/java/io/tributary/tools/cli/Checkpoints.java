package io.tributary.tools.cli;

import org.apache.flink.runtime.checkpoint.OperatorState;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The retained checkpoints of {@code bin/tributary run}, on the local file system: {@code
 * <dir>/<job id>/chk-<n>/_metadata}. Only directories named like a Flink job id (32 hex digits) are
 * ever deleted, so savepoints or other files kept under the same directory are left alone.
 */
final class Checkpoints {

    private static final Pattern JOB_ID = Pattern.compile("[0-9a-f]{32}");

    private Checkpoints() {}

    /** The local directory of a checkpoint directory URI, or null when it is not on this machine. */
    static Path local(String checkpointDirectory) {
        URI uri = URI.create(checkpointDirectory);
        if (uri.getScheme() == null) {
            return Path.of(checkpointDirectory);
        }
        return uri.getScheme().equals("file") ? Path.of(uri) : null;
    }

    /**
     * The newest completed checkpoint under {@code root} (newest {@code _metadata}; a {@code
     * chk-<n>} without one was cut short and is skipped), or null when there is none. The job
     * directories holding only older checkpoints are deleted: each run leaves one behind, and
     * resuming from an older one would write its rows again.
     */
    static Path latest(Path root) throws IOException {
        return latest(root, false);
    }

    /**
     * As {@link #latest(Path)}; a bounded run's final checkpoint is skipped when nothing in it
     * remains to be done: when every operator had finished, or at least once (the sinks write
     * everything before a checkpoint completes) when the sources had. Exactly once, a checkpoint
     * whose sources had finished while the sinks had not can still hold batches to insert
     * (decode and sink tasks outlive the sources when their parallelism differs): it is restored,
     * and that run only completes the earlier run's writes.
     */
    static Path latest(Path root, boolean exactlyOnce) throws IOException {
        if (!Files.isDirectory(root)) {
            return null;
        }
        List<Path> metadata;
        try (Stream<Path> files = Files.find(root, 3, (p, a) -> a.isRegularFile()
                && p.getFileName().toString().equals("_metadata")
                && p.getParent().getFileName().toString().startsWith("chk-")
                && JOB_ID.matcher(p.getParent().getParent().getFileName().toString()).matches())) {
            metadata = files.sorted(Comparator.comparing(Checkpoints::modified)
                            .thenComparingLong(Checkpoints::number)
                            .reversed())
                    .collect(Collectors.toList());
        }
        if (metadata.isEmpty()) {
            return null;
        }
        Path newest = metadata.get(0).getParent();
        deleteJobs(root, newest.getParent());
        Finished finished = finished(newest);
        if (finished == Finished.ALL || (finished == Finished.SOURCES && !exactlyOnce)) {
            // A bounded run's final checkpoint: every source had read to its end. Restored, its
            // sources would be deployed as finished and read nothing, whatever this run asks.
            System.err.println("tributary: the newest checkpoint, " + newest + ", is the end of a bounded run that"
                    + " read everything; starting from the consumer group's committed offsets instead");
            deleteJobs(root, null);
            return null;
        }
        if (finished == Finished.SOURCES) {
            System.err.println("tributary: the newest checkpoint, " + newest + ", was taken after the sources of a"
                    + " bounded run had read everything; this run inserts the batches it holds and ends: run again"
                    + " to read on");
        }
        return newest;
    }

    /** How much of a job had finished (in all its subtasks) when a checkpoint was taken. */
    enum Finished { NONE, SOURCES, ALL }

    /**
     * What had finished when the checkpoint was taken: with this topology some operator finishes
     * in all its subtasks only when a bounded run's sources have read everything, and every
     * operator at that run's very end.
     */
    static Finished finished(Path checkpoint) {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(
                Files.newInputStream(checkpoint.resolve("_metadata"))))) {
            CheckpointMetadata m = org.apache.flink.runtime.checkpoint.Checkpoints.loadCheckpointMetadata(
                    in, Checkpoints.class.getClassLoader(), checkpoint.toString());
            long done = m.getOperatorStates().stream().filter(OperatorState::isFullyFinished).count();
            return done == 0 ? Finished.NONE : done == m.getOperatorStates().size() ? Finished.ALL : Finished.SOURCES;
        } catch (IOException | RuntimeException e) {
            return Finished.NONE; // unreadable here: Flink says what is wrong with it when it restores
        }
    }

    /**
     * Deletes every job directory under {@code root} but {@code keep} (null: all): after a run
     * that ended by itself, whose last checkpoint Flink has already removed, so that the next run
     * does not go back to an older one.
     */
    static void deleteJobs(Path root, Path keep) throws IOException {
        if (!Files.isDirectory(root)) {
            return;
        }
        try (Stream<Path> jobs = Files.list(root)) {
            for (Path job : jobs.collect(Collectors.toList())) {
                if (Files.isDirectory(job) && JOB_ID.matcher(job.getFileName().toString()).matches() && !job.equals(keep)) {
                    delete(job);
                }
            }
        }
    }

    private static long number(Path metadata) {
        String chk = metadata.getParent().getFileName().toString();
        try {
            return Long.parseLong(chk.substring("chk-".length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static FileTime modified(Path p) {
        try {
            return Files.getLastModifiedTime(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Deletes a directory tree that Flink may still be cleaning up itself (a finished job's
     * checkpoint coordinator removes its last checkpoints asynchronously): what vanishes under the
     * walk is already where it should be.
     */
    static void delete(Path dir) throws IOException {
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                if (e != null && !(e instanceof NoSuchFileException)) {
                    throw e;
                }
                Files.deleteIfExists(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
