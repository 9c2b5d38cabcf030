package io.tributary.tables.metrics;

import com.google.protobuf.InvalidProtocolBufferException;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.tributary.otlp.InvalidOtlpException;
import io.tributary.otlp.InvalidProtobufException;
import io.tributary.otlp.LenientUtf8;
import io.tributary.otlp.proto.ProtoReader;
import io.tributary.schema.TableLayout;
import io.tributary.tables.OtelTable;
import io.tributary.tables.RecordRows;
import io.tributary.tables.TableLayouts;
import io.tributary.tables.WireAttributes;
import io.tributary.tables.WireEnvelope;
import io.tributary.tables.WireValues.IntList;
import io.tributary.tables.WireValues;

/**
 * Turns an OTLP metrics record ({@code ExportMetricsServiceRequest} or {@code MetricsData},
 * protobuf) into rows of the five {@code otel_metrics_*} tables in RowBinary without building
 * protobuf messages, as {@link io.tributary.tables.traces.TracesReader} does for spans: one row per
 * data point in the table of its metric's type, with the collector exporter's semantics; a metric
 * without data (type unset) has no points and gives no rows. Field order, repeated occurrences of
 * singular fields (the last value wins, messages merge, the last of a oneof's fields wins: see
 * {@link #firstDataOccurrence} for the type of a metric's data), packed and unpacked repeated
 * numbers, unknown fields and enum values, numbers wider than their fields, invalid UTF-8 and
 * errors are treated as protobuf-java treats them, so the rows are the bytes the object path over
 * protobuf-java messages writes (the differential tests hold it to one, the test oracle {@code
 * io.tributary.testing.oracle.OracleMetrics}). Every part of the record is parsed, also what no
 * column shows (a metric's metadata, data another type replaced), so a record protobuf-java
 * refuses is refused. Not thread-safe: one per task.
 */
public final class MetricsReader {

    // Metric's data oneof: the field numbers of its five types
    private static final int GAUGE = 5;
    private static final int SUM = 7;
    private static final int HISTOGRAM = 9;
    private static final int EXPONENTIAL_HISTOGRAM = 10;
    private static final int SUMMARY = 11;

    private final TableLayout<MetricView> gauge;
    private final TableLayout<MetricView> sum;
    private final TableLayout<MetricView> histogram;
    private final TableLayout<MetricView> exponential;
    private final TableLayout<MetricView> summary;
    private final ProtoReader root = new ProtoReader();
    private final MetricView view;
    private final IntList resources = new IntList();
    private final IntList scopeMetrics = new IntList();
    private final IntList scopes = new IntList();
    private final IntList metrics = new IntList();
    private final IntList data = new IntList();
    private final IntList points = new IntList();
    private final IntList exemplars = new IntList();
    private final IntList quantiles = new IntList();
    private final IntList positive = new IntList();
    private final IntList negative = new IntList();
    private final WireAttributes metadata;
    private byte[] record;
    /** Whether protobuf-java reads the record leniently: -1 not known yet, 0 no, 1 yes. */
    private int lenient;

    /** @param layouts how the five metrics tables are written */
    public MetricsReader(TableLayouts layouts) {
        gauge = layouts.metrics(OtelTable.METRICS_GAUGE);
        sum = layouts.metrics(OtelTable.METRICS_SUM);
        histogram = layouts.metrics(OtelTable.METRICS_HISTOGRAM);
        exponential = layouts.metrics(OtelTable.METRICS_EXPONENTIAL_HISTOGRAM);
        summary = layouts.metrics(OtelTable.METRICS_SUMMARY);
        WireValues values = new WireValues();
        view = new MetricView(values);
        metadata = new WireAttributes(values, false);
    }

