package io.tributary.kafka;

import org.apache.flink.api.connector.source.SourceEvent;

/**
 * What a {@link ResumableKafkaReader} and its enumerator tell each other when a bounded reader has
 * read everything: the reader's task is about to finish, and a finished task keeps no state, so
 * the reader hands the positions of its splits to the enumerator, whose state outlives it, before
 * it lets its task end.
 */
final class SourceEvents {

    private SourceEvents() {}

    /**
     * Reader to enumerator, when it starts: the splits it restored from its state. Those are the
     * reader's; a position the enumerator kept for one of them is stale (the reader was restored
     * from a checkpoint taken before it handed it back).
     */
    static final class ReaderStarted implements SourceEvent {
        private static final long serialVersionUID = 1L;

        final Positions restored;

        ReaderStarted(Positions restored) {
            this.restored = restored;
        }
    }

    /** Reader to enumerator: every split of mine is finished; keep these positions for a later run. */
    static final class HandBack implements SourceEvent {
        private static final long serialVersionUID = 1L;

        final Positions positions;

        HandBack(Positions positions) {
            this.positions = positions;
        }
    }

    /** Enumerator to reader: your positions are in my state now; you may finish. */
    static final class HandBackRecorded implements SourceEvent {
        private static final long serialVersionUID = 1L;
    }
}
