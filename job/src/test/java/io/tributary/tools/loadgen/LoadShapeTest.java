package io.tributary.tools.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
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
import io.opentelemetry.proto.trace.v1.ScopeSpans;

import org.junit.jupiter.api.Test;

import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
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
        }
        LoadShape c = new LoadShape(8, 50);
        assertThat(c.nextLogs(NOW)).isNotEqualTo(new LoadShape(7, 50).nextLogs(NOW));
        assertThat(c.nextMetrics(NOW)).isNotEqualTo(new LoadShape(7, 50).nextMetrics(NOW));
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
        }
        assertThatThrownBy(() -> new LoadShape(1, 0)).isInstanceOf(IllegalArgumentException.class);
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
