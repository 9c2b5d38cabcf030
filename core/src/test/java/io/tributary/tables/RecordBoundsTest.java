package io.tributary.tables;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.metrics.v1.Exemplar;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogram;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.Sum;
import io.opentelemetry.proto.metrics.v1.Summary;
import io.opentelemetry.proto.metrics.v1.SummaryDataPoint;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.Signal;
import io.tributary.otlp.json.OtlpJsonWriter;
import io.tributary.schema.SchemaFlavor;
import io.tributary.tables.RecordTranscoder;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * {@link RecordBounds} per signal and encoding: a record that would render past either bound
 * fails with {@link OversizedRecordException} naming the setting, rendering stops there (the
 * buffers never grow past the bound), a record exactly at the bounds passes, and the next record
 * decodes as if the hostile one had never come. The hostile records are the issue's: a 64 KiB
 * resource attribute copied into 100,000 empty rows, about 6.5 GB of rows from 270 KB.
 */
class RecordBoundsTest {

    private static final int BIG_ATTRIBUTE = 64 << 10;
    private static final int MANY = 100_000;

    // ---- the records

    private static Resource bigResource() {
        byte[] v = new byte[BIG_ATTRIBUTE];
        Arrays.fill(v, (byte) 'r');
        return Resource.newBuilder()
                .addAttributes(kv("service.name", "hostile"))
                .addAttributes(KeyValue.newBuilder().setKey("big")
                        .setValue(AnyValue.newBuilder().setStringValueBytes(ByteString.copyFrom(v))))
                .build();
    }

    private static KeyValue kv(String k, String v) {
        return KeyValue.newBuilder().setKey(k).setValue(AnyValue.newBuilder().setStringValue(v)).build();
    }

    static ExportTraceServiceRequest spans(Resource resource, int n) {
        ScopeSpans.Builder ss = ScopeSpans.newBuilder();
        for (int i = 0; i < n; i++) {
            ss.addSpans(Span.getDefaultInstance());
        }
        return ExportTraceServiceRequest.newBuilder()
                .addResourceSpans(ResourceSpans.newBuilder().setResource(resource).addScopeSpans(ss)).build();
    }

    /** A profile of {@code n} samples of the exporter's test stack. */
    static io.tributary.otlp.profiles.ExportProfilesServiceRequest profiles(Resource resource, int n) {
        io.tributary.otlp.profiles.Profile.Builder p = io.tributary.testing.ProfilesFixtures.profile();
        for (int i = 0; i < n; i++) {
            p.addSamples(io.tributary.testing.ProfilesFixtures.sample());
        }
        io.tributary.otlp.profiles.ExportProfilesServiceRequest req =
                io.tributary.testing.ProfilesFixtures.request(io.tributary.testing.ProfilesFixtures.dictionary(), p);
        return req.toBuilder().setResourceProfiles(0, req.getResourceProfiles(0).toBuilder().setResource(resource)).build();
    }

    static ExportLogsServiceRequest logs(Resource resource, int n) {
        ScopeLogs.Builder sl = ScopeLogs.newBuilder();
        for (int i = 0; i < n; i++) {
            sl.addLogRecords(LogRecord.getDefaultInstance());
        }
        return ExportLogsServiceRequest.newBuilder()
                .addResourceLogs(ResourceLogs.newBuilder().setResource(resource).addScopeLogs(sl)).build();
    }

    /** A request with one metric of {@code type} holding {@code n} empty points. */
    static ExportMetricsServiceRequest metrics(Resource resource, OtelTable type, int n) {
        Metric.Builder m = Metric.newBuilder().setName("m");
        switch (type) {
            case METRICS_GAUGE: {
                Gauge.Builder g = Gauge.newBuilder();
                for (int i = 0; i < n; i++) {
                    g.addDataPoints(NumberDataPoint.getDefaultInstance());
                }
                m.setGauge(g);
                break;
            }
            case METRICS_SUM: {
                Sum.Builder s = Sum.newBuilder();
                for (int i = 0; i < n; i++) {
                    s.addDataPoints(NumberDataPoint.getDefaultInstance());
                }
                m.setSum(s);
                break;
            }
            case METRICS_HISTOGRAM: {
                Histogram.Builder h = Histogram.newBuilder();
                for (int i = 0; i < n; i++) {
                    h.addDataPoints(HistogramDataPoint.getDefaultInstance());
                }
                m.setHistogram(h);
                break;
            }
            case METRICS_EXPONENTIAL_HISTOGRAM: {
                ExponentialHistogram.Builder h = ExponentialHistogram.newBuilder();
                for (int i = 0; i < n; i++) {
                    h.addDataPoints(ExponentialHistogramDataPoint.getDefaultInstance());
                }
                m.setExponentialHistogram(h);
                break;
            }
            default: {
                Summary.Builder s = Summary.newBuilder();
                for (int i = 0; i < n; i++) {
                    s.addDataPoints(SummaryDataPoint.getDefaultInstance());
                }
                m.setSummary(s);
            }
        }
        return ExportMetricsServiceRequest.newBuilder()
                .addResourceMetrics(ResourceMetrics.newBuilder().setResource(resource)
                        .addScopeMetrics(ScopeMetrics.newBuilder().addMetrics(m)))
                .build();
    }

