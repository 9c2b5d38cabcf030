package io.tributary.tools.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.runtime.checkpoint.FullyFinishedOperatorState;
import org.apache.flink.runtime.checkpoint.OperatorState;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.DataOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;

/** Which retained checkpoint {@code run} resumes from. */
class CheckpointsTest {

    private static Path checkpoint(Path root, String job, int n, boolean sourcesFinished, long modified) throws Exception {
        return checkpoint(root, job, n, sourcesFinished, false, modified);
    }

    /** A checkpoint of a source and a sink, either or both finished in all their subtasks. */
    private static Path checkpoint(Path root, String job, int n, boolean sourcesFinished, boolean sinksFinished,
            long modified) throws Exception {
        Path chk = Files.createDirectories(root.resolve(job).resolve("chk-" + n));
        OperatorState source = sourcesFinished
                ? new FullyFinishedOperatorState("source", "tributary-source-traces", new OperatorID(), 2, 128)
                : new OperatorState("source", "tributary-source-traces", new OperatorID(), 2, 128);
        OperatorState sink = sinksFinished
                ? new FullyFinishedOperatorState("sink", "tributary-sink-clickhouse", new OperatorID(), 2, 128)
                : new OperatorState("sink", "tributary-sink-clickhouse", new OperatorID(), 2, 128);
        Path metadata = chk.resolve("_metadata");
        try (OutputStream out = Files.newOutputStream(metadata)) {
            org.apache.flink.runtime.checkpoint.Checkpoints.storeCheckpointMetadata(
                    new CheckpointMetadata(n, List.of(source, sink), List.of()), new DataOutputStream(out));
        }
        Files.setLastModifiedTime(metadata, FileTime.fromMillis(modified));
        return chk;
    }

    @Test
    void resumesFromTheNewestCheckpointAndDropsOlderRuns(@TempDir Path root) throws Exception {
        checkpoint(root, "0123456789abcdef0123456789abcdef", 7, false, 1_000);
        Path newest = checkpoint(root, "fedcba9876543210fedcba9876543210", 3, false, 2_000);
        Files.createDirectories(root.resolve("savepoints"));
        assertThat(Checkpoints.latest(root)).isEqualTo(newest);
        assertThat(root.resolve("0123456789abcdef0123456789abcdef")).doesNotExist();
        assertThat(root.resolve("savepoints")).as("only job directories are deleted").exists();
    }

    @Test
    void aBoundedRunsFinalCheckpointIsNotResumed(@TempDir Path root) throws Exception {
        // restored, its finished sources would read nothing, whatever the next run asks
        checkpoint(root, "0123456789abcdef0123456789abcdef", 9, true, true, 2_000);
        assertThat(Checkpoints.latest(root, true)).isNull();
        assertThat(root.resolve("0123456789abcdef0123456789abcdef")).doesNotExist();
        // at least once, the sinks hold nothing a completed checkpoint did not write
        checkpoint(root, "0123456789abcdef0123456789abcdef", 9, true, false, 2_000);
        assertThat(Checkpoints.latest(root, false)).isNull();
    }

    @Test
    void exactlyOnceACheckpointWhoseSinksHadNotFinishedIsResumedForTheBatchesItHolds(@TempDir Path root) throws Exception {
        Path chk = checkpoint(root, "0123456789abcdef0123456789abcdef", 9, true, false, 2_000);
        assertThat(Checkpoints.latest(root, true)).isEqualTo(chk);
    }

    @Test
    void deletingARunWhileFlinkStillRemovesItsCheckpointsToleratesWhatVanishes(@TempDir Path root) throws Exception {
        // a bounded run's coordinator removes its last checkpoints asynchronously, while run cleans up
        for (int round = 0; round < 20; round++) {
            Path job = root.resolve("0123456789abcdef0123456789abcdef");
            for (int c = 0; c < 20; c++) {
                Path chk = Files.createDirectories(job.resolve("chk-" + c));
                for (int f = 0; f < 20; f++) {
                    Files.write(chk.resolve("state-" + f), new byte[] {1});
                }
            }
            java.util.concurrent.atomic.AtomicReference<Exception> failed = new java.util.concurrent.atomic.AtomicReference<>();
            Thread flink = new Thread(() -> {
                try {
                    for (int c = 0; c < 20; c++) {
                        Checkpoints.delete(job.resolve("chk-" + c));
                    }
                } catch (Exception e) {
                    failed.set(e);
                }
            });
            flink.start();
            Checkpoints.deleteJobs(root, null);
            flink.join();
            assertThat(failed.get()).isNull();
            assertThat(job).doesNotExist();
        }
        Checkpoints.delete(root.resolve("never-there")); // a run that left nothing
    }
}
