package io.tributary.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumState;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.metrics.groups.SplitEnumeratorMetricGroup;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;

/**
 * The enumerator's rules with a stand-in for the connector's: "no more splits" when the one
 * discovery of a bounded run finds nothing; positions handed back kept, acknowledged, and given out
 * again after a restore only once every reader has said what it restored itself.
 */
class ResumableKafkaEnumeratorTest {

    /** What the enumerators do to the readers. */
    static final class Context implements SplitEnumeratorContext<KafkaPartitionSplit> {
        final Map<Integer, Map<Integer, ReaderInfo>> readers = new HashMap<>();
        final List<String> log = new ArrayList<>();
        final int parallelism;

        Context(int parallelism) {
            this.parallelism = parallelism;
        }

        void register(int subtask, int attempt) {
            readers.computeIfAbsent(subtask, s -> new HashMap<>()).put(attempt, new ReaderInfo(subtask, "localhost"));
        }

        @Override
        public SplitEnumeratorMetricGroup metricGroup() {
            return null;
        }

        @Override
        public void sendEventToSourceReader(int subtaskId, SourceEvent event) {
            log.add("event " + subtaskId + " " + event.getClass().getSimpleName());
        }

        @Override
        public void sendEventToSourceReader(int subtaskId, int attemptNumber, SourceEvent event) {
            log.add("event " + subtaskId + "#" + attemptNumber + " " + event.getClass().getSimpleName());
        }

        @Override
        public int currentParallelism() {
            return parallelism;
        }

        @Override
        public Map<Integer, ReaderInfo> registeredReaders() {
            Map<Integer, ReaderInfo> out = new HashMap<>();
            readers.forEach((s, a) -> out.put(s, a.values().iterator().next()));
            return out;
        }

        @Override
        public Map<Integer, Map<Integer, ReaderInfo>> registeredReadersOfAttempts() {
            return readers;
        }

        @Override
        public void assignSplits(SplitsAssignment<KafkaPartitionSplit> newSplitAssignments) {
            log.add("assign " + newSplitAssignments.assignment());
        }

        @Override
        public void signalNoMoreSplits(int subtask) {
            log.add("no more splits " + subtask);
        }

        @Override
        public <T> void callAsync(Callable<T> callable, BiConsumer<T, Throwable> handler) {
            try {
                handler.accept(callable.call(), null);
            } catch (Exception e) {
                handler.accept(null, e);
            }
        }

        @Override
        public <T> void callAsync(Callable<T> callable, BiConsumer<T, Throwable> handler, long initialDelay, long period) {
            throw new AssertionError("no periodic discovery in these tests");
        }

        @Override
        public void runInCoordinatorThread(Runnable runnable) {
            runnable.run();
        }
    }

    /** The connector's enumerator as the wrapper drives it: its one discovery finds {@code newPartitions}. */
    static final class FakeKafkaEnumerator implements SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> {
        final SplitEnumeratorContext<KafkaPartitionSplit> context;
        final boolean newPartitions;
        final List<String> calls = new ArrayList<>();

        FakeKafkaEnumerator(SplitEnumeratorContext<KafkaPartitionSplit> context, boolean newPartitions) {
            this.context = context;
            this.newPartitions = newPartitions;
        }

        @Override
        public void start() {
            context.callAsync(() -> newPartitions, (found, error) -> {
                if (found) {
                    context.callAsync(() -> null, (x, e) -> calls.add("initialize new splits"));
                }
            });
        }

        @Override
        public void handleSplitRequest(int subtaskId, String requesterHostname) {}

        @Override
        public void addSplitsBack(List<KafkaPartitionSplit> splits, int subtaskId) {
            calls.add("addSplitsBack " + splits + " " + subtaskId);
        }

        @Override
        public void addReader(int subtaskId) {
            calls.add("addReader " + subtaskId);
        }

        @Override
        public KafkaSourceEnumState snapshotState(long checkpointId) {
            return new KafkaSourceEnumState(List.of(), List.of(), true);
        }

        @Override
        public void close() {}
    }

    private static final TopicPartition P0 = new TopicPartition("spans", 0);
    private static final TopicPartition P1 = new TopicPartition("spans", 1);

