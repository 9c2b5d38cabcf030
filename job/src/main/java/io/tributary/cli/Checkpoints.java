package io.tributary.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The retained checkpoints of {@code bin/tributary run}, on the local file system. */
final class Checkpoints {

    private Checkpoints() {}

    /**
     * The newest completed checkpoint under a checkpoint directory ({@code <dir>/<job id>/chk-<n>}
     * with its {@code _metadata}), or null when there is none or the directory is not local. A
     * {@code chk-<n>} without {@code _metadata} was cut short and is skipped. Job directories
     * holding only older checkpoints are deleted: each run of the job leaves one behind.
     */
    static Path latest(String checkpointDirectory) throws IOException {
        URI uri = URI.create(checkpointDirectory);
        Path root;
        if (uri.getScheme() == null) {
            root = Path.of(checkpointDirectory);
        } else if (uri.getScheme().equals("file")) {
            root = Path.of(uri);
        } else {
            return null;
        }
        if (!Files.isDirectory(root)) {
            return null;
        }
        List<Path> metadata;
        try (Stream<Path> files = Files.find(root, 3, (p, a) -> a.isRegularFile()
                && p.getFileName().toString().equals("_metadata")
                && p.getParent().getFileName().toString().startsWith("chk-"))) {
            metadata = files.sorted(Comparator.comparing(Checkpoints::modified).reversed()).collect(Collectors.toList());
        }
        if (metadata.isEmpty()) {
            return null;
        }
        Path newest = metadata.get(0).getParent();
        Path newestJob = newest.getParent();
        try (Stream<Path> jobs = Files.list(root)) {
            for (Path job : jobs.filter(Files::isDirectory).collect(Collectors.toList())) {
                if (!job.equals(newestJob)) {
                    delete(job);
                }
            }
        }
        return newest;
    }

    private static FileTime modified(Path p) {
        try {
            return Files.getLastModifiedTime(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.deleteIfExists(p);
            }
        }
    }
}
