package io.tributary.tools.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.tributary.otlp.profiles.ExportProfilesServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.logs.v1.SeverityNumber;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.SummaryDataPoint;
import io.tributary.otlp.profiles.Function;
import io.tributary.otlp.profiles.KeyValueAndUnit;
import io.tributary.otlp.profiles.Line;
import io.tributary.otlp.profiles.Link;
import io.tributary.otlp.profiles.Location;
import io.tributary.otlp.profiles.Mapping;
import io.tributary.otlp.profiles.Profile;
import io.tributary.otlp.profiles.ProfilesDictionary;
import io.tributary.otlp.profiles.Sample;
import io.tributary.otlp.profiles.Stack;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.OtlpDecoder;
import io.tributary.otlp.Signal;
import io.tributary.otlp.json.OtlpJsonWriter;
import io.tributary.schema.SchemaFlavor;
import io.tributary.tables.OtelTable;
import io.tributary.tables.RecordRows;
import io.tributary.tables.RecordTranscoder;
import io.tributary.tables.TableLayouts;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** The shapes: deterministic from the seed, exactly N items per record, the variety they promise. */
class LoadShapeTest {

    private static final long NOW = 1_700_000_000_000_000_000L;
    private static final int[] SIZES = {1, 2, 3, 4, 5, 7, 8, 31, 32, 33, 100, 257};

    static int spans(ExportTraceServiceRequest r) {
        return r.getResourceSpansList().stream().flatMap(rs -> rs.getScopeSpansList().stream()).mapToInt(ScopeSpans::getSpansCount).sum();
    }

    static int logRecords(ExportLogsServiceRequest r) {
        return r.getResourceLogsList().stream().flatMap(rl -> rl.getScopeLogsList().stream()).mapToInt(ScopeLogs::getLogRecordsCount).sum();
    }

    static List<Profile> profiles(ExportProfilesServiceRequest r) {
        return r.getResourceProfilesList().stream().flatMap(rp -> rp.getScopeProfilesList().stream())
                .flatMap(sp -> sp.getProfilesList().stream()).collect(Collectors.toList());
    }

    static int samples(ExportProfilesServiceRequest r) {
        return profiles(r).stream().mapToInt(Profile::getSamplesCount).sum();
    }

    static List<Metric> metrics(ExportMetricsServiceRequest r) {
        return r.getResourceMetricsList().stream().flatMap(rm -> rm.getScopeMetricsList().stream())
                .flatMap(s -> s.getMetricsList().stream()).collect(Collectors.toList());
    }

    static int dataPoints(Metric m) {
        switch (m.getDataCase()) {
            case GAUGE:
                return m.getGauge().getDataPointsCount();
            case SUM:
                return m.getSum().getDataPointsCount();
            case HISTOGRAM:
                return m.getHistogram().getDataPointsCount();
            case EXPONENTIAL_HISTOGRAM:
                return m.getExponentialHistogram().getDataPointsCount();
            case SUMMARY:
                return m.getSummary().getDataPointsCount();
            default:
                return 0;
        }
    }

    static long exemplars(Metric m) {
        switch (m.getDataCase()) {
            case GAUGE:
                return m.getGauge().getDataPointsList().stream().mapToLong(NumberDataPoint::getExemplarsCount).sum();
            case SUM:
                return m.getSum().getDataPointsList().stream().mapToLong(NumberDataPoint::getExemplarsCount).sum();
            case HISTOGRAM:
                return m.getHistogram().getDataPointsList().stream().mapToLong(HistogramDataPoint::getExemplarsCount).sum();
            case EXPONENTIAL_HISTOGRAM:
                return m.getExponentialHistogram().getDataPointsList().stream().mapToLong(ExponentialHistogramDataPoint::getExemplarsCount).sum();
            default:
                return 0;
        }
    }

