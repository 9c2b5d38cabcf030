package io.tributary.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.runtime.metrics.groups.InternalSourceReaderMetricGroup;
import org.apache.flink.util.UserCodeClassLoader;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The reader's rules with a stand-in for the connector's reader: this run's stopping offsets on
 * every split, finished splits kept in the state and handed back before the reader ends, splits
 * of other topics kept unread, and the read budget.
 */
class ResumableKafkaReaderTest {

    /** The connector's reader as far as the wrapper sees it: splits in, records out, splits it still reads. */
    static final class FakeKafkaReader implements SourceReader<SourceRecord, KafkaPartitionSplit> {
        final Map<String, KafkaPartitionSplit> splits = new LinkedHashMap<>();
        final List<SourceRecord> toEmit = new ArrayList<>();
        boolean noMoreSplits;

        @Override
        public void start() {}

        @Override
        public InputStatus pollNext(ReaderOutput<SourceRecord> output) {
            if (!toEmit.isEmpty()) {
                output.createOutputForSplit("x").collect(toEmit.remove(0));
                return InputStatus.MORE_AVAILABLE;
            }
            return noMoreSplits && splits.isEmpty() ? InputStatus.END_OF_INPUT : InputStatus.NOTHING_AVAILABLE;
        }

        @Override
        public List<KafkaPartitionSplit> snapshotState(long checkpointId) {
            return new ArrayList<>(splits.values());
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void addSplits(List<KafkaPartitionSplit> s) {
            s.forEach(x -> splits.put(x.splitId(), x));
        }

        @Override
        public void notifyNoMoreSplits() {
            noMoreSplits = true;
        }

        @Override
        public void close() {}
    }

    /** The events the reader sends to its enumerator. */
    static final class Context implements SourceReaderContext {
        final List<SourceEvent> sent = new ArrayList<>();

        @Override
        public SourceReaderMetricGroup metricGroup() {
            return InternalSourceReaderMetricGroup.mock(new UnregisteredMetricsGroup());
        }

        @Override
        public Configuration getConfiguration() {
            return new Configuration();
        }

        @Override
        public String getLocalHostName() {
            return "localhost";
        }

        @Override
        public int getIndexOfSubtask() {
            return 0;
        }

        @Override
        public void sendSplitRequest() {}

        @Override
        public void sendSourceEventToCoordinator(SourceEvent sourceEvent) {
            sent.add(sourceEvent);
        }

        @Override
        public UserCodeClassLoader getUserCodeClassLoader() {
            return null;
        }
    }

    static final class NullOutput implements ReaderOutput<SourceRecord> {
        final List<SourceRecord> collected = new ArrayList<>();

        @Override
        public void collect(SourceRecord record) {
            collected.add(record);
        }

        @Override
        public void collect(SourceRecord record, long timestamp) {
            collected.add(record);
        }

        @Override
        public void emitWatermark(Watermark watermark) {}

        @Override
        public void markIdle() {}

        @Override
        public void markActive() {}

        @Override
        public SourceOutput<SourceRecord> createOutputForSplit(String splitId) {
            return this;
        }

        @Override
        public void releaseOutputForSplit(String splitId) {}
    }

    private static final TopicPartition P0 = new TopicPartition("spans", 0);
    private static final TopicPartition P1 = new TopicPartition("spans", 1);