    // ---- decoding

    /** One task's decoder of a signal, in a flavour, under bounds. */
    private static final class Decoder {
        final RecordTranscoder transcoder;
        final RecordRows rows;

        Decoder(Signal signal, SchemaFlavor flavor, RecordBounds bounds) {
            TableLayouts layouts = TableLayouts.canonical(flavor);
            transcoder = RecordTranscoder.of(signal, Encoding.AUTO, layouts);
            rows = new RecordRows(layouts, bounds);
        }

        /** The rows of one record, per table: {rows, bytes...}, as the decode operator emits them. */
        List<String> decode(byte[] value) throws Exception {
            try {
                transcoder.transcode(value, rows);
            } catch (Exception e) {
                rows.clear();
                throw e;
            }
            List<String> out = new ArrayList<>();
            rows.emit(e -> out.add(OtelTable.values()[e.table] + " " + e.rows + " rows "
                    + Arrays.toString(Arrays.copyOf(e.data, e.length))), "t", 0, 0);
            return out;
        }

        /** The largest buffer a table's writer holds now. */
        int largestBuffer() {
            int max = 0;
            for (OtelTable t : OtelTable.values()) {
                max = Math.max(max, rows.writer(t).buffer().length);
            }
            return max;
        }
    }

    private static byte[] encode(com.google.protobuf.Message m, boolean json) {
        return json ? OtlpJsonWriter.write(m) : m.toByteArray();
    }

    /**
     * The hostile record of {@code signal} in both encodings: refused with the byte bound's key,
     * no buffer past the bound, and a normal record afterwards decodes to the bytes a fresh decoder
     * gives it.
     */
    private static void hostileRecordIsRefused(Signal signal, Function<Integer, com.google.protobuf.Message> hostile,
            com.google.protobuf.Message normal) throws Exception {
        for (boolean json : new boolean[] {false, true}) {
            for (SchemaFlavor flavor : SchemaFlavor.values()) {
                Decoder d = new Decoder(signal, flavor, RecordBounds.DEFAULT);
                byte[] value = encode(hostile.apply(MANY), json);
                assertThat(value.length).as("a small record").isLessThan(json ? 4 << 20 : 300 << 10);
                assertThatThrownBy(() -> d.decode(value)).as("%s json=%s %s", signal, json, flavor)
                        .isInstanceOf(OversizedRecordException.class)
                        .hasMessage("the record renders more than 67108864 bytes of rows, the most"
                                + " decode.max-bytes-per-record allows");
                assertThat(d.largestBuffer()).as("rendering stopped at the bound").isLessThanOrEqualTo(64 << 20);
                byte[] ok = encode(normal, json);
                assertThat(d.decode(ok)).as("the next record").isEqualTo(new Decoder(signal, flavor, RecordBounds.DEFAULT).decode(ok));
            }
        }
    }

    @Test
    void aHostileTracesRecordIsRefusedAtTheByteBound() throws Exception {
        hostileRecordIsRefused(Signal.TRACES, n -> spans(bigResource(), n), spans(bigResource(), 3));
    }

    @Test
    void aHostileLogsRecordIsRefusedAtTheByteBound() throws Exception {
        hostileRecordIsRefused(Signal.LOGS, n -> logs(bigResource(), n), logs(bigResource(), 3));
    }

    @ParameterizedTest
    @EnumSource(value = OtelTable.class, names = "METRICS_.*", mode = EnumSource.Mode.MATCH_ALL)
    void aHostileMetricsRecordIsRefusedAtTheByteBound(OtelTable type) throws Exception {
        hostileRecordIsRefused(Signal.METRICS, n -> metrics(bigResource(), type, n), metrics(bigResource(), type, 3));
    }