    /**
     * Appends one row per data point of the record in {@code value} to {@code rows}; returns the
     * number of rows. When it throws, {@code rows} may hold partial rows: the caller discards them.
     *
     * @throws InvalidProtobufException for bytes protobuf-java would not parse
     * @throws InvalidOtlpException for points the exporter would not accept (exemplar ids of
     *     wrong length)
     */
    public int transcode(byte[] value, RecordRows rows) throws InvalidProtobufException {
        view.setBuffer(value);
        record = value;
        lenient = -1;
        ProtoReader r0 = root.reset(value, 0, value.length);
        int n = 0;
        try {
            while (r0.next()) {
                if (r0.is(1, ProtoReader.LEN)) {
                    r0.readBytes();
                    n += resourceMetrics(r0.child(), rows);
                } else {
                    r0.skip();
                }
            }
        } finally {
            view.release();
        }
        return n;
    }

    // Each level gathers the ranges of its fields before it reads deeper: a reader's child is reused
    // by whatever reads below it next (the attribute writers too), so no level iterates a reader
    // after it has read below it.

    private int resourceMetrics(ProtoReader r1, RecordRows rows) throws InvalidProtobufException {
        MetricView v = view;
        resources.clear();
        scopeMetrics.clear();
        v.resourceSchemaUrlStart = v.resourceSchemaUrlLength = 0;
        while (r1.next()) {
            if (r1.is(1, ProtoReader.LEN)) {
                r1.readBytes();
                resources.add(r1.start(), r1.length());
            } else if (r1.is(2, ProtoReader.LEN)) {
                r1.readBytes();
                scopeMetrics.add(r1.start(), r1.length());
            } else if (r1.is(3, ProtoReader.LEN)) {
                r1.readBytes();
                v.resourceSchemaUrlStart = r1.start();
                v.resourceSchemaUrlLength = r1.length();
            } else {
                r1.skip();
            }
        }
        WireEnvelope.resource(r1, resources, v.resourceAttributes);
        v.renderServiceName();
        int n = 0;
        for (int i = 0; i < scopeMetrics.size(); i += 2) {
            n += scopeMetrics(r1.child(scopeMetrics.get(i), scopeMetrics.get(i + 1)), rows);
        }
        return n;
    }

    private int scopeMetrics(ProtoReader r2, RecordRows rows) throws InvalidProtobufException {
        MetricView v = view;
        scopes.clear();
        metrics.clear();
        v.scopeSchemaUrlStart = v.scopeSchemaUrlLength = 0;
        while (r2.next()) {
            if (r2.is(1, ProtoReader.LEN)) {
                r2.readBytes();
                scopes.add(r2.start(), r2.length());
            } else if (r2.is(2, ProtoReader.LEN)) {
                r2.readBytes();
                metrics.add(r2.start(), r2.length());
            } else if (r2.is(3, ProtoReader.LEN)) {
                r2.readBytes();
                v.scopeSchemaUrlStart = r2.start();
                v.scopeSchemaUrlLength = r2.length();
            } else {
                r2.skip();
            }
        }
        WireEnvelope.scope(r2, scopes, v.scope, v.scopeAttributes);
        int n = 0;
        for (int i = 0; i < metrics.size(); i += 2) {
            n += metric(r2.child(metrics.get(i), metrics.get(i + 1)), rows);
        }
        return n;
    }