    @Test
    void everySplitGetsThisRunsStopAndFinishedOnesStayInTheStateUntilHandedBack() throws Exception {
        FakeKafkaReader kafka = new FakeKafkaReader();
        Context ctx = new Context();
        ResumableKafkaReader r = new ResumableKafkaReader(kafka, ctx, StopPolicy.at(Map.of(P0, 500L, P1, 900L)),
                Set.of("spans")::contains, null);
        // restored from an unbounded run (no stop) and from an earlier bounded run (its own stop)
        r.addSplits(List.of(new KafkaPartitionSplit(P0, 120), new KafkaPartitionSplit(P1, 300, 400),
                new KafkaPartitionSplit(new TopicPartition("old_topic", 0), 77)));
        assertThat(kafka.splits.get("spans-0").getStoppingOffset()).hasValue(500L);
        assertThat(kafka.splits.get("spans-1").getStoppingOffset()).hasValue(900L);
        assertThat(kafka.splits).doesNotContainKey("old_topic-0");
        // the connector finishes spans-0 and drops it from its state; the wrapper keeps it, at its end
        kafka.splits.remove("spans-0");
        List<KafkaPartitionSplit> state = r.snapshotState(1);
        assertThat(state).extracting(KafkaPartitionSplit::splitId).containsExactlyInAnyOrder("spans-0", "spans-1", "old_topic-0");
        KafkaPartitionSplit finished = state.stream().filter(s -> s.splitId().equals("spans-0")).findFirst().orElseThrow();
        assertThat(finished.getStartingOffset()).isEqualTo(500);
        // everything read: the positions go to the enumerator, and the reader ends only once it has them
        kafka.splits.clear();
        kafka.notifyNoMoreSplits();
        NullOutput out = new NullOutput();
        assertThat(r.pollNext(out)).isEqualTo(InputStatus.NOTHING_AVAILABLE);
        assertThat(ctx.sent).hasSize(1);
        Positions handed = ((SourceEvents.HandBack) ctx.sent.get(0)).positions;
        Map<String, Long> positions = new LinkedHashMap<>();
        for (int i = 0; i < handed.size(); i++) {
            positions.put(handed.partition(i).toString(), handed.offsets[i]);
        }
        assertThat(positions).containsOnly(Map.entry("spans-0", 500L), Map.entry("spans-1", 900L), Map.entry("old_topic-0", 77L));
        assertThat(r.snapshotState(2)).as("still its own until the enumerator has them").hasSize(3);
        assertThat(r.isAvailable()).isNotDone();
        r.handleSourceEvents(new SourceEvents.HandBackRecorded());
        assertThat(r.isAvailable()).isDone();
        assertThat(r.pollNext(out)).isEqualTo(InputStatus.END_OF_INPUT);
        assertThat(r.snapshotState(3)).isEmpty();
    }

    @Test
    void unboundedRunsReadOnSplitsThatAnEarlierBoundedRunStopped() {
        FakeKafkaReader kafka = new FakeKafkaReader();
        ResumableKafkaReader r = new ResumableKafkaReader(kafka, new Context(), StopPolicy.unbounded(), Set.of("spans")::contains, null);
        r.addSplits(List.of(new KafkaPartitionSplit(P0, 500, 500)));
        assertThat(kafka.splits.get("spans-0").getStoppingOffset()).isEmpty();
        assertThat(kafka.splits.get("spans-0").getStartingOffset()).isEqualTo(500);
    }

    @Test
    void theReadBudgetPausesTheReaderUntilACheckpointPastItsBarrierCompletes() throws Exception {
        FakeKafkaReader kafka = new FakeKafkaReader();
        ResumableKafkaReader r = new ResumableKafkaReader(kafka, new Context(), StopPolicy.unbounded(), Set.of("spans")::contains,
                new ReadBudget(250));
        r.addSplits(List.of(new KafkaPartitionSplit(P0, 0)));
        for (int i = 0; i < 6; i++) {
            kafka.toEmit.add(new SourceRecord("spans", 0, i, 0, new byte[100]));
        }
        NullOutput out = new NullOutput();
        for (int i = 0; i < 5; i++) {
            r.pollNext(out);
        }
        assertThat(out.collected).as("paused after 300 bytes, past 250").hasSize(3);
        CompletableFuture<Void> available = r.isAvailable();
        assertThat(available).isNotDone();
        r.snapshotState(7); // its barrier: 300 bytes read before it
        r.pollNext(out);
        assertThat(out.collected).as("a checkpoint that is taken but not complete frees nothing").hasSize(3);
        r.notifyCheckpointComplete(7);
        assertThat(available).isDone();
        r.pollNext(out);
        r.pollNext(out);
        r.pollNext(out);
        assertThat(out.collected).hasSize(6);
    }
}