    @Test
    void aBoundedDiscoveryThatFindsNothingNewStillEndsTheRun() {
        Context ctx = new Context(2);
        FakeKafkaEnumerator[] kafka = new FakeKafkaEnumerator[1];
        ResumableKafkaEnumerator e = new ResumableKafkaEnumerator(ctx, c -> kafka[0] = new FakeKafkaEnumerator(c, false),
                Set.of("spans")::contains, true, List.of());
        ctx.register(0, 0);
        e.start();
        assertThat(ctx.log).containsExactly("no more splits 0");
        ctx.register(1, 0);
        e.addReader(1);
        assertThat(ctx.log).containsExactly("no more splits 0", "no more splits 1");
    }

    @Test
    void aDiscoveryThatFindsPartitionsLeavesTheSignalToTheConnector() {
        Context ctx = new Context(1);
        FakeKafkaEnumerator[] kafka = new FakeKafkaEnumerator[1];
        ResumableKafkaEnumerator e = new ResumableKafkaEnumerator(ctx, c -> kafka[0] = new FakeKafkaEnumerator(c, true),
                Set.of("spans")::contains, true, List.of());
        ctx.register(0, 0);
        e.start();
        assertThat(kafka[0].calls).containsExactly("initialize new splits");
        assertThat(ctx.log).isEmpty();
    }

    @Test
    void handedBackPositionsAreKeptAcknowledgedAndGivenOutAfterEveryReaderSaidWhatItRestored() throws Exception {
        Context ctx = new Context(2);
        FakeKafkaEnumerator[] kafka = new FakeKafkaEnumerator[1];
        ResumableKafkaEnumerator e = new ResumableKafkaEnumerator(ctx, c -> kafka[0] = new FakeKafkaEnumerator(c, true),
                Set.of("spans")::contains, true, List.of());
        e.start();
        ctx.register(0, 0);
        e.handleSourceEvent(0, 0, new SourceEvents.HandBack(Positions.of(List.of(new KafkaPartitionSplit(P0, 500, 500)))));
        assertThat(ctx.log).containsExactly("event 0#0 HandBackRecorded");
        // an event of an attempt that has been replaced is ignored
        ctx.register(1, 1);
        ctx.readers.get(1).put(0, new ReaderInfo(1, "localhost"));
        e.handleSourceEvent(1, 0, new SourceEvents.HandBack(Positions.of(List.of(new KafkaPartitionSplit(P1, 9, 9)))));
        assertThat(e.snapshotState(5).handedBack()).containsExactly(new KafkaPartitionSplit(P0, 500));

        // a later run restores those positions: given out once both readers have started, one of
        // which restored a split of its own for the other partition
        Context next = new Context(2);
        FakeKafkaEnumerator[] kafka2 = new FakeKafkaEnumerator[1];
        ResumableKafkaEnumerator restored = new ResumableKafkaEnumerator(next, c -> kafka2[0] = new FakeKafkaEnumerator(c, false),
                Set.of("spans")::contains, true, List.of(new KafkaPartitionSplit(P0, 500), new KafkaPartitionSplit(P1, 300)));
        next.register(0, 0);
        next.register(1, 0);
        restored.start();
        restored.addReader(0);
        restored.addReader(1);
        assertThat(next.log).as("no end is signalled before the positions are out").isEmpty();
        restored.handleSourceEvent(1, 0, new SourceEvents.ReaderStarted(Positions.of(List.of(new KafkaPartitionSplit(P1, 310)))));
        assertThat(kafka2[0].calls).containsExactly("addReader 0", "addReader 1");
        restored.handleSourceEvent(0, 0, new SourceEvents.ReaderStarted(Positions.of(List.of())));
        assertThat(kafka2[0].calls).containsExactly("addReader 0", "addReader 1",
                "addSplitsBack [[Partition: spans-0, StartingOffset: 500, StoppingOffset: -9223372036854775808]] -1",
                "addReader 0", "addReader 1");
        assertThat(next.log).containsExactlyInAnyOrder("no more splits 0", "no more splits 1");
        assertThat(restored.snapshotState(1).handedBack()).as("the reader's own, and the one given out").isEmpty();
    }
}
