package io.tributary.tables;

import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.OtlpDecoder;
import io.tributary.otlp.Signal;
import io.tributary.otlp.json.OtlpJsonToWire;
import io.tributary.tables.logs.LogsReader;
import io.tributary.tables.metrics.MetricsReader;
import io.tributary.tables.traces.TracesReader;

import java.io.IOException;

/**
 * One Kafka record's bytes to the rows of its signal's tables: the whole way from OTLP to RowBinary,
 * for one signal. The job's decode operator and the SQL functions both use it. Not thread-safe: one
 * per task (it reuses its buffers from record to record).
 */
@FunctionalInterface
public interface RecordTranscoder {

    /** Appends the record's rows to {@code out}; on failure {@code out} may hold partial rows. */
    void transcode(byte[] value, RecordRows out) throws Exception;

    /** The transcoder of {@code signal} for records in {@code encoding}, writing rows in {@code layouts}. */
    static RecordTranscoder of(Signal signal, Encoding encoding, TableLayouts layouts) {
        // protobuf is read where it lies; OTLP/JSON is read in one pass into protobuf wire bytes that the same
        // readers read, so the tables' value rules live in the readers alone
        switch (signal) {
            case TRACES: {
                JsonRecords json = new JsonRecords(ExportTraceServiceRequest.getDefaultInstance());
                TracesReader t = new TracesReader(layouts.traces());
                return (value, out) -> t.transcode(encoding.of(value) == Encoding.OTLP_JSON ? json.wire(value) : value, out);
            }
            case LOGS: {
                JsonRecords json = new JsonRecords(ExportLogsServiceRequest.getDefaultInstance());
                LogsReader t = new LogsReader(layouts.logs());
                return (value, out) -> t.transcode(encoding.of(value) == Encoding.OTLP_JSON ? json.wire(value) : value, out);
            }
            default: {
                JsonRecords json = new JsonRecords(ExportMetricsServiceRequest.getDefaultInstance());
                MetricsReader t = new MetricsReader(layouts);
                return (value, out) -> t.transcode(encoding.of(value) == Encoding.OTLP_JSON ? json.wire(value) : value, out);
            }
        }
    }

    /**
     * OTLP/JSON records of one request type as protobuf wire bytes: by {@link OtlpJsonToWire}, and
     * the few it leaves (odd forms and invalid records, see there) through protobuf-java messages,
     * which also word the refusals.
     */
    final class JsonRecords {
        private final OtlpJsonToWire wire;
        private final OtlpDecoder<? extends Message> messages;

        JsonRecords(Message defaultInstance) {
            this.wire = new OtlpJsonToWire(defaultInstance.getDescriptorForType());
            this.messages = new OtlpDecoder<>(Encoding.OTLP_JSON, defaultInstance);
        }

        /** The record as protobuf, in a buffer reused by the next call. */
        byte[] wire(byte[] json) throws IOException {
            byte[] b = wire.toWire(json);
            return b != null ? b : messages.decode(json).toByteArray();
        }
    }
}
