package io.tributary.encoding;

import io.tributary.otlp.Signal;

import java.util.List;
import java.util.Set;

/**
 * An encoding of Kafka record values, as {@code kafka.encoding} and {@code kafka.encodings.<signal>}
 * name it: the extension point through which every encoding is found, the built-in ones too.
 *
 * <p>An implementation turns one record (its value and headers) into the OTLP export request of
 * its signal ({@code ExportTraceServiceRequest}, {@code ExportLogsServiceRequest}, {@code
 * ExportMetricsServiceRequest}) in protobuf, which the job then writes as the collector's
 * ClickHouse exporter writes that request. OTLP is the contract, not the tables' rows: the
 * exporter's value rules (attribute maps, ids, status and kind names, both schema flavours, tables
 * the job did not create) then hold for every encoding without the encoding knowing them, as in
 * the collector, where a receiver's unmarshaler produces pdata and the exporter writes it.
 *
 * <p>Implementations are found with {@link java.util.ServiceLoader}: a jar on the job's classpath
 * lists its class in {@code META-INF/services/io.tributary.encoding.RecordEncoding}. It needs a
 * public no-argument constructor. See docs/encodings.md for an example.
 */
public interface RecordEncoding {

    /**
     * The names this encoding answers to, as users write them (lower case, {@code [a-z0-9_]}); a
     * name ending in {@code _*} stands for a family ({@code text_*}: {@code text_utf-16}, ...).
     */
    List<String> names();

    /** The signals whose records it decodes. */
    Set<Signal> signals();

    /**
     * A decoder of {@code name} records of {@code signal}, for one thread (a task reuses its buffers
     * from record to record), or null when {@code name} is not one of this encoding's names.
     *
     * @throws IllegalArgumentException when {@code name} is this encoding's but cannot be used as
     *     given (a charset the JVM does not know); the message says why, without the setting's key
     */
    RecordDecoder decoder(String name, Signal signal);
}
