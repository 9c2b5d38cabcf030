package io.tributary.decode;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.tributary.kafka.SourceRecord;
import io.tributary.metrics.DecodeMetrics;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.schema.TracesSchema;
import io.tributary.sink.EncodedRows;
import io.tributary.transcode.InvalidOtlpException;
import io.tributary.transcode.TracesTranscoder;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes OTLP trace records and encodes their spans as {@code otel_traces} rows in RowBinary:
 * one {@link EncodedRows} out per record in. A record that cannot be decoded is counted and
 * reported with its coordinates and the reason, and the stream goes on.
 */
public final class DecodeFunction extends ProcessFunction<SourceRecord, EncodedRows> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(DecodeFunction.class);

    private final Encoding encoding;
    private final int tracesTable;

    private transient TracesDecoder decoder;
    private transient TracesTranscoder transcoder;
    private transient RowBinaryWriter buffer;
    private transient DecodeMetrics metrics;

    /**
     * @param encoding how record values are encoded
     * @param tracesTable the sink's index of the spans table
     */
    public DecodeFunction(Encoding encoding, int tracesTable) {
        this.encoding = encoding;
        this.tracesTable = tracesTable;
    }

    @Override
    public void open(OpenContext openContext) {
        decoder = new TracesDecoder(encoding);
        transcoder = new TracesTranscoder(TracesSchema.TABLE);
        buffer = new RowBinaryWriter(1 << 16);
        metrics = new DecodeMetrics(getRuntimeContext().getMetricGroup().addGroup("tributary"));
    }

    @Override
    public void processElement(SourceRecord record, Context ctx, Collector<EncodedRows> out) {
        metrics.recordsRead.inc();
        metrics.bytesRead.inc(record.value.length);
        buffer.reset();
        int rows;
        try {
            ExportTraceServiceRequest request = decoder.decode(record.value);
            rows = transcoder.transcode(request, buffer);
        } catch (Exception | StackOverflowError e) {
            metrics.decodeFailures.inc();
            LOG.warn(
                    "Dropping undecodable record {} ({} bytes): {}",
                    record.coordinates(), record.value.length, reason(e));
            return;
        }
        if (rows > 0) {
            metrics.spansDecoded.inc(rows);
            out.collect(new EncodedRows(tracesTable, rows, buffer.toByteArray()));
        }
        if (buffer.buffer().length > (64 << 20)) {
            buffer = new RowBinaryWriter(1 << 16); // do not keep a huge buffer after a huge record
        }
    }

    static String reason(Throwable e) {
        String kind = e instanceof InvalidOtlpException ? "invalid OTLP" : e.getClass().getSimpleName();
        return kind + ": " + e.getMessage();
    }
}
