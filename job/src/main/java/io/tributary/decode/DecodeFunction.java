package io.tributary.decode;

import io.tributary.deadletter.DeadLetter;
import io.tributary.kafka.SourceRecord;
import io.tributary.kafka.TopicSelection;
import io.tributary.encoding.HeaderExtraction;
import io.tributary.encoding.RecordHeaders;
import io.tributary.encoding.SignalEncodings;
import io.tributary.otlp.InvalidOtlpException;
import io.tributary.otlp.Signal;
import io.tributary.schema.SchemaFlavor;
import io.tributary.schema.TableCatalog;
import io.tributary.schema.TableLayout;
import io.tributary.schema.TableMismatchException;
import io.tributary.schema.TableName;
import io.tributary.tables.EncodedRows;
import io.tributary.tables.OtelTable;
import io.tributary.tables.RecordBounds;
import io.tributary.tables.RecordRows;
import io.tributary.tables.RecordTranscoder;
import io.tributary.tables.TableLayouts;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;

/**
 * Decodes OTLP records and encodes them as rows of their signal's tables in RowBinary: one {@link
 * EncodedRows} out per table a record has rows for. The record's topic tells its signal. A record
 * that cannot be decoded is counted, logged with its coordinates and the reason, and emitted to
 * the {@link #DEAD_LETTERS} side output; the stream goes on. So is a record that would render more
 * than its {@link RecordBounds}: rendering stops at the first row past them.
 */
