package io.tributary.kafka;

import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumState;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.metrics.groups.SplitEnumeratorMetricGroup;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The Kafka connector's enumerator, plus two things a job that is run again and again needs.
 *
 * <p>It keeps the positions that bounded readers hand back when they have read everything ({@link
 * SourceEvents.HandBack}): a finished task keeps no state in later checkpoints, so without this a
 * partition whose reader finished while others still read would never be read again by a run that
 * restores such a checkpoint. A restored enumerator gives those partitions back out as splits at
 * their positions (to the run's readers, which set the run's stopping offset).
 *
 * <p>Bounded, it tells readers that no more splits come even when its one partition discovery
 * finds nothing new: the connector only says so after discovery found partitions, so a bounded
 * run restored from a checkpoint (every partition already assigned) or reading topics that do not
 * exist would never end.
 */
final class ResumableKafkaEnumerator implements SplitEnumerator<KafkaPartitionSplit, ResumableEnumState> {

    private static final Logger LOG = LoggerFactory.getLogger(ResumableKafkaEnumerator.class);

    private final WatchingContext context;
    private final SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> kafka;
    private final Set<String> topics;
    private final boolean bounded;
    /** Handed-back positions by partition, with who handed them back and when. */
    private final Map<TopicPartition, HandedBack> handedBack = new LinkedHashMap<>();
    /** Id of the last checkpoint of this enumerator's state; -1 before the first. */
    private long lastSnapshot = -1;
    /** The discovery found nothing new, so this enumerator says there are no more splits. */
    private boolean noMoreSplits;

    /**
     * @param kafka builds the Kafka enumerator on the context it is given
     * @param restored handed-back splits from the checkpoint restored (empty when starting fresh)
     */
    ResumableKafkaEnumerator(
            SplitEnumeratorContext<KafkaPartitionSplit> context,
            Function<SplitEnumeratorContext<KafkaPartitionSplit>, SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState>> kafka,
            Set<String> topics,
            boolean bounded,
            List<KafkaPartitionSplit> restored) {
        this.context = new WatchingContext(context, bounded, this::discoveryFoundNothing);
        this.kafka = kafka.apply(this.context);
        this.topics = Set.copyOf(topics);
        this.bounded = bounded;
        for (KafkaPartitionSplit s : restored) {
            handedBack.put(s.getTopicPartition(), new HandedBack(s, -1, Long.MIN_VALUE));
        }
    }

    /** A handed-back position: the split, the reader subtask it came from, and the last snapshot before it came. */
    private record HandedBack(KafkaPartitionSplit split, int subtask, long after) {}

    @Override
    public void start() {
        kafka.start();
        // Partitions that readers of an earlier run finished continue from where they were left,
        // in this run's readers; the topics this run does not read stay in the state as they are.
        List<KafkaPartitionSplit> again = new ArrayList<>();
        handedBack.values().removeIf(h -> {
            if (topics.contains(h.split().getTopic())) {
                again.add(h.split());
                return true;
            }
            return false;
        });
        if (!again.isEmpty()) {
            LOG.info("Reading again from where finished readers left them: {}", again);
            kafka.addSplitsBack(again, 0);
        }
    }

    @Override
    public void handleSplitRequest(int subtaskId, String requesterHostname) {
        kafka.handleSplitRequest(subtaskId, requesterHostname);
    }

    @Override
    public void addSplitsBack(List<KafkaPartitionSplit> splits, int subtaskId) {
        kafka.addSplitsBack(splits, subtaskId);
    }

    @Override
    public void addReader(int subtaskId) {
        // A reader that registers again has been restored from the last checkpoint; positions it
        // handed back after this enumerator's last snapshot are in that reader's restored state,
        // not in this enumerator's, so they are its again.
        handedBack.values().removeIf(h -> h.subtask() == subtaskId && h.after() >= lastSnapshot);
        kafka.addReader(subtaskId);
        if (noMoreSplits) {
            context.signalNoMoreSplits(subtaskId);
        }
    }

    @Override
    public void handleSourceEvent(int subtaskId, SourceEvent event) {
        if (event instanceof SourceEvents.HandBack) {
            Positions p = ((SourceEvents.HandBack) event).positions;
            for (KafkaPartitionSplit s : p.splits()) {
                handedBack.put(s.getTopicPartition(), new HandedBack(s, subtaskId, lastSnapshot));
            }
            LOG.info("Reader {} finished; keeping where it left its partitions: {}", subtaskId, p.splits());
            try {
                context.sendEventToSourceReader(subtaskId, new SourceEvents.HandBackRecorded());
            } catch (RuntimeException e) {
                // the reader is gone (failover): restored, it finishes and hands back again
                LOG.info("Cannot answer reader {}: {}", subtaskId, e.toString());
            }
            return;
        }
        kafka.handleSourceEvent(subtaskId, event);
    }