    static List<List<KeyValue>> pointAttributes(Metric m) {
        switch (m.getDataCase()) {
            case GAUGE:
                return m.getGauge().getDataPointsList().stream().map(NumberDataPoint::getAttributesList).collect(Collectors.toList());
            case SUM:
                return m.getSum().getDataPointsList().stream().map(NumberDataPoint::getAttributesList).collect(Collectors.toList());
            case HISTOGRAM:
                return m.getHistogram().getDataPointsList().stream().map(HistogramDataPoint::getAttributesList).collect(Collectors.toList());
            case EXPONENTIAL_HISTOGRAM:
                return m.getExponentialHistogram().getDataPointsList().stream()
                        .map(ExponentialHistogramDataPoint::getAttributesList).collect(Collectors.toList());
            default:
                return m.getSummary().getDataPointsList().stream().map(SummaryDataPoint::getAttributesList).collect(Collectors.toList());
        }
    }

    /** The traces shape predates logs and metrics; pin its bytes so that adding them cannot move it. */
    @Test
    void tracesShapeIsUnchanged() throws Exception {
        LoadShape s = new LoadShape(42, 100);
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        for (int i = 0; i < 3; i++) {
            md.update(s.next(NOW + i * 1_000_000L).toByteArray());
        }
        assertThat(HexFormat.of().formatHex(md.digest())).isEqualTo("76c774f82bf75172124008e120af4d157b49df24e8fdc7e7116a941135cddcfe");
    }

    @Test
    void deterministicFromTheSeed() {
        LoadShape a = new LoadShape(7, 50);
        LoadShape b = new LoadShape(7, 50);
        for (int i = 0; i < 3; i++) {
            assertThat(a.next(NOW)).isEqualTo(b.next(NOW));
            assertThat(a.nextLogs(NOW)).isEqualTo(b.nextLogs(NOW));
            assertThat(a.nextMetrics(NOW)).isEqualTo(b.nextMetrics(NOW));
            assertThat(a.nextProfiles(NOW)).isEqualTo(b.nextProfiles(NOW));
        }
        LoadShape c = new LoadShape(8, 50);
        assertThat(c.nextLogs(NOW)).isNotEqualTo(new LoadShape(7, 50).nextLogs(NOW));
        assertThat(c.nextMetrics(NOW)).isNotEqualTo(new LoadShape(7, 50).nextMetrics(NOW));
        assertThat(c.nextProfiles(NOW)).isNotEqualTo(new LoadShape(7, 50).nextProfiles(NOW));
    }

    @Test
    void nextBySignal() {
        assertThat(new LoadShape(9, 10).next(Signal.TRACES, NOW)).isEqualTo(new LoadShape(9, 10).next(NOW));
        assertThat(new LoadShape(9, 10).next(Signal.LOGS, NOW)).isEqualTo(new LoadShape(9, 10).nextLogs(NOW));
        assertThat(new LoadShape(9, 10).next(Signal.METRICS, NOW)).isEqualTo(new LoadShape(9, 10).nextMetrics(NOW));
        assertThat(new LoadShape(9, 10).next(Signal.PROFILES, NOW)).isEqualTo(new LoadShape(9, 10).nextProfiles(NOW));
    }

