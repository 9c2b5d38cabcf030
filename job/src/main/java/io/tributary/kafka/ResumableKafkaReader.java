package io.tributary.kafka;

import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.MetricGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * The Kafka connector's reader, made to resume from the state of any earlier run of the job.
 *
 * <ul>
 *   <li>Every split it is given gets this run's stopping offset ({@link StopPolicy}): a split
 *       restored from an unbounded run's checkpoint stops where this bounded run stops, one from a
 *       bounded run reads on in an unbounded one.
 *   <li>A split it finished stays in its state (at its stopping offset) while it reads others: the
 *       connector drops finished splits from the state, and a later run restoring it would never
 *       read that partition again. When all are finished, it hands their positions to the
 *       enumerator ({@link SourceEvents}) and ends only once the enumerator has them: its finished
 *       task keeps no state.
 *   <li>Splits of topics this run does not read (the topics were changed) are kept in its state,
 *       unread, instead of feeding records that no signal reads.
 *   <li>With a {@link ReadBudget} (exactly once), it pauses once it has read the budget past the
 *       last completed checkpoint.
 * </ul>
 */
final class ResumableKafkaReader implements SourceReader<SourceRecord, KafkaPartitionSplit> {

    private static final Logger LOG = LoggerFactory.getLogger(ResumableKafkaReader.class);

    private final SourceReader<SourceRecord, KafkaPartitionSplit> kafka;
    private final SourceReaderContext context;
    private final StopPolicy stops;
    private final Predicate<String> topics;
    private final ReadBudget budget;
    /** Splits given to the Kafka reader, as given (with this run's stopping offsets). */
    private final Map<String, KafkaPartitionSplit> reading = new LinkedHashMap<>();
    /** Splits the Kafka reader finished, at their end. */
    private final Map<String, KafkaPartitionSplit> finished = new TreeMap<>();
    /** Splits of topics this run does not read. */
    private final Map<String, KafkaPartitionSplit> parked = new TreeMap<>();
    /** Completes when the enumerator has what this reader handed back; null until it hands back. */
    private CompletableFuture<Void> handedBack;

    /**
     * @param budget bytes to read past the last completed checkpoint, or null for no limit
     */
    ResumableKafkaReader(SourceReader<SourceRecord, KafkaPartitionSplit> kafka, SourceReaderContext context,
            StopPolicy stops, Predicate<String> topics, ReadBudget budget) {
        this.kafka = kafka;
        this.context = context;
        this.stops = stops;
        this.topics = topics;
        this.budget = budget;
        if (budget != null) {
            MetricGroup g = context.metricGroup().addGroup("tributary");
            g.gauge("bytesSinceCompletedCheckpoint", budget::held);
            g.gauge("pausesForCheckpoint", budget::pauses);
        }
    }

    /**
     * Flink gives a reader its restored splits before it starts: they are this reader's, and the
     * enumerator learns which they are before it gives out the positions it keeps.
     */
    @Override
    public void start() {
        List<KafkaPartitionSplit> restored = new ArrayList<>(reading.values());
        restored.addAll(finished.values());
        restored.addAll(parked.values());
        context.sendSourceEventToCoordinator(new SourceEvents.ReaderStarted(Positions.of(restored)));
        kafka.start();
    }

    @Override
    public InputStatus pollNext(ReaderOutput<SourceRecord> output) throws Exception {
        if (handedBack != null) {
            return handedBack.isDone() ? InputStatus.END_OF_INPUT : InputStatus.NOTHING_AVAILABLE;
        }
        if (budget != null && budget.spent()) {
            return InputStatus.NOTHING_AVAILABLE;
        }
        InputStatus status = kafka.pollNext(budget == null ? output : budget.counting(output));
        if (status != InputStatus.END_OF_INPUT) {
            return status;
        }
        handBack();
        return handedBack.isDone() ? InputStatus.END_OF_INPUT : InputStatus.NOTHING_AVAILABLE;
    }