    /** The bytes of a record's rows, all tables, as the decode operator emits them. */
    private static long bytesOf(Signal signal, byte[] value) throws Exception {
        long[] bytes = {0};
        Decoder d = new Decoder(signal, SchemaFlavor.MAP, RecordBounds.DEFAULT);
        d.transcoder.transcode(value, d.rows);
        d.rows.emit(e -> bytes[0] += e.length, "t", 0, 0);
        return bytes[0];
    }

    /** Exactly at the bounds a record passes; one row or one byte fewer allowed, it is refused. */
    @Test
    void theBoundsAreExact() throws Exception {
        Resource r = Resource.newBuilder().addAttributes(kv("service.name", "exact")).build();
        byte[] ten = spans(r, 10).toByteArray();
        int bytes = (int) bytesOf(Signal.TRACES, ten);

        assertThat(new Decoder(Signal.TRACES, SchemaFlavor.MAP, new RecordBounds(10, bytes)).decode(ten)).hasSize(1);
        assertThatThrownBy(() -> new Decoder(Signal.TRACES, SchemaFlavor.MAP, new RecordBounds(9, bytes)).decode(ten))
                .isInstanceOf(OversizedRecordException.class)
                .hasMessage("the record renders more than 9 rows, the most decode.max-rows-per-record allows");
        assertThatThrownBy(() -> new Decoder(Signal.TRACES, SchemaFlavor.MAP, new RecordBounds(10, bytes - 1)).decode(ten))
                .isInstanceOf(OversizedRecordException.class)
                .hasMessage("the record renders more than " + (bytes - 1) + " bytes of rows, the most"
                        + " decode.max-bytes-per-record allows");
    }

    /** The rows bound catches many small rows well before the bytes bound would. */
    @ParameterizedTest
    @EnumSource(Signal.class)
    void manySmallRowsAreRefusedAtTheRowBound(Signal signal) throws Exception {
        Resource r = Resource.getDefaultInstance();
        com.google.protobuf.Message m = signal == Signal.TRACES ? spans(r, 1_001)
                : signal == Signal.LOGS ? logs(r, 1_001) : signal == Signal.PROFILES ? profiles(r, 1_001)
                : metrics(r, OtelTable.METRICS_GAUGE, 1_001);
        for (boolean json : new boolean[] {false, true}) {
            Decoder d = new Decoder(signal, SchemaFlavor.MAP, new RecordBounds(1_000, 64 << 20));
            assertThatThrownBy(() -> d.decode(encode(m, json))).as("%s json=%s", signal, json)
                    .isInstanceOf(OversizedRecordException.class)
                    .hasMessageContaining("decode.max-rows-per-record");
        }
    }

    /**
     * Metrics spread one record over several tables: the bound is on all of them together, so two
     * tables each within it but together past it are refused.
     */
    @Test
    void theBoundsCountEveryTableOfTheRecord() throws Exception {
        Resource r = Resource.newBuilder().addAttributes(kv("service.name", "split")).build();
        ExportMetricsServiceRequest gauge = metrics(r, OtelTable.METRICS_GAUGE, 50);
        ExportMetricsServiceRequest sum = metrics(r, OtelTable.METRICS_SUM, 50);
        ExportMetricsServiceRequest both = gauge.toBuilder().addResourceMetrics(sum.getResourceMetrics(0)).build();
        long g = bytesOf(Signal.METRICS, gauge.toByteArray());
        long s = bytesOf(Signal.METRICS, sum.toByteArray());
        assertThat(bytesOf(Signal.METRICS, both.toByteArray())).isEqualTo(g + s);
        int bound = (int) Math.max(g, s) + 1;
        RecordBounds bounds = new RecordBounds(1_000, bound);
        assertThat(new Decoder(Signal.METRICS, SchemaFlavor.MAP, bounds).decode(gauge.toByteArray())).hasSize(1);
        assertThat(new Decoder(Signal.METRICS, SchemaFlavor.MAP, bounds).decode(sum.toByteArray())).hasSize(1);
        assertThatThrownBy(() -> new Decoder(Signal.METRICS, SchemaFlavor.MAP, bounds).decode(both.toByteArray()))
                .isInstanceOf(OversizedRecordException.class).hasMessageContaining("decode.max-bytes-per-record");
        assertThatThrownBy(() -> new Decoder(Signal.METRICS, SchemaFlavor.MAP, new RecordBounds(99, 64 << 20))
                        .decode(both.toByteArray()))
                .isInstanceOf(OversizedRecordException.class).hasMessageContaining("decode.max-rows-per-record");
    }