    private int metric(ProtoReader r3, RecordRows rows) throws InvalidProtobufException {
        MetricView v = view;
        v.newMetric();
        data.clear();
        metadata.reset(r3);
        int dataCase = 0;
        while (r3.next()) {
            switch (r3.field()) {
                case 1:
                    if (r3.wireType() == ProtoReader.LEN) {
                        r3.readBytes();
                        v.nameStart = r3.start();
                        v.nameLength = r3.length();
                        continue;
                    }
                    break;
                case 2:
                    if (r3.wireType() == ProtoReader.LEN) {
                        r3.readBytes();
                        v.descriptionStart = r3.start();
                        v.descriptionLength = r3.length();
                        continue;
                    }
                    break;
                case 3:
                    if (r3.wireType() == ProtoReader.LEN) {
                        r3.readBytes();
                        v.unitStart = r3.start();
                        v.unitLength = r3.length();
                        continue;
                    }
                    break;
                case GAUGE:
                case SUM:
                case HISTOGRAM:
                case EXPONENTIAL_HISTOGRAM:
                case SUMMARY:
                    if (r3.wireType() == ProtoReader.LEN) {
                        r3.readBytes();
                        dataCase = r3.field();
                        data.add(dataCase);
                        data.add(r3.start(), r3.length());
                        continue;
                    }
                    break;
                case 12:
                    if (r3.wireType() == ProtoReader.LEN) {
                        r3.readBytes();
                        metadata.add(r3.start(), r3.length());
                        continue;
                    }
                    break;
                default:
                    break;
            }
            r3.skip();
        }
        metadata.skim(); // no column shows it; parsed all the same
        if (dataCase == 0) {
            return 0; // no data: nothing to write
        }
        int from = firstDataOccurrence(dataCase);
        // every occurrence is parsed; those that are not the data are only walked
        for (int k = 0; k < data.size(); k += 3) {
            if (k < from || data.get(k) != dataCase) {
                skimData(r3.child(data.get(k + 1), data.get(k + 2)), data.get(k));
            }
        }
        // the data message's occurrences merge: their points in order, the last temporality
        points.clear();
        ProtoReader r4 = null;
        for (int k = from; k < data.size(); k += 3) {
            if (data.get(k) != dataCase) {
                continue;
            }
            r4 = r3.child(data.get(k + 1), data.get(k + 2));
            while (r4.next()) {
                if (r4.is(1, ProtoReader.LEN)) {
                    r4.readBytes();
                    points.add(r4.start(), r4.length());
                } else if (r4.is(2, ProtoReader.VARINT) && dataCase != GAUGE && dataCase != SUMMARY) {
                    v.aggregationTemporality = (int) r4.readVarint(); // an open enum: any number is kept
                } else if (r4.is(3, ProtoReader.VARINT) && dataCase == SUM) {
                    v.monotonic = r4.readVarint() != 0;
                } else {
                    r4.skip();
                }
            }
        }
        int n = points.size() / 2;
        for (int i = 0; i < n; i++) {
            ProtoReader p = r4.child(points.get(2 * i), points.get(2 * i + 1));
            switch (dataCase) {
                case GAUGE:
                    number(p);
                    write(gauge, OtelTable.METRICS_GAUGE, rows);
                    break;
                case SUM:
                    number(p);
                    write(sum, OtelTable.METRICS_SUM, rows);
                    break;
                case HISTOGRAM:
                    histogram(p);
                    write(histogram, OtelTable.METRICS_HISTOGRAM, rows);
                    break;
                case EXPONENTIAL_HISTOGRAM:
                    exponential(p);
                    write(exponential, OtelTable.METRICS_EXPONENTIAL_HISTOGRAM, rows);
                    break;
                default:
                    summary(p);
                    write(summary, OtelTable.METRICS_SUMMARY, rows);
            }
        }
        return n;
    }

    /**
     * Where in {@link #data} (field, start, length triples) the occurrences that make the metric's
     * data start: those of {@code dataCase}, the type of the last one. protobuf-java keeps a oneof
     * message's builder when another of the oneof's fields replaces it, so a type that comes back
     * merges with its earlier occurrences too (gauge A, sum B, gauge C is the gauge A + C); its
     * lenient reading of records with invalid UTF-8 ({@link LenientUtf8}, through {@code
     * DynamicMessage}) starts such a type afresh (C alone). Only then, which no exporter sends, is
     * the record parsed with protobuf-java to learn which reading the object path takes.
     */
    private int firstDataOccurrence(int dataCase) {
        int lastOther = -1;
        for (int k = 0; k < data.size(); k += 3) {
            if (data.get(k) != dataCase) {
                lastOther = k;
            }
        }
        for (int k = 0; k < lastOther; k += 3) {
            if (data.get(k) == dataCase) {
                return readsLeniently() ? lastOther + 3 : 0; // the type came back
            }
        }
        return 0;
    }

