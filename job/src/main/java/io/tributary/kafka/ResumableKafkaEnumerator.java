package io.tributary.kafka;

import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.api.connector.source.SupportsHandleExecutionAttemptSourceEvent;
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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The Kafka connector's enumerator, plus two things a job that is run again and again needs.
 *
 * <p>It keeps the positions that bounded readers hand back when they have read everything ({@link
 * SourceEvents.HandBack}): a finished task keeps no state in later checkpoints, so without this a
 * partition whose reader finished while others still read would never be read again by a run that
 * restores such a checkpoint. A position is either a reader's (in its state) or this enumerator's,
 * never both: a reader drops it from its state only once told it is recorded here, and a reader
 * that starts says which splits it restored ({@link SourceEvents.ReaderStarted}), which are its
 * own again. A restored enumerator gives its positions out only once every reader has started
 * (so none of them is also in a reader's state, whatever the parallelism), and holds back "no
 * more splits" until then.
 *
 * <p>Bounded, it tells readers that no more splits come even when its one partition discovery
 * finds nothing new: the connector only says so after discovery found partitions, so a bounded
 * run restored from a checkpoint (every partition already assigned) or reading topics that do not
 * exist would never end.
 */
final class ResumableKafkaEnumerator
        implements SplitEnumerator<KafkaPartitionSplit, ResumableEnumState>, SupportsHandleExecutionAttemptSourceEvent {

    private static final Logger LOG = LoggerFactory.getLogger(ResumableKafkaEnumerator.class);

    private final WatchingContext context;
    private final SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> kafka;
    private final Predicate<String> topics;
    private final boolean bounded;
    /** Positions this enumerator owns, by partition. */
    private final Map<TopicPartition, KafkaPartitionSplit> handedBack = new LinkedHashMap<>();
    /** Readers that have started since this enumerator did. */
    private final Set<Integer> started = new HashSet<>();
    /** Restored positions to give out once every reader has started. */
    private boolean givingOutPending;
    /** The discovery found nothing new, so this enumerator says there are no more splits. */
    private boolean noMoreSplits;

    /**
     * @param kafka builds the Kafka enumerator on the context it is given
     * @param restored handed-back splits from the checkpoint restored (empty when starting fresh)
     */
    ResumableKafkaEnumerator(
            SplitEnumeratorContext<KafkaPartitionSplit> context,
            Function<SplitEnumeratorContext<KafkaPartitionSplit>, SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState>> kafka,
            Predicate<String> topics,
            boolean bounded,
            List<KafkaPartitionSplit> restored) {
        this.context = new WatchingContext(context, bounded, this::discoveryFoundNothing);
        this.kafka = kafka.apply(this.context);
        this.topics = topics;
        this.bounded = bounded;
        for (KafkaPartitionSplit s : restored) {
            handedBack.put(s.getTopicPartition(), s);
        }
    }

    @Override
    public void start() {
        // Partitions that readers of an earlier run finished continue from where they were left,
        // in this run's readers, once those have said what their own states hold.
        givingOutPending = handedBack.values().stream().anyMatch(s -> topics.test(s.getTopic()));
        context.holdNoMoreSplits(givingOutPending);
        kafka.start();
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
        kafka.addReader(subtaskId);
        if (noMoreSplits) {
            context.signalNoMoreSplits(subtaskId);
        }
    }

    @Override
    public void handleSourceEvent(int subtaskId, SourceEvent event) {
        handleSourceEvent(subtaskId, -1, event);
    }

    @Override
    public void handleSourceEvent(int subtaskId, int attemptNumber, SourceEvent event) {
        if (event instanceof SourceEvents.ReaderStarted) {
            if (stale(subtaskId, attemptNumber)) {
                return;
            }
            Positions restored = ((SourceEvents.ReaderStarted) event).restored;
            for (int i = 0; i < restored.size(); i++) {
                if (handedBack.remove(restored.partition(i)) != null) {
                    LOG.info("Reader {} restored {} itself: its position is the reader's", subtaskId, restored.partition(i));
                }
            }
            started.add(subtaskId);
            if (givingOutPending && started.size() >= context.currentParallelism()) {
                giveOut();
            }
            return;
        }
        if (event instanceof SourceEvents.HandBack) {
            if (stale(subtaskId, attemptNumber)) {
                return;
            }
            List<KafkaPartitionSplit> splits = ((SourceEvents.HandBack) event).positions.splits();
            for (KafkaPartitionSplit s : splits) {
                handedBack.put(s.getTopicPartition(), s);
            }
            LOG.info("Reader {} finished; keeping where it left its partitions: {}", subtaskId, splits);
            try {
                if (attemptNumber >= 0) {
                    context.sendEventToSourceReader(subtaskId, attemptNumber, new SourceEvents.HandBackRecorded());
                } else {
                    context.sendEventToSourceReader(subtaskId, new SourceEvents.HandBackRecorded());
                }
            } catch (RuntimeException e) {
                // the reader is gone (failover): restored, it finishes and hands back again
                LOG.info("Cannot answer reader {}: {}", subtaskId, e.toString());
            }
            return;
        }
        kafka.handleSourceEvent(subtaskId, event);
    }

    /** An event of an attempt that is no longer the subtask's current one. */
    private boolean stale(int subtaskId, int attemptNumber) {
        if (attemptNumber < 0) {
            return false;
        }
        Map<Integer, ReaderInfo> attempts = context.registeredReadersOfAttempts().get(subtaskId);
        if (attempts == null || attempts.isEmpty()) {
            return false;
        }
        int current = attempts.keySet().stream().mapToInt(Integer::intValue).max().getAsInt();
        if (attemptNumber < current) {
            LOG.info("Ignoring an event of reader {} attempt {} (attempt {} runs now)", subtaskId, attemptNumber, current);
            return true;
        }
        return false;
    }

    /** Every reader has started: the restored positions go out, and "no more splits" after them. */
    private void giveOut() {
        givingOutPending = false;
        List<KafkaPartitionSplit> again = new ArrayList<>();
        handedBack.values().removeIf(s -> {
            if (topics.test(s.getTopic())) {
                again.add(s);
                return true;
            }
            return false;
        });
        if (!again.isEmpty()) {
            LOG.info("Reading again from where finished readers of an earlier run left them: {}", again);
            kafka.addSplitsBack(again, -1);
            // the connector assigns what it takes back only to the reader it names; this makes it
            // assign each split to its owner
            for (int reader : new LinkedHashSet<>(context.registeredReaders().keySet())) {
                kafka.addReader(reader);
            }
        }
        context.holdNoMoreSplits(false);
    }

    @Override
    public ResumableEnumState snapshotState(long checkpointId) throws Exception {
        return new ResumableEnumState(kafka.snapshotState(checkpointId), new ArrayList<>(handedBack.values()));
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
     * new splits, the discovery found nothing, and the connector would never signal the end. It
     * also holds "no more splits" back while restored positions wait to be given out.
     */
    static final class WatchingContext implements SplitEnumeratorContext<KafkaPartitionSplit> {
        private final SplitEnumeratorContext<KafkaPartitionSplit> context;
        private final boolean bounded;
        private final Runnable foundNothing;
        private boolean discoveryStarted;
        private boolean inDiscoveryHandler;
        private boolean startedMore;
        private boolean holding;
        private final Set<Integer> held = new LinkedHashSet<>();

        WatchingContext(SplitEnumeratorContext<KafkaPartitionSplit> context, boolean bounded, Runnable foundNothing) {
            this.context = context;
            this.bounded = bounded;
            this.foundNothing = foundNothing;
        }

        /** While holding, "no more splits" signals wait; released, they go out. */
        void holdNoMoreSplits(boolean hold) {
            holding = hold;
            if (!hold) {
                for (int subtask : held) {
                    context.signalNoMoreSplits(subtask);
                }
                held.clear();
            }
        }

        @Override
        public void signalNoMoreSplits(int subtask) {
            if (holding) {
                held.add(subtask);
            } else {
                context.signalNoMoreSplits(subtask);
            }
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
        return "ResumableKafkaEnumerator(" + (bounded ? "bounded" : "unbounded") + ", handed back " + handedBack.keySet() + ")";
    }
}
