package io.tributary.kafka;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.core.io.SimpleVersionedSerializer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Flink's {@link KafkaSource}, wrapped so that each run of the job reads as it was asked to
 * whatever state it starts from (see {@link ResumableKafkaReader} and {@link
 * ResumableKafkaEnumerator}): a bounded run stops at the end offsets read when it was built,
 * whether it starts fresh or from a checkpoint or savepoint of an unbounded or a bounded run,
 * and a later run reads on from where a bounded one left each partition. Splits and their
 * serializer are the connector's; the enumerator's state adds the positions finished readers
 * handed back and reads the connector's own state of earlier releases.
 */
public final class ResumableKafkaSource
        implements Source<SourceRecord, KafkaPartitionSplit, ResumableEnumState>, ResultTypeQueryable<SourceRecord> {
    private static final long serialVersionUID = 1L;

    private final KafkaSource<SourceRecord> kafka;
    private final TopicSelection topics;
    private final StopPolicy stops;
    private final long readBudgetBytes;

    /**
     * @param kafka the connector's source, bounded exactly when {@code stops} is
     * @param topics the topics this run reads
     * @param stops where this run stops
     * @param readBudgetBytes bytes each reader may read past the last completed checkpoint
     *     (exactly once), or 0 for no limit
     */
    public ResumableKafkaSource(KafkaSource<SourceRecord> kafka, TopicSelection topics, StopPolicy stops, long readBudgetBytes) {
        if ((kafka.getBoundedness() == Boundedness.BOUNDED) != stops.bounded()) {
            throw new IllegalArgumentException("the Kafka source and the stop policy disagree on boundedness");
        }
        this.kafka = kafka;
        this.topics = topics;
        this.stops = stops;
        this.readBudgetBytes = readBudgetBytes;
    }

    @Override
    public Boundedness getBoundedness() {
        return kafka.getBoundedness();
    }

    /** Where this run stops. */
    public StopPolicy stops() {
        return stops;
    }

    @Override
    public SourceReader<SourceRecord, KafkaPartitionSplit> createReader(SourceReaderContext context) throws Exception {
        return new ResumableKafkaReader(kafka.createReader(context), context, stops, topics::reads,
                readBudgetBytes > 0 ? new ReadBudget(readBudgetBytes) : null);
    }

    @Override
    public SplitEnumerator<KafkaPartitionSplit, ResumableEnumState> createEnumerator(
            SplitEnumeratorContext<KafkaPartitionSplit> context) {
        return new ResumableKafkaEnumerator(context, kafka::createEnumerator, topics::reads, stops.bounded(), List.of());
    }

    @Override
    public SplitEnumerator<KafkaPartitionSplit, ResumableEnumState> restoreEnumerator(
            SplitEnumeratorContext<KafkaPartitionSplit> context, ResumableEnumState checkpoint) {
        return new ResumableKafkaEnumerator(context, c -> {
            try {
                return kafka.restoreEnumerator(c, checkpoint.kafka());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, topics::reads, stops.bounded(), checkpoint.handedBack());
    }

    @Override
    public SimpleVersionedSerializer<KafkaPartitionSplit> getSplitSerializer() {
        return kafka.getSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<ResumableEnumState> getEnumeratorCheckpointSerializer() {
        return new ResumableEnumStateSerializer();
    }

    @Override
    public TypeInformation<SourceRecord> getProducedType() {
        return TypeInformation.of(SourceRecord.class);
    }
}