    /** Whether protobuf-java reads this record through {@link LenientUtf8} (its first error is invalid UTF-8). */
    private boolean readsLeniently() {
        if (lenient < 0) {
            lenient = 0;
            try {
                ExportMetricsServiceRequest.parser().parseFrom(record);
            } catch (InvalidProtocolBufferException e) {
                lenient = LenientUtf8.isInvalidUtf8(e) ? 1 : 0;
            }
        }
        return lenient == 1;
    }

    private void write(TableLayout<MetricView> layout, OtelTable table, RecordRows rows) {
        view.checkExemplarIds();
        layout.writeRow(view, rows.writer(table));
        rows.rowAdded(table);
    }

    /**
     * Walks an occurrence of a data message that is not the metric's data, as protobuf-java parsed
     * it: every point read, its attributes walked; no row, no id checks.
     */
    private void skimData(ProtoReader r4, int dataCase) throws InvalidProtobufException {
        while (r4.next()) {
            if (r4.is(1, ProtoReader.LEN)) {
                r4.readBytes();
                ProtoReader p = r4.child();
                switch (dataCase) {
                    case GAUGE:
                    case SUM:
                        number(p);
                        break;
                    case HISTOGRAM:
                        histogram(p);
                        break;
                    case EXPONENTIAL_HISTOGRAM:
                        exponential(p);
                        break;
                    default:
                        summary(p);
                }
                view.attributes.skim();
                for (int k = 0; k < view.exemplarCount; k++) {
                    view.exemplarAttributes[k].skim();
                }
            } else {
                r4.skip();
            }
        }
    }

    // ---- points: each field read where it lies, its sub-messages read with it