    /** Everything is read: the positions go to the enumerator, whose state outlives this task. */
    private void handBack() {
        for (KafkaPartitionSplit s : reading.values()) {
            finished.put(s.splitId(), StopPolicy.finished(s));
        }
        reading.clear();
        List<KafkaPartitionSplit> all = new ArrayList<>(finished.values());
        all.addAll(parked.values());
        if (all.isEmpty()) {
            handedBack = CompletableFuture.completedFuture(null);
            return;
        }
        handedBack = new CompletableFuture<>();
        LOG.info("Read everything up to this run's end; handing back {}", all);
        context.sendSourceEventToCoordinator(new SourceEvents.HandBack(Positions.of(all)));
    }

    @Override
    public List<KafkaPartitionSplit> snapshotState(long checkpointId) {
        List<KafkaPartitionSplit> live = kafka.snapshotState(checkpointId);
        if (!reading.isEmpty()) {
            Set<String> ids = new HashSet<>();
            live.forEach(s -> ids.add(s.splitId()));
            reading.values().removeIf(s -> {
                if (ids.contains(s.splitId())) {
                    return false;
                }
                finished.put(s.splitId(), StopPolicy.finished(s));
                return true;
            });
        }
        if (budget != null) {
            budget.barrier(checkpointId);
        }
        if (finished.isEmpty() && parked.isEmpty()) {
            return live;
        }
        List<KafkaPartitionSplit> out = new ArrayList<>(live.size() + finished.size() + parked.size());
        out.addAll(live);
        out.addAll(finished.values());
        out.addAll(parked.values());
        return out;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        if (handedBack != null) {
            return handedBack;
        }
        if (budget != null && budget.spent()) {
            return budget.refilled();
        }
        return kafka.isAvailable();
    }

    @Override
    public void addSplits(List<KafkaPartitionSplit> splits) {
        List<KafkaPartitionSplit> read = new ArrayList<>(splits.size());
        for (KafkaPartitionSplit s : splits) {
            String id = s.splitId();
            if (reading.containsKey(id) || finished.containsKey(id) || parked.containsKey(id)) {
                // the one restored with this reader's state came first and is the consistent one
                LOG.warn("Split {} given twice; keeping the first, {}", s, reading.getOrDefault(id,
                        finished.getOrDefault(id, parked.get(id))));
                continue;
            }
            if (!topics.test(s.getTopic())) {
                LOG.info("Keeping split {} of a topic this run does not read in the state, unread", s);
                parked.put(id, s);
                continue;
            }
            KafkaPartitionSplit withStop = stops.apply(s);
            reading.put(id, withStop);
            read.add(withStop);
        }
        if (handedBack != null && !read.isEmpty()) {
            throw new IllegalStateException("splits " + read + " assigned after every split was finished and handed back");
        }
        if (!read.isEmpty()) {
            kafka.addSplits(read);
        }
    }

    @Override
    public void notifyNoMoreSplits() {
        kafka.notifyNoMoreSplits();
    }

    @Override
    public void handleSourceEvents(SourceEvent event) {
        if (event instanceof SourceEvents.HandBackRecorded) {
            if (handedBack != null && !handedBack.isDone()) {
                finished.clear();
                parked.clear();
                handedBack.complete(null);
            }
            return;
        }
        kafka.handleSourceEvents(event);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        kafka.notifyCheckpointComplete(checkpointId);
        if (budget != null) {
            budget.completed(checkpointId);
        }
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) throws Exception {
        kafka.notifyCheckpointAborted(checkpointId);
    }

    @Override
    public void pauseOrResumeSplits(Collection<String> splitsToPause, Collection<String> splitsToResume) {
        List<String> pause = new ArrayList<>(splitsToPause);
        List<String> resume = new ArrayList<>(splitsToResume);
        pause.removeIf(id -> !reading.containsKey(id));
        resume.removeIf(id -> !reading.containsKey(id));
        kafka.pauseOrResumeSplits(pause, resume);
    }

    @Override
    public void close() throws Exception {
        kafka.close();
    }
}