    @Override
    public ResumableEnumState snapshotState(long checkpointId) throws Exception {
        lastSnapshot = checkpointId;
        List<KafkaPartitionSplit> positions = new ArrayList<>(handedBack.size());
        handedBack.values().forEach(h -> positions.add(h.split()));
        return new ResumableEnumState(kafka.snapshotState(checkpointId), positions);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        kafka.notifyCheckpointComplete(checkpointId);
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) throws Exception {
        kafka.notifyCheckpointAborted(checkpointId);
    }

    @Override
    public void close() throws IOException {
        kafka.close();
    }

    private void discoveryFoundNothing() {
        LOG.info("Bounded: partition discovery found no partition to assign; no more splits come");
        noMoreSplits = true;
        for (int reader : context.registeredReaders().keySet()) {
            context.signalNoMoreSplits(reader);
        }
    }

    /**
     * The context the Kafka enumerator gets: the real one, watching (bounded only) the one-time
     * partition discovery: when its handler returns without having started the initialization of
     * new splits, the discovery found nothing, and the connector would never signal the end.
     */
    private static final class WatchingContext implements SplitEnumeratorContext<KafkaPartitionSplit> {
        private final SplitEnumeratorContext<KafkaPartitionSplit> context;
        private final boolean bounded;
        private final Runnable foundNothing;
        private boolean discoveryStarted;
        private boolean inDiscoveryHandler;
        private boolean startedMore;

        WatchingContext(SplitEnumeratorContext<KafkaPartitionSplit> context, boolean bounded, Runnable foundNothing) {
            this.context = context;
            this.bounded = bounded;
            this.foundNothing = foundNothing;
        }

        @Override
        public <T> void callAsync(Callable<T> callable, BiConsumer<T, Throwable> handler) {
            if (inDiscoveryHandler) {
                startedMore = true;
            }
            if (!bounded || discoveryStarted) {
                context.callAsync(callable, handler);
                return;
            }
            discoveryStarted = true;
            context.callAsync(callable, (result, error) -> {
                inDiscoveryHandler = true;
                startedMore = false;
                try {
                    handler.accept(result, error);
                } finally {
                    inDiscoveryHandler = false;
                }
                if (error == null && !startedMore) {
                    foundNothing.run();
                }
            });
        }

        @Override
        public <T> void callAsync(Callable<T> callable, BiConsumer<T, Throwable> handler, long initialDelay, long period) {
            context.callAsync(callable, handler, initialDelay, period);
        }

        @Override
        public SplitEnumeratorMetricGroup metricGroup() {
            return context.metricGroup();
        }

        @Override
        public void sendEventToSourceReader(int subtaskId, SourceEvent event) {
            context.sendEventToSourceReader(subtaskId, event);
        }

        @Override
        public void sendEventToSourceReader(int subtaskId, int attemptNumber, SourceEvent event) {
            context.sendEventToSourceReader(subtaskId, attemptNumber, event);
        }

        @Override
        public int currentParallelism() {
            return context.currentParallelism();
        }

        @Override
        public Map<Integer, ReaderInfo> registeredReaders() {
            return context.registeredReaders();
        }

        @Override
        public Map<Integer, Map<Integer, ReaderInfo>> registeredReadersOfAttempts() {
            return context.registeredReadersOfAttempts();
        }

        @Override
        public void assignSplits(SplitsAssignment<KafkaPartitionSplit> newSplitAssignments) {
            context.assignSplits(newSplitAssignments);
        }

        @Override
        public void assignSplit(KafkaPartitionSplit split, int subtask) {
            context.assignSplit(split, subtask);
        }

        @Override
        public void signalNoMoreSplits(int subtask) {
            context.signalNoMoreSplits(subtask);
        }

        @Override
        public void runInCoordinatorThread(Runnable runnable) {
            context.runInCoordinatorThread(runnable);
        }

        @Override
        public void setIsProcessingBacklog(boolean isProcessingBacklog) {
            context.setIsProcessingBacklog(isProcessingBacklog);
        }
    }

    @Override
    public String toString() {
        return "ResumableKafkaEnumerator(" + (bounded ? "bounded" : "unbounded") + ", handed back "
                + new HashSet<>(handedBack.keySet()) + ")";
    }
}
