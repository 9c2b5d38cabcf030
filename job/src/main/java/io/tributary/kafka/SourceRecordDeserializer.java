package io.tributary.kafka;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Passes each Kafka record on as a {@link SourceRecord} without decoding it: decoding is a
 * separate operator with its own parallelism. The key and headers travel along for the dead-letter
 * topic. A record with a null value (a tombstone) carries no telemetry and is skipped.
 */
public final class SourceRecordDeserializer implements KafkaRecordDeserializationSchema<SourceRecord> {
    private static final long serialVersionUID = 1L;

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<SourceRecord> out) {
        if (record.value() != null) {
            out.collect(of(record));
        }
    }

    /** The record as the job carries it. */
    public static SourceRecord of(ConsumerRecord<byte[], byte[]> record) {
        SourceRecord r =
                new SourceRecord(record.topic(), record.partition(), record.offset(), record.timestamp(), record.value());
        r.key = record.key();
        Headers headers = record.headers();
        Header[] hs = headers.toArray();
        if (hs.length > 0) {
            r.headerKeys = new String[hs.length];
            r.headerValues = new byte[hs.length][];
            for (int i = 0; i < hs.length; i++) {
                r.headerKeys[i] = hs[i].key();
                r.headerValues[i] = hs[i].value();
            }
        }
        return r;
    }

    @Override
    public TypeInformation<SourceRecord> getProducedType() {
        return TypeInformation.of(SourceRecord.class);
    }
}
