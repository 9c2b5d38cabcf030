package io.tributary.tables;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.OtlpDecoder;
import io.tributary.otlp.Signal;
import io.tributary.tables.logs.LogsReader;
import io.tributary.tables.metrics.MetricsReader;
import io.tributary.tables.traces.TracesReader;

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
        switch (signal) {
            case TRACES: {
                // protobuf is read where it lies; OTLP/JSON through protobuf-java messages, encoded again
                // (logs and metrics likewise)
                OtlpDecoder<ExportTraceServiceRequest> json =
                        new OtlpDecoder<>(Encoding.OTLP_JSON, ExportTraceServiceRequest.getDefaultInstance());
                TracesReader t = new TracesReader(layouts.traces());
                return (value, out) -> t.transcode(
                        encoding.of(value) == Encoding.OTLP_JSON ? json.decode(value).toByteArray() : value, out);
            }
            case LOGS: {
                OtlpDecoder<ExportLogsServiceRequest> json =
                        new OtlpDecoder<>(Encoding.OTLP_JSON, ExportLogsServiceRequest.getDefaultInstance());
                LogsReader t = new LogsReader(layouts.logs());
                return (value, out) -> t.transcode(
                        encoding.of(value) == Encoding.OTLP_JSON ? json.decode(value).toByteArray() : value, out);
            }
            default: {
                OtlpDecoder<ExportMetricsServiceRequest> json =
                        new OtlpDecoder<>(Encoding.OTLP_JSON, ExportMetricsServiceRequest.getDefaultInstance());
                MetricsReader t = new MetricsReader(layouts);
                return (value, out) -> t.transcode(
                        encoding.of(value) == Encoding.OTLP_JSON ? json.decode(value).toByteArray() : value, out);
            }
        }
    }
}
