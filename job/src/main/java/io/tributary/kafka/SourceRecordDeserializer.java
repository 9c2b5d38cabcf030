package io.tributary.kafka;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Passes each Kafka record on as a {@link SourceRecord} without decoding it: decoding is a
 * separate operator with its own parallelism. A record with a null value (a tombstone) carries no
 * telemetry and is skipped.
 */
public final class SourceRecordDeserializer implements KafkaRecordDeserializationSchema<SourceRecord> {
    private static final long serialVersionUID = 1L;

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<SourceRecord> out) {
        if (record.value() == null) {
            return;
        }
        out.collect(
                new SourceRecord(
                        record.topic(), record.partition(), record.offset(), record.timestamp(), record.value()));
    }

    @Override
    public TypeInformation<SourceRecord> getProducedType() {
        return TypeInformation.of(SourceRecord.class);
    }
}