    private void number(ProtoReader r) throws InvalidProtobufException {
        MetricView v = view;
        v.newPoint();
        v.attributes.reset(r);
        exemplars.clear();
        while (r.next()) {
            switch (r.field()) {
                case 2:
                    if (r.wireType() == ProtoReader.I64) {
                        v.start = r.readFixed64();
                        continue;
                    }
                    break;
                case 3:
                    if (r.wireType() == ProtoReader.I64) {
                        v.time = r.readFixed64();
                        continue;
                    }
                    break;
                case 4:
                    if (r.wireType() == ProtoReader.I64) {
                        v.valueBits = r.readFixed64();
                        v.valueCase = MetricView.AS_DOUBLE;
                        continue;
                    }
                    break;
                case 5:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        exemplars.add(r.start(), r.length());
                        continue;
                    }
                    break;
                case 6:
                    if (r.wireType() == ProtoReader.I64) {
                        v.valueBits = r.readFixed64();
                        v.valueCase = MetricView.AS_INT;
                        continue;
                    }
                    break;
                case 7:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        v.attributes.add(r.start(), r.length());
                        continue;
                    }
                    break;
                case 8:
                    if (r.wireType() == ProtoReader.VARINT) {
                        v.flags = (int) r.readVarint();
                        continue;
                    }
                    break;
                default:
                    break;
            }
            r.skip();
        }
        exemplars(r);
    }

    /**
     * Fields 2 to 5 of a histogram, exponential histogram or summary point, the same in all three:
     * start time, time, count and sum, each fixed64; false for another wire type (then skipped).
     */
    private static boolean startTimeCountSum(ProtoReader r, MetricView v) throws InvalidProtobufException {
        if (r.wireType() != ProtoReader.I64) {
            return false;
        }
        long bits = r.readFixed64();
        switch (r.field()) {
            case 2:
                v.start = bits;
                break;
            case 3:
                v.time = bits;
                break;
            case 4:
                v.count = bits;
                break;
            default:
                v.sum = Double.longBitsToDouble(bits);
                break;
        }
        return true;
    }

    private void histogram(ProtoReader r) throws InvalidProtobufException {
        MetricView v = view;
        v.newPoint();
        v.attributes.reset(r);
        exemplars.clear();
        while (r.next()) {
            switch (r.field()) {
                case 2:
                case 3:
                case 4:
                case 5:
                    if (startTimeCountSum(r, v)) {
                        continue;
                    }
                    break;
                case 6:
                    if (r.wireType() == ProtoReader.I64) {
                        v.bucketCounts.add(r.readFixed64());
                        continue;
                    }
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        v.bucketCounts.addPackedFixed64(r.buffer(), r.start(), r.length());
                        continue;
                    }
                    break;
                case 7:
                    if (r.wireType() == ProtoReader.I64) {
                        v.explicitBounds.add(r.readFixed64());
                        continue;
                    }
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        v.explicitBounds.addPackedFixed64(r.buffer(), r.start(), r.length());
                        continue;
                    }
                    break;
                case 8:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        exemplars.add(r.start(), r.length());
                        continue;
                    }
                    break;
                case 9:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        v.attributes.add(r.start(), r.length());
                        continue;
                    }
                    break;
                case 10:
                    if (r.wireType() == ProtoReader.VARINT) {
                        v.flags = (int) r.readVarint();
                        continue;
                    }
                    break;
                case 11:
                    if (r.wireType() == ProtoReader.I64) {
                        v.min = Double.longBitsToDouble(r.readFixed64());
                        continue;
                    }
                    break;
                case 12:
                    if (r.wireType() == ProtoReader.I64) {
                        v.max = Double.longBitsToDouble(r.readFixed64());
                        continue;
                    }
                    break;
                default:
                    break;
            }
            r.skip();
        }
        exemplars(r);
    }

    private void exponential(ProtoReader r) throws InvalidProtobufException {
        MetricView v = view;
        v.newPoint();
        v.attributes.reset(r);
        exemplars.clear();
        positive.clear();
        negative.clear();
        while (r.next()) {
            switch (r.field()) {
                case 1:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        v.attributes.add(r.start(), r.length());
                        continue;
                    }
                    break;
                case 2:
                case 3:
                case 4:
                case 5:
                    if (startTimeCountSum(r, v)) {
                        continue;
                    }
                    break;
                case 6:
                    if (r.wireType() == ProtoReader.VARINT) {
                        v.scale = sint32(r.readVarint());
                        continue;
                    }
                    break;
                case 7:
                    if (r.wireType() == ProtoReader.I64) {
                        v.zeroCount = r.readFixed64();
                        continue;
                    }
                    break;
                case 8:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        positive.add(r.start(), r.length());
                        continue;
                    }
                    break;
                case 9:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        negative.add(r.start(), r.length());
                        continue;
                    }
                    break;
                case 10:
                    if (r.wireType() == ProtoReader.VARINT) {
                        v.flags = (int) r.readVarint();
                        continue;
                    }
                    break;
                case 11:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        exemplars.add(r.start(), r.length());
                        continue;
                    }
                    break;
                case 12:
                    if (r.wireType() == ProtoReader.I64) {
                        v.min = Double.longBitsToDouble(r.readFixed64());
                        continue;
                    }
                    break;
                case 13:
                    if (r.wireType() == ProtoReader.I64) {
                        v.max = Double.longBitsToDouble(r.readFixed64());
                        continue;
                    }
                    break;
                default:
                    break; // zero_threshold (14) has no column
            }
            r.skip();
        }
        v.positiveOffset = buckets(r, positive, v.positiveBucketCounts);
        v.negativeOffset = buckets(r, negative, v.negativeBucketCounts);
        exemplars(r);
    }

    /** Reads the occurrences of a {@code Buckets} field into {@code counts}; returns the offset (the last one). */
    private static int buckets(ProtoReader point, IntList occurrences, LongValues counts) throws InvalidProtobufException {
        int offset = 0;
        for (int i = 0; i < occurrences.size(); i += 2) {
            ProtoReader r = point.child(occurrences.get(i), occurrences.get(i + 1));
            while (r.next()) {
                if (r.is(1, ProtoReader.VARINT)) {
                    offset = sint32(r.readVarint());
                } else if (r.is(2, ProtoReader.VARINT)) {
                    counts.add(r.readVarint());
                } else if (r.is(2, ProtoReader.LEN)) {
                    r.readBytes();
                    counts.addPackedVarints(r.buffer(), r.start(), r.length());
                } else {
                    r.skip();
                }
            }
        }
        return offset;
    }

    private void summary(ProtoReader r) throws InvalidProtobufException {
        MetricView v = view;
        v.newPoint();
        v.attributes.reset(r);
        quantiles.clear();
        while (r.next()) {
            switch (r.field()) {
                case 2:
                case 3:
                case 4:
                case 5:
                    if (startTimeCountSum(r, v)) {
                        continue;
                    }
                    break;
                case 6:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        quantiles.add(r.start(), r.length());
                        continue;
                    }
                    break;
                case 7:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        v.attributes.add(r.start(), r.length());
                        continue;
                    }
                    break;
                case 8:
                    if (r.wireType() == ProtoReader.VARINT) {
                        v.flags = (int) r.readVarint();
                        continue;
                    }
                    break;
                default:
                    break;
            }
            r.skip();
        }
        for (int i = 0; i < quantiles.size(); i += 2) {
            ProtoReader q = r.child(quantiles.get(i), quantiles.get(i + 1));
            double quantile = 0;
            double value = 0;
            while (q.next()) {
                if (q.is(1, ProtoReader.I64)) {
                    quantile = Double.longBitsToDouble(q.readFixed64());
                } else if (q.is(2, ProtoReader.I64)) {
                    value = Double.longBitsToDouble(q.readFixed64());
                } else {
                    q.skip();
                }
            }
            v.addQuantile(quantile, value);
        }
    }

    /** Reads the point's exemplars (their ranges in {@link #exemplars}, fields of {@code point}'s message). */
    private void exemplars(ProtoReader point) throws InvalidProtobufException {
        MetricView v = view;
        for (int i = 0; i < exemplars.size(); i += 2) {
            ProtoReader r = point.child(exemplars.get(i), exemplars.get(i + 1));
            int e = v.addExemplar();
            WireAttributes a = v.exemplarAttributes[e];
            a.reset(r);
            long time = 0;
            int valueCase = MetricView.NO_VALUE;
            long bits = 0;
            int spanStart = 0;
            int spanLength = 0;
            int traceStart = 0;
            int traceLength = 0;
            while (r.next()) {
                switch (r.field()) {
                    case 2:
                        if (r.wireType() == ProtoReader.I64) {
                            time = r.readFixed64();
                            continue;
                        }
                        break;
                    case 3:
                        if (r.wireType() == ProtoReader.I64) {
                            bits = r.readFixed64();
                            valueCase = MetricView.AS_DOUBLE;
                            continue;
                        }
                        break;
                    case 4:
                        if (r.wireType() == ProtoReader.LEN) {
                            r.readBytes();
                            spanStart = r.start();
                            spanLength = r.length();
                            continue;
                        }
                        break;
                    case 5:
                        if (r.wireType() == ProtoReader.LEN) {
                            r.readBytes();
                            traceStart = r.start();
                            traceLength = r.length();
                            continue;
                        }
                        break;
                    case 6:
                        if (r.wireType() == ProtoReader.I64) {
                            bits = r.readFixed64();
                            valueCase = MetricView.AS_INT;
                            continue;
                        }
                        break;
                    case 7:
                        if (r.wireType() == ProtoReader.LEN) {
                            r.readBytes();
                            a.add(r.start(), r.length());
                            continue;
                        }
                        break;
                    default:
                        break;
                }
                r.skip();
            }
            v.exemplarTime[e] = time;
            v.exemplarValue[e] = valueCase == MetricView.AS_DOUBLE ? Double.longBitsToDouble(bits)
                    : valueCase == MetricView.AS_INT ? (double) bits : 0.0;
            v.exemplarIds[4 * e] = spanStart;
            v.exemplarIds[4 * e + 1] = spanLength;
            v.exemplarIds[4 * e + 2] = traceStart;
            v.exemplarIds[4 * e + 3] = traceLength;
        }
    }

    /** A {@code sint32}: ZigZag over the varint's low 32 bits, as protobuf-java's {@code readSInt32}. */
    private static int sint32(long varint) {
        int n = (int) varint;
        return (n >>> 1) ^ -(n & 1);
    }
}
