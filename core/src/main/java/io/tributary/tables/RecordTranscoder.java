package io.tributary.tables;

import io.tributary.encoding.Encodings;
import io.tributary.encoding.HeaderExtraction;
import io.tributary.encoding.OtlpEncoding;
import io.tributary.encoding.RecordDecoder;
import io.tributary.encoding.RecordHeaders;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.Signal;
import io.tributary.schema.SchemaFlavor;
import io.tributary.tables.coroot.CorootReader;
import io.tributary.tables.logs.LogsReader;
import io.tributary.tables.metrics.MetricsReader;
import io.tributary.tables.profiles.ProfilesReader;
import io.tributary.tables.traces.TracesReader;

/**
 * One Kafka record's bytes to the rows of its signal's tables: the whole way from the record's
 * encoding to RowBinary, for one signal. The record's encoding gives its OTLP export request
 * ({@link RecordDecoder}); the headers named by {@code kafka.header-extraction.headers} join its
 * resources ({@link HeaderExtraction}); the signal's reader writes the rows. The job's decode
 * operator and the SQL functions both use it. Not thread-safe: one per task (it reuses its buffers
 * from record to record).
 */
@FunctionalInterface
public interface RecordTranscoder {

    /** Appends the record's rows to {@code out}; on failure {@code out} may hold partial rows. */
    void transcode(byte[] value, RecordHeaders headers, RecordRows out) throws Exception;

    /** Appends the rows of a record without headers. */
    default void transcode(byte[] value, RecordRows out) throws Exception {
        transcode(value, RecordHeaders.NONE, out);
    }

    /** The transcoder of {@code signal} for OTLP records in {@code encoding}, writing rows in {@code layouts}. */
    static RecordTranscoder of(Signal signal, Encoding encoding, TableLayouts layouts) {
        return of(signal, OtlpEncoding.decoder(encoding, signal), HeaderExtraction.NONE, layouts);
    }

    /**
     * The transcoder of {@code signal} for records in the encoding named {@code encoding} ({@link
     * Encodings}).
     *
     * @throws IllegalArgumentException when the signal has no such encoding
     */
    static RecordTranscoder of(Signal signal, String encoding, HeaderExtraction headers, TableLayouts layouts) {
        return of(signal, Encodings.decoder(encoding, signal), headers, layouts);
    }

    /** The transcoder of {@code signal} for records {@code decoder} reads. */
    static RecordTranscoder of(Signal signal, RecordDecoder decoder, HeaderExtraction headers, TableLayouts layouts) {
        Reader reader;
        boolean coroot = layouts.flavor() == SchemaFlavor.COROOT;
        switch (signal) {
            case TRACES:
                if (coroot) {
                    reader = new CorootReader(layouts.of(OtelTable.TRACES), null)::traces;
                    break;
                }
                reader = new TracesReader(layouts.traces())::transcode;
                break;
            case LOGS:
                if (coroot) {
                    reader = new CorootReader(null, layouts.of(OtelTable.LOGS))::logs;
                    break;
                }
                reader = new LogsReader(layouts.logs())::transcode;
                break;
            case METRICS:
                reader = new MetricsReader(layouts)::transcode;
                break;
            default:
                reader = new ProfilesReader(layouts.profiles())::transcode;
                break;
        }
        if (!headers.isOn()) {
            return (value, h, out) -> reader.read(decoder.decode(value, h), out);
        }
        HeaderExtraction.Rewriter rewriter = headers.rewriter();
        return (value, h, out) -> reader.read(rewriter.apply(decoder.decode(value, h), h), out);
    }

    /** A signal's reader of OTLP export requests in protobuf. */
    @FunctionalInterface
    interface Reader {
        void read(byte[] request, RecordRows out) throws Exception;
    }
}