    /**
     * One row larger than the bound (a 4 MiB attribute under a 1 MiB bound, and exemplars whose
     * attributes add up) is stopped while it is written: the buffer never grows past the bound.
     */
    @Test
    void aRowLargerThanTheBoundIsStoppedWhileItIsWritten() throws Exception {
        byte[] v = new byte[4 << 20];
        Arrays.fill(v, (byte) 'x');
        KeyValue big = KeyValue.newBuilder().setKey("big").setValue(AnyValue.newBuilder()
                .setStringValueBytes(ByteString.copyFrom(v))).build();
        RecordBounds bounds = new RecordBounds(1_000, 1 << 20);
        Decoder traces = new Decoder(Signal.TRACES, SchemaFlavor.MAP, bounds);
        byte[] span = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                .addScopeSpans(ScopeSpans.newBuilder().addSpans(Span.newBuilder().addAttributes(big)))).build().toByteArray();
        assertThatThrownBy(() -> traces.decode(span)).isInstanceOf(OversizedRecordException.class)
                .hasMessageContaining("decode.max-bytes-per-record");
        assertThat(traces.largestBuffer()).isLessThanOrEqualTo(1 << 20);

        NumberDataPoint.Builder p = NumberDataPoint.newBuilder();
        byte[] attr = new byte[256 << 10];
        for (int i = 0; i < 8; i++) {
            p.addExemplars(Exemplar.newBuilder().addFilteredAttributes(KeyValue.newBuilder().setKey("e" + i)
                    .setValue(AnyValue.newBuilder().setStringValueBytes(ByteString.copyFrom(attr)))));
        }
        Decoder metrics = new Decoder(Signal.METRICS, SchemaFlavor.MAP, bounds);
        byte[] point = ExportMetricsServiceRequest.newBuilder().addResourceMetrics(ResourceMetrics.newBuilder()
                .addScopeMetrics(ScopeMetrics.newBuilder().addMetrics(Metric.newBuilder().setName("m")
                        .setGauge(Gauge.newBuilder().addDataPoints(p))))).build().toByteArray();
        assertThatThrownBy(() -> metrics.decode(point)).isInstanceOf(OversizedRecordException.class)
                .hasMessageContaining("decode.max-bytes-per-record");
        assertThat(metrics.largestBuffer()).isLessThanOrEqualTo(1 << 20);
    }

    /**
     * The JSON flavour flattens nested maps to dotted paths, repeating a key in the path of every
     * leaf below it: a 64 KiB key over 2,000 leaves would be 128 MiB of paths (twice: paths and
     * keys) made from 80 KB.
     * The paths are bounded as they are made, in both encodings and every signal.
     */
    @ParameterizedTest
    @EnumSource(Signal.class)
    void jsonPathsOfNestedMapsAreBoundedAsTheyAreMade(Signal signal) throws Exception {
        // the profiles table has no JSON columns: the exporter's json option leaves it alone
        org.junit.jupiter.api.Assumptions.assumeTrue(signal != Signal.PROFILES);
        KeyValueList.Builder leaves = KeyValueList.newBuilder();
        for (int i = 0; i < 2_000; i++) {
            leaves.addValues(KeyValue.newBuilder().setKey(Integer.toString(i)).setValue(AnyValue.newBuilder().setIntValue(i)));
        }
        char[] key = new char[64 << 10];
        Arrays.fill(key, 'k');
        Resource r = Resource.newBuilder().addAttributes(KeyValue.newBuilder().setKey(new String(key))
                .setValue(AnyValue.newBuilder().setKvlistValue(leaves))).build();
        com.google.protobuf.Message m = signal == Signal.TRACES ? spans(r, 1)
                : signal == Signal.LOGS ? logs(r, 1) : metrics(r, OtelTable.METRICS_GAUGE, 1);
        for (boolean json : new boolean[] {false, true}) {
            byte[] value = encode(m, json);
            assertThat(value.length).isLessThan(1 << 20);
            assertThatThrownBy(() -> new Decoder(signal, SchemaFlavor.JSON, RecordBounds.DEFAULT).decode(value))
                    .as("%s json=%s", signal, json)
                    .isInstanceOf(OversizedRecordException.class)
                    .hasMessage("attributes flatten to more than 16777216 characters of JSON paths (nested maps under"
                            + " long keys), more than a JSON column takes here");
            // the map flavour writes the map as one JSON text value: as large as the record, once
            assertThat(new Decoder(signal, SchemaFlavor.MAP, RecordBounds.DEFAULT).decode(value)).hasSize(1);
        }
    }
}