public final class DecodeFunction extends ProcessFunction<SourceRecord, EncodedRows> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(DecodeFunction.class);

    /** Records that could not be decoded, with the reason. */
    public static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("dead-letters", TypeInformation.of(DeadLetter.class));

    private final TopicSelection topics;
    private final EnumMap<Signal, SignalEncodings> encodings;
    private final HeaderExtraction headers;
    private final SchemaFlavor flavor;
    private final TableCatalog catalog;
    private final EnumMap<OtelTable, TableName> tables;
    private final RecordBounds bounds;

    private transient Map<String, Decoder> decoders;
    /** One transcoder and metrics per signal and encoding name. */
    private transient Map<String, Decoder> byEncoding;
    private transient MetricGroup group;
    private transient TableLayouts layouts;
    private transient RecordRows rows;

    /**
     * @param topics the topics the source reads, and the signal of each
     * @param encodings how each signal's record values are encoded, topic by topic
     * @param headers the Kafka headers that become resource attributes
     * @param flavor the tables' schema flavour
     * @param catalog where the tables' columns are read when the operator opens
     * @param tables the names of the tables of the signals that run
     * @param bounds how many rows and bytes one record may render
     */
    public DecodeFunction(TopicSelection topics, Map<Signal, SignalEncodings> encodings, HeaderExtraction headers,
            SchemaFlavor flavor, TableCatalog catalog, Map<OtelTable, TableName> tables, RecordBounds bounds) {
        this.topics = topics;
        this.bounds = bounds;
        this.encodings = new EnumMap<>(Signal.class);
        this.encodings.putAll(encodings);
        this.headers = headers;
        this.flavor = flavor;
        this.catalog = catalog;
        this.tables = new EnumMap<>(OtelTable.class);
        this.tables.putAll(tables);
    }

    /** How many rows and bytes one record may render. */
    public RecordBounds bounds() {
        return bounds;
    }

    /** A signal's transcoder and metrics, and a topic's share of the metrics. */
    private record Decoder(Signal signal, RecordTranscoder transcoder, DecodeMetrics metrics,
            Counter topicRecords, Counter topicFailures) {}

    @Override
    public void open(OpenContext openContext) throws IOException {
        group = getRuntimeContext().getMetricGroup().addGroup("tributary");
        layouts = layouts();
        byEncoding = new HashMap<>();
        decoders = new HashMap<>();
        rows = new RecordRows(layouts, bounds);
    }

    /**
     * The decoder of a topic's records, made when the topic is first seen (a regex may select
     * topics created after the start), with {@code recordsRead} and {@code decodeFailures} under
     * a {@code topic} key group.
     */
    private Decoder decoder(String topic) {
        Decoder d = decoders.get(topic);
        if (d != null) {
            return d;
        }
        Signal s = topics.signal(topic);
        if (s == null) {
            throw new IllegalStateException("record from topic '" + topic + "' that no signal reads");
        }
        SignalEncodings e = encodings.get(s);
        String encoding = e == null ? "auto" : e.of(topic);
        Decoder shared = byEncoding.computeIfAbsent(s.id() + ":" + encoding, x -> new Decoder(
                s, RecordTranscoder.of(s, encoding, headers, layouts), metrics(s), null, null));
        MetricGroup t = group.addGroup("topic", topic);
        d = new Decoder(s, shared.transcoder(), shared.metrics(), t.counter("recordsRead"), t.counter("decodeFailures"));
        decoders.put(topic, d);
        return d;
    }

    /** The metrics of a signal, shared by its encodings. */
    private DecodeMetrics metrics(Signal s) {
        for (Decoder d : byEncoding.values()) {
            if (d.signal() == s) {
                return d.metrics();
            }
        }
        return new DecodeMetrics(group.addGroup("signal", s.id()));
    }

    /**
     * The tables as the server has them now (a restarted task reads them again), so rows are
     * encoded in each table's columns and types. When the server cannot be asked, the task fails
     * and the restart strategy tries again: guessing the layout would encode rows that the tables
     * may refuse for good, and exactly once such rows would be held in a checkpoint that every
     * restore must insert.
     */
    private TableLayouts layouts() throws IOException {
        TableLayouts layouts;
        try {
            layouts = TableLayouts.read(catalog, flavor, tables);
        } catch (TableMismatchException e) {
            // the same tables give the same answer to every restart: stop once, naming them
            throw new IOException(e.getMessage(), new org.apache.flink.runtime.execution.SuppressRestartsException(e));
        } catch (IOException e) {
            throw new IOException("cannot read the columns of the tables the job writes from ClickHouse"
                    + " (clickhouse.url): " + e.getMessage(), e);
        }
        for (OtelTable t : tables.keySet()) {
            TableLayout<?> l = layouts.of(t);
            if (!l.skipped().isEmpty()) {
                LOG.warn("{} lacks columns the job writes, which it leaves out: {}", l.table(), l.skipped());
            }
        }
        return layouts;
    }

    @Override
    public void processElement(SourceRecord record, Context ctx, Collector<EncodedRows> out) {
        Decoder d;
        try {
            d = decoder(record.topic);
        } catch (RuntimeException | java.util.ServiceConfigurationError e) {
            // no decoder for the topic's encoding on this TaskManager (an encoding jar the client had
            // and the cluster lacks): every restart would meet it again, so stop once
            throw new org.apache.flink.runtime.execution.SuppressRestartsException(new IllegalStateException(
                    "no decoder for the records of topic '" + record.topic + "': " + e.getMessage(), e));
        }
        DecodeMetrics metrics = d.metrics();
        metrics.recordsRead.inc();
        d.topicRecords().inc();
        metrics.bytesRead.inc(record.value.length);
        try {
            d.transcoder().transcode(record.value, new RecordHeaders(record.headerKeys, record.headerValues), rows);
        } catch (Exception | StackOverflowError e) {
            rows.clear();
            metrics.decodeFailures.inc();
            d.topicFailures().inc();
            LOG.warn(
                    "Undecodable {} record {} ({} bytes): {}",
                    d.signal().id(), record.coordinates(), record.value.length, reason(e));
            ctx.output(DEAD_LETTERS, new DeadLetter(record, e, System.currentTimeMillis()));
            return;
        }
        metrics.rowsDecoded.inc(rows.total());
        rows.emit(out::collect, record.topic, record.partition, record.offset);
    }

    static String reason(Throwable e) {
        String kind = e instanceof InvalidOtlpException ? "invalid OTLP" : e.getClass().getSimpleName();
        return DeadLetter.bounded(kind + ": " + e.getMessage());
    }
}