    @Test
    void exactlyTheItemsAsked() {
        for (int n : SIZES) {
            LoadShape s = new LoadShape(n, n);
            assertThat(spans(s.next(NOW))).as("spans, %d", n).isEqualTo(n);
            assertThat(logRecords(s.nextLogs(NOW))).as("log records, %d", n).isEqualTo(n);
            List<Metric> metrics = metrics(s.nextMetrics(NOW));
            assertThat(metrics.stream().mapToInt(LoadShapeTest::dataPoints).sum()).as("data points, %d", n).isEqualTo(n);
            assertThat(metrics).hasSize((n + LoadShape.POINTS_PER_METRIC - 1) / LoadShape.POINTS_PER_METRIC);
            ExportProfilesServiceRequest profiles = s.nextProfiles(NOW);
            assertThat(samples(profiles)).as("samples, %d", n).isEqualTo(n);
            assertThat(profiles.getResourceProfilesCount()).as("processes, %d", n).isEqualTo(n < 4 ? 1 : 2);
        }
        assertThatThrownBy(() -> new LoadShape(1, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Every index a profiles record holds points into its table of the dictionary, whose entry 0 is the zero one. */
    @Test
    void profilesPointOnlyIntoTheirDictionary() throws Exception {
        for (int n : SIZES) {
            ExportProfilesServiceRequest generated = new LoadShape(n, n).nextProfiles(NOW);
            ExportProfilesServiceRequest r = ExportProfilesServiceRequest.parseFrom(generated.toByteArray());
            assertThat(r).isEqualTo(generated);
            assertThat(samples(r)).isEqualTo(n);
            ProfilesDictionary d = r.getDictionary();
            assertThat(d.getStringTable(0)).isEmpty();
            assertThat(d.getMappingTable(0)).isEqualTo(Mapping.getDefaultInstance());
            assertThat(d.getLocationTable(0)).isEqualTo(Location.getDefaultInstance());
            assertThat(d.getFunctionTable(0)).isEqualTo(Function.getDefaultInstance());
            assertThat(d.getLinkTable(0)).isEqualTo(Link.getDefaultInstance());
            assertThat(d.getAttributeTable(0)).isEqualTo(KeyValueAndUnit.getDefaultInstance());
            assertThat(d.getStackTable(0)).isEqualTo(Stack.getDefaultInstance());
            int strings = d.getStringTableCount();
            int attributes = d.getAttributeTableCount();
            for (Mapping m : d.getMappingTableList().subList(1, d.getMappingTableCount())) {
                within(m.getFilenameStrindex(), 1, strings, "mapping file");
                m.getAttributeIndicesList().forEach(a -> within(a, 1, attributes, "mapping attribute"));
                assertThat(Long.compareUnsigned(m.getMemoryStart(), m.getMemoryLimit())).isNegative();
            }
            for (Location l : d.getLocationTableList().subList(1, d.getLocationTableCount())) {
                within(l.getMappingIndex(), 0, d.getMappingTableCount(), "location mapping");
                assertThat(l.getLinesCount()).isBetween(1, 3);
                for (Line line : l.getLinesList()) {
                    within(line.getFunctionIndex(), 1, d.getFunctionTableCount(), "line function");
                }
                l.getAttributeIndicesList().forEach(a -> within(a, 1, attributes, "location attribute"));
            }
            for (Function f : d.getFunctionTableList()) {
                within(f.getNameStrindex(), 0, strings, "function name");
                within(f.getSystemNameStrindex(), 0, strings, "function system name");
                within(f.getFilenameStrindex(), 0, strings, "function file");
            }
            for (KeyValueAndUnit a : d.getAttributeTableList().subList(1, attributes)) {
                within(a.getKeyStrindex(), 1, strings, "attribute key");
                within(a.getUnitStrindex(), 0, strings, "attribute unit");
            }
            for (Stack s : d.getStackTableList()) {
                s.getLocationIndicesList().forEach(l -> within(l, 1, d.getLocationTableCount(), "stack location"));
            }
            for (Link l : d.getLinkTableList().subList(1, d.getLinkTableCount())) {
                assertThat(l.getTraceId().size()).isEqualTo(16);
                assertThat(l.getSpanId().size()).isEqualTo(8);
            }
            for (Profile p : profiles(r)) {
                within(p.getSampleType().getTypeStrindex(), 1, strings, "sample type");
                within(p.getSampleType().getUnitStrindex(), 1, strings, "sample unit");
                within(p.getPeriodType().getTypeStrindex(), 1, strings, "period type");
                within(p.getPeriodType().getUnitStrindex(), 1, strings, "period unit");
                p.getAttributeIndicesList().forEach(a -> within(a, 1, attributes, "profile attribute"));
                assertThat(p.getProfileId().size()).isEqualTo(16);
                for (Sample s : p.getSamplesList()) {
                    within(s.getStackIndex(), 1, d.getStackTableCount(), "sample stack");
                    within(s.getLinkIndex(), 0, d.getLinkTableCount(), "sample link");
                    s.getAttributeIndicesList().forEach(a -> within(a, 1, attributes, "sample attribute"));
                    assertThat(s.getValuesList()).containsExactly(LoadShape.PROFILE_PERIOD_NANOS);
                    assertThat(s.getTimestampsUnixNanoCount()).isEqualTo(1);
                    assertThat(s.getTimestampsUnixNano(0) - p.getTimeUnixNano()).isBetween(0L, p.getDurationNano() - 1);
                }
            }
        }
    }

    private static void within(int index, int from, int size, String what) {
        assertThat(index).as(what).isBetween(from, size - 1);
    }

    @Test
    void profilesLookLikeAProfilersExport() {
        ExportProfilesServiceRequest r = new LoadShape(11, 400).nextProfiles(NOW);
        ProfilesDictionary d = r.getDictionary();
        List<String> strings = d.getStringTableList();
        assertThat(r.getResourceProfilesList()).hasSize(2).allSatisfy(rp -> {
            assertThat(rp.getResource().getAttributesList()).extracting(KeyValue::getKey)
                    .contains("service.name", "host.name", "k8s.namespace.name", "k8s.pod.name", "k8s.container.name");
            assertThat(rp.getScopeProfilesList()).hasSize(1);
            assertThat(rp.getScopeProfiles(0).getProfilesList()).hasSize(1);
        });
        assertThat(r.getResourceProfiles(1).getScopeProfiles(0).getProfiles(0).getSamplesCount()).isEqualTo(100);
        for (Profile p : profiles(r)) {
            assertThat(strings.get(p.getSampleType().getTypeStrindex()) + "/" + strings.get(p.getSampleType().getUnitStrindex()))
                    .isEqualTo("cpu/nanoseconds");
            assertThat(strings.get(p.getPeriodType().getTypeStrindex()) + "/" + strings.get(p.getPeriodType().getUnitStrindex()))
                    .isEqualTo("cpu/nanoseconds");
            assertThat(p.getPeriod()).isEqualTo(10_000_000L);
            assertThat(p.getTimeUnixNano() + p.getDurationNano()).isEqualTo(NOW);
            assertThat(p.getAttributeIndicesList()).extracting(a -> strings.get(d.getAttributeTable(a).getKeyStrindex()))
                    .contains("process.executable.name", "process.pid");
        }
        assertThat(d.getMappingTableList()).extracting(m -> strings.get(m.getFilenameStrindex()))
                .anySatisfy(f -> assertThat(f).endsWith("/libc.so.6"))
                .anySatisfy(f -> assertThat(f).endsWith("/libjvm.so"))
                .anySatisfy(f -> assertThat(f).isEqualTo("/usr/local/bin/envoy"));
        assertThat(d.getLocationTableList()).extracting(Location::getLinesCount).contains(1, 2, 3);
        // kernel frames are above 2^63, which OTLP/JSON writes unsigned
        assertThat(d.getLocationTableList()).anySatisfy(l -> assertThat(l.getAddress()).isNegative());

        List<Sample> samples = profiles(r).stream().flatMap(p -> p.getSamplesList().stream()).collect(Collectors.toList());
        assertThat(samples).filteredOn(s -> s.getLinkIndex() > 0).isNotEmpty();
        assertThat(samples).filteredOn(s -> s.getLinkIndex() == 0).isNotEmpty();
        assertThat(samples).allSatisfy(s -> assertThat(s.getAttributeIndicesList())
                .extracting(a -> strings.get(d.getAttributeTable(a).getKeyStrindex())).containsExactly("thread.name", "thread.id"));
        List<Integer> depths = samples.stream().map(s -> d.getStackTable(s.getStackIndex()).getLocationIndicesCount())
                .collect(Collectors.toList());
        assertThat(depths).allSatisfy(n -> assertThat(n).isBetween(5, 20));
        assertThat(depths.stream().mapToInt(Integer::intValue).min().getAsInt()).isLessThanOrEqualTo(8);
        assertThat(depths.stream().mapToInt(Integer::intValue).max().getAsInt()).isGreaterThanOrEqualTo(17);
        // stacks share their roots (leaf first: the root is the last location)
        Set<Integer> roots = new HashSet<>();
        for (Stack s : d.getStackTableList().subList(1, d.getStackTableCount())) {
            roots.add(s.getLocationIndices(s.getLocationIndicesCount() - 1));
        }
        assertThat(d.getStackTableCount() - 1).isGreaterThan(4 * roots.size());
    }

    /**
     * A profiles record is one otel_profiles row per sample, the same rows from its OTLP/JSON, which
     * has the ids in hex and reads back to what it was written from.
     */
    @Test
    void profilesBecomeOneRowPerSample() throws Exception {
        TableLayouts layouts = TableLayouts.canonical(SchemaFlavor.MAP);
        RecordTranscoder proto = RecordTranscoder.of(Signal.PROFILES, Encoding.OTLP_PROTO, layouts);
        RecordTranscoder json = RecordTranscoder.of(Signal.PROFILES, Encoding.OTLP_JSON, layouts);
        OtlpDecoder<ExportProfilesServiceRequest> decoder =
                new OtlpDecoder<>(Encoding.OTLP_JSON, ExportProfilesServiceRequest.getDefaultInstance());
        RecordRows rows = new RecordRows(layouts);
        HexFormat hex = HexFormat.of();
        for (int n : SIZES) {
            ExportProfilesServiceRequest r = new LoadShape(100 + n, n).nextProfiles(NOW);
            proto.transcode(r.toByteArray(), rows);
            assertThat(rows.rows(OtelTable.PROFILES)).as("rows, %d", n).isEqualTo(n);
            assertThat(rows.total()).isEqualTo(n);
            byte[] expected = rows.writer(OtelTable.PROFILES).toByteArray();
            rows.clear();

            byte[] text = OtlpJsonWriter.write(r);
            json.transcode(text, rows);
            assertThat(rows.rows(OtelTable.PROFILES)).isEqualTo(n);
            assertThat(rows.writer(OtelTable.PROFILES).toByteArray()).as("rows from OTLP/JSON, %d", n).isEqualTo(expected);
            rows.clear();
            // not the same message: the zero attribute's value, written as {} (the Collector holds it by value), reads back set
            assertThat(OtlpJsonWriter.write(decoder.decode(text))).isEqualTo(text);

            String j = new String(text, StandardCharsets.UTF_8);
            String columns = new String(expected, StandardCharsets.ISO_8859_1);
            for (Profile p : profiles(r)) {
                String id = hex.formatHex(p.getProfileId().toByteArray());
                assertThat(j).contains("\"profileId\":\"" + id + "\"");
                assertThat(columns).contains(id);
            }
            for (Sample s : profiles(r).stream().flatMap(p -> p.getSamplesList().stream()).collect(Collectors.toList())) {
                if (s.getLinkIndex() > 0) {
                    Link l = r.getDictionary().getLinkTable(s.getLinkIndex());
                    String trace = hex.formatHex(l.getTraceId().toByteArray());
                    String span = hex.formatHex(l.getSpanId().toByteArray());
                    assertThat(j).contains("{\"traceId\":\"" + trace + "\",\"spanId\":\"" + span + "\"}");
                    assertThat(columns).contains(trace).contains(span);
                }
            }
        }
    }

    @Test
    void logsLookLikeAnSdkExport() {
        ExportLogsServiceRequest r = new LoadShape(3, 100).nextLogs(NOW);
        assertThat(r.getResourceLogs(0).getResource().getAttributesList()).extracting(KeyValue::getKey)
                .contains("service.name", "service.version", "host.name", "telemetry.sdk.language");
        assertThat(r.getResourceLogs(0).getScopeLogs(0).getScope().getVersion()).isNotEmpty();
        List<LogRecord> records = r.getResourceLogs(0).getScopeLogs(0).getLogRecordsList();
        assertThat(records).allSatisfy(l -> {
            assertThat(l.getTimeUnixNano()).isPositive().isLessThanOrEqualTo(l.getObservedTimeUnixNano());
            assertThat(l.getSeverityNumber()).isNotEqualTo(SeverityNumber.SEVERITY_NUMBER_UNSPECIFIED);
            assertThat(l.getSeverityText()).isNotEmpty();
            assertThat(l.hasBody()).isTrue();
            assertThat(l.getAttributesCount()).isGreaterThanOrEqualTo(3);
            assertThat(l.getFlags()).isEqualTo(l.getTraceId().isEmpty() ? 0 : 1);
        });
        assertThat(records).extracting(l -> l.getBody().getValueCase())
                .contains(AnyValue.ValueCase.STRING_VALUE, AnyValue.ValueCase.KVLIST_VALUE, AnyValue.ValueCase.ARRAY_VALUE);
        assertThat(records).extracting(LogRecord::getSeverityNumber)
                .contains(SeverityNumber.SEVERITY_NUMBER_INFO, SeverityNumber.SEVERITY_NUMBER_WARN, SeverityNumber.SEVERITY_NUMBER_ERROR);
        assertThat(records).filteredOn(l -> !l.getEventName().isEmpty()).isNotEmpty();
        assertThat(records).filteredOn(l -> l.getTraceId().size() == 16 && l.getSpanId().size() == 8).isNotEmpty();
        assertThat(records).filteredOn(l -> l.getTraceId().isEmpty()).isNotEmpty();
    }

    @Test
    void metricsMixEveryKind() {
        ExportMetricsServiceRequest r = new LoadShape(5, 100).nextMetrics(NOW);
        for (ScopeMetrics sm : r.getResourceMetrics(0).getScopeMetricsList()) {
            assertThat(sm.getMetricsList()).extracting(Metric::getName).doesNotHaveDuplicates();
        }
        List<Metric> metrics = metrics(r);
        List<NumberDataPoint> gauges = metrics.stream().filter(Metric::hasGauge)
                .flatMap(m -> m.getGauge().getDataPointsList().stream()).collect(Collectors.toList());
        assertThat(gauges).extracting(NumberDataPoint::getValueCase)
                .contains(NumberDataPoint.ValueCase.AS_INT, NumberDataPoint.ValueCase.AS_DOUBLE);
        assertThat(metrics).filteredOn(Metric::hasSum).extracting(m -> m.getSum().getAggregationTemporality() + "/" + m.getSum().getIsMonotonic())
                .contains("AGGREGATION_TEMPORALITY_CUMULATIVE/true", "AGGREGATION_TEMPORALITY_DELTA/true");

        List<HistogramDataPoint> histograms = metrics.stream().filter(Metric::hasHistogram)
                .flatMap(m -> m.getHistogram().getDataPointsList().stream()).collect(Collectors.toList());
        assertThat(histograms).filteredOn(p -> p.hasMin() && p.hasMax()).isNotEmpty();
        assertThat(histograms).filteredOn(p -> !p.hasMin() && !p.hasMax()).isNotEmpty();
        assertThat(histograms).allSatisfy(p -> {
            assertThat(p.getBucketCountsCount()).isEqualTo(p.getExplicitBoundsCount() + 1);
            assertThat(p.getBucketCountsList().stream().mapToLong(Long::longValue).sum()).isEqualTo(p.getCount());
            assertThat(p.hasSum()).isTrue();
        });

        List<ExponentialHistogramDataPoint> exponential = metrics.stream().filter(Metric::hasExponentialHistogram)
                .flatMap(m -> m.getExponentialHistogram().getDataPointsList().stream()).collect(Collectors.toList());
        assertThat(exponential).filteredOn(p -> p.getNegative().getBucketCountsCount() > 0).isNotEmpty();
        assertThat(exponential).allSatisfy(p -> {
            assertThat(p.getScale()).isBetween(2, 5);
            assertThat(p.hasPositive() && p.hasNegative()).isTrue();
            long buckets = p.getZeroCount()
                    + p.getPositive().getBucketCountsList().stream().mapToLong(Long::longValue).sum()
                    + p.getNegative().getBucketCountsList().stream().mapToLong(Long::longValue).sum();
            assertThat(buckets).isEqualTo(p.getCount());
            assertThat(p.getMin()).isLessThanOrEqualTo(p.getMax());
        });
        assertThat(metrics).filteredOn(Metric::hasExponentialHistogram)
                .allSatisfy(m -> assertThat(m.getExponentialHistogram().getAggregationTemporality())
                        .isEqualTo(AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA));
        List<SummaryDataPoint> summaries = metrics.stream().filter(Metric::hasSummary)
                .flatMap(m -> m.getSummary().getDataPointsList().stream()).collect(Collectors.toList());
        assertThat(summaries).isNotEmpty().allSatisfy(p -> assertThat(p.getQuantileValuesCount()).isEqualTo(5));

        assertThat(metrics.stream().mapToLong(LoadShapeTest::exemplars).sum()).isPositive();
        assertThat(metrics).allSatisfy(m -> assertThat(pointAttributes(m)).allSatisfy(a -> assertThat(a).isNotEmpty()));
    }
}
