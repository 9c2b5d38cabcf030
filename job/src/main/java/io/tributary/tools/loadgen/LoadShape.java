package io.tributary.tools.loadgen;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.tributary.otlp.profiles.ExportProfilesServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.logs.v1.SeverityNumber;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
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
import io.tributary.otlp.profiles.Profile;
import io.tributary.otlp.profiles.ResourceProfiles;
import io.tributary.otlp.profiles.Sample;
import io.tributary.otlp.profiles.ScopeProfiles;
import io.tributary.otlp.profiles.ValueType;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import io.tributary.otlp.Signal;
import io.tributary.tools.loadgen.ProfiledCode.Call;
import io.tributary.tools.loadgen.ProfiledCode.ThreadKind;

import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The load generator's records, deterministic from the seed (and the {@code nowNanos} given),
 * each with exactly {@code itemsPerRecord} items: spans, log records, data points or samples.
 *
 * <ul>
 *   <li>Traces ({@link #next}), shaped like streamfold/otel-loadgen's: one resource per record
 *       (service.name, host.name, k8s.pod.name), one trace of {@code itemsPerRecord} spans where
 *       each span is the parent of the next, a few int and string attributes and one event per
 *       span.
 *   <li>Logs ({@link #nextLogs}), shaped like an SDK's export: one resource (service.name,
 *       service.version, host.name, k8s.pod.name, telemetry.sdk.*), one scope, {@code
 *       itemsPerRecord} log records with time and observed time, severity number and text
 *       (mostly INFO), a string body (every 20th a kvlist body, every 20th an array body),
 *       thread and code attributes (exception.* on errors), trace and span id and flags on about
 *       half, an event name on 3 in 20.
 *   <li>Metrics ({@link #nextMetrics}): one resource, one scope per 8 metrics, 4 data points per
 *       metric (the last metric takes the remainder), the metrics cycling through int gauge,
 *       double gauge, cumulative monotonic int sum, delta monotonic double sum, cumulative
 *       histogram with min/max, delta histogram without, delta exponential histogram (negative
 *       buckets on every other point) and summary; point attributes on every point, an exemplar
 *       on about one point in 8 of sums and histograms.
 *   <li>Profiles ({@link #nextProfiles}), shaped like the OpenTelemetry eBPF profiler's export from
 *       one Kubernetes pod: a JVM service and, from 4 samples a record on, its Envoy sidecar, a
 *       resource each (service.name, host.name, k8s.* of the pod and container), one scope, one
 *       CPU profile each (sample type and period type cpu/nanoseconds, period 10 ms, the 5 seconds
 *       before {@code nowNanos}, a profile id, the process's executable and pid as attributes);
 *       the sidecar takes a quarter of the samples. A sample is one observation (one value, the
 *       period, and one timestamp in the profile's time) on a thread (thread.name and thread.id
 *       attributes) drawn by weight: request workers, a Kafka producer's I/O thread, G1 and C2
 *       threads in the JVM, workers and the main thread in Envoy; its stack one of the thread's
 *       call paths cut at a random depth ({@link ProfiledCode}: 5 to 20 locations, HotSpot, native
 *       and kernel frames, inline frames, mappings for libjvm.so, libc.so.6 and the envoy binary).
 *       Samples on request workers link to the span the thread serves, which changes now and then.
 *       One dictionary for the request ({@link DictionaryBuilder}). Samples of one stack, thread
 *       and link are not merged as a profiler would merge them, so that a record holds exactly
 *       {@code itemsPerRecord}.
 * </ul>
 */
public final class LoadShape {

    /** Data points per metric in {@link #nextMetrics}. */
    public static final int POINTS_PER_METRIC = 4;
    /** Metrics per scope in {@link #nextMetrics}: one of each kind. */
    public static final int METRICS_PER_SCOPE = 8;

    private static final double[] SECONDS_BOUNDS = {0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10};
    private static final double[] MILLIS_BOUNDS = {0, 5, 10, 25, 50, 75, 100, 250, 500, 750, 1000, 2500, 5000, 7500, 10000};
    private static final String[] METHODS = {"GET", "POST", "PUT", "DELETE"};
    private static final String[] THREAD_STATES = {"runnable", "waiting", "blocked", "timed_waiting"};
    private static final String[] CPU_MODES = {"user", "system", "idle", "iowait"};
    private static final String[] PAYMENT_METHODS = {"card", "paypal", "bank_transfer", "voucher"};
    private static final String[] RPC_METHODS = {"GetItem", "ListItems", "PutItem", "DeleteItem"};
    private static final double[] QUANTILES = {0, 0.5, 0.9, 0.99, 1};
    private static final long CUMULATIVE_START_NANOS = 600_000_000_000L;
    private static final long DELTA_INTERVAL_NANOS = 60_000_000_000L;
    /** The sampling period of {@link #nextProfiles}, and each sample's value: 10 ms of CPU. */
    public static final long PROFILE_PERIOD_NANOS = 10_000_000L;
    /** The time one profile of {@link #nextProfiles} covers, the eBPF profiler's reporting interval. */
    public static final long PROFILE_DURATION_NANOS = 5_000_000_000L;

    private final SplittableRandom random;
    private final int itemsPerRecord;

    /** A shape whose records carry {@code itemsPerRecord} items each. */
    public LoadShape(long seed, int itemsPerRecord) {
        if (itemsPerRecord < 1) {
            throw new IllegalArgumentException("items per record must be at least 1, not " + itemsPerRecord);
        }
        this.random = new SplittableRandom(seed);
        this.itemsPerRecord = itemsPerRecord;
    }

    /** Items (spans, log records, data points, samples) in every record. */
    public int itemsPerRecord() {
        return itemsPerRecord;
    }

    /** Same as {@link #itemsPerRecord()}, the traces name. */
    public int spansPerTrace() {
        return itemsPerRecord;
    }

    /** The next record of {@code signal}: {@link #next}, {@link #nextLogs}, {@link #nextMetrics} or {@link #nextProfiles}. */
    public Message next(Signal signal, long nowNanos) {
        switch (signal) {
            case TRACES:
                return next(nowNanos);
            case LOGS:
                return nextLogs(nowNanos);
            case METRICS:
                return nextMetrics(nowNanos);
            default:
                return nextProfiles(nowNanos);
        }
    }

    /** The next traces record: one trace, start times around {@code nowNanos}. */
    public ExportTraceServiceRequest next(long nowNanos) {
        int service = random.nextInt(10);
        Resource resource =
                Resource.newBuilder()
                        .addAttributes(str("service.name", "loadgen-service-" + service))
                        .addAttributes(str("host.name", "host-" + random.nextInt(50)))
                        .addAttributes(str("k8s.pod.name", "loadgen-" + service + "-" + Integer.toHexString(random.nextInt(1 << 20))))
                        .build();
        ScopeSpans.Builder scope =
                ScopeSpans.newBuilder()
                        .setScope(InstrumentationScope.newBuilder().setName("otel-loadgen").setVersion("0.1.0"));
        byte[] traceId = bytes(16);
        ByteString trace = ByteString.copyFrom(traceId);
        ByteString parent = ByteString.EMPTY;
        long start = nowNanos;
        for (int i = 0; i < itemsPerRecord; i++) {
            ByteString spanId = ByteString.copyFrom(bytes(8));
            long duration = 1_000 + random.nextInt(5_000_000);
            scope.addSpans(
                    Span.newBuilder()
                            .setTraceId(trace)
                            .setSpanId(spanId)
                            .setParentSpanId(parent)
                            .setName("loadgen-span-" + (i % 8))
                            .setKind(i == 0 ? Span.SpanKind.SPAN_KIND_SERVER : Span.SpanKind.SPAN_KIND_INTERNAL)
                            .setStartTimeUnixNano(start)
                            .setEndTimeUnixNano(start + duration)
                            .addAttributes(str("http.method", i % 2 == 0 ? "GET" : "POST"))
                            .addAttributes(str("http.route", "/api/v1/items/" + (i % 16)))
                            .addAttributes(integer("http.status_code", 200))
                            .addAttributes(integer("loadgen.span.index", i))
                            .addEvents(
                                    Span.Event.newBuilder()
                                            .setTimeUnixNano(start + duration / 2)
                                            .setName("loadgen-event")
                                            .addAttributes(integer("event.seq", i)))
                            .setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_OK)));
            parent = spanId;
            start += 1_000;
        }
        return ExportTraceServiceRequest.newBuilder()
                .addResourceSpans(ResourceSpans.newBuilder().setResource(resource).addScopeSpans(scope))
                .build();
    }

    /** The next logs record: {@code itemsPerRecord} log records observed from {@code nowNanos} on. */
    public ExportLogsServiceRequest nextLogs(long nowNanos) {
        ScopeLogs.Builder scope =
                ScopeLogs.newBuilder()
                        .setScope(InstrumentationScope.newBuilder().setName("io.tributary.loadgen").setVersion("0.1.0"));
        Resource resource = sdkResource();
        for (int i = 0; i < itemsPerRecord; i++) {
            long observed = nowNanos + i * 1_000L;
            int thread = random.nextInt(16);
            LogRecord.Builder r =
                    LogRecord.newBuilder()
                            .setTimeUnixNano(observed - random.nextInt(5_000_000))
                            .setObservedTimeUnixNano(observed)
                            .addAttributes(str("thread.name", "worker-" + thread))
                            .addAttributes(integer("thread.id", 20 + thread))
                            .addAttributes(str("code.function.name", "io.tributary.demo.ItemHandler.handle" + METHODS[i % 4]));
            int s = random.nextInt(20);
            SeverityNumber severity = s < 11 ? SeverityNumber.SEVERITY_NUMBER_INFO
                    : s < 15 ? SeverityNumber.SEVERITY_NUMBER_DEBUG
                    : s < 16 ? SeverityNumber.SEVERITY_NUMBER_TRACE
                    : s < 18 ? SeverityNumber.SEVERITY_NUMBER_WARN
                    : SeverityNumber.SEVERITY_NUMBER_ERROR;
            r.setSeverityNumber(severity).setSeverityText(severity.name().substring("SEVERITY_NUMBER_".length()));
            int item = random.nextInt(10_000);
            int millis = 1 + random.nextInt(900);
            switch (i % 20) {
                case 7:
                    r.setEventName("app.order.placed")
                            .setBody(AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder()
                                    .addValues(integer("order.id", item))
                                    .addValues(dbl("order.amount", (1 + random.nextInt(100_000)) / 100.0))
                                    .addValues(KeyValue.newBuilder().setKey("order.items").setValue(AnyValue.newBuilder()
                                            .setArrayValue(ArrayValue.newBuilder()
                                                    .addValues(AnyValue.newBuilder().setStringValue("item-" + item))
                                                    .addValues(AnyValue.newBuilder().setStringValue("item-" + (item + 1))))))
                                    .addValues(KeyValue.newBuilder().setKey("order.gift").setValue(AnyValue.newBuilder().setBoolValue(i % 3 == 0)))
                                    .addValues(KeyValue.newBuilder().setKey("order.checksum")
                                            .setValue(AnyValue.newBuilder().setBytesValue(ByteString.copyFrom(bytes(8)))))));
                    break;
                case 13:
                    r.setBody(AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder()
                            .addValues(AnyValue.newBuilder().setStringValue("batch flushed"))
                            .addValues(AnyValue.newBuilder().setIntValue(item))
                            .addValues(AnyValue.newBuilder().setDoubleValue(millis / 7.0))
                            .addValues(AnyValue.newBuilder().setBoolValue(true))));
                    break;
                default:
                    r.setBody(AnyValue.newBuilder().setStringValue(message(severity, i, item, millis)));
                    break;
            }
            if (i % 10 == 3) {
                r.setEventName("app.cache.evicted");
            }
            if (i % 3 == 0) {
                r.addAttributes(integer("http.response.status_code", severity == SeverityNumber.SEVERITY_NUMBER_ERROR ? 503 : 200));
            }
            if (i % 4 == 1) {
                r.addAttributes(dbl("duration_ms", millis / 4.0))
                        .addAttributes(KeyValue.newBuilder().setKey("cache.hit").setValue(AnyValue.newBuilder().setBoolValue(millis % 2 == 0)));
            }
            if (severity == SeverityNumber.SEVERITY_NUMBER_ERROR) {
                r.addAttributes(str("exception.type", "java.net.SocketTimeoutException"))
                        .addAttributes(str("exception.message", "Read timed out after " + millis + " ms"))
                        .addAttributes(str("exception.stacktrace", "java.net.SocketTimeoutException: Read timed out\n"
                                + "\tat java.base/java.net.SocketInputStream.read(SocketInputStream.java:168)\n"
                                + "\tat io.tributary.demo.InventoryClient.reserve(InventoryClient.java:" + (40 + i % 60) + ")"));
            }
            if (random.nextBoolean()) {
                r.setTraceId(ByteString.copyFrom(bytes(16))).setSpanId(ByteString.copyFrom(bytes(8))).setFlags(1);
            }
            scope.addLogRecords(r);
        }
        return ExportLogsServiceRequest.newBuilder()
                .addResourceLogs(ResourceLogs.newBuilder().setResource(resource).addScopeLogs(scope))
                .build();
    }

    private static String message(SeverityNumber severity, int i, int item, int millis) {
        switch (severity) {
            case SEVERITY_NUMBER_ERROR:
                return "failed to reserve item " + item + ": inventory-service did not answer within " + millis + " ms";
            case SEVERITY_NUMBER_WARN:
                return "retrying request to inventory-service (attempt " + (2 + i % 2) + " of 3)";
            case SEVERITY_NUMBER_DEBUG:
                return "cache miss for key \"item:" + item + "\"";
            case SEVERITY_NUMBER_TRACE:
                return "entering ItemHandler.handle" + METHODS[i % 4];
            default:
                return METHODS[i % 4] + " /api/v1/items/" + item + " 200 in " + millis + " ms";
        }
    }

    /**
     * The next metrics record: {@code itemsPerRecord} data points at {@code nowNanos}, cumulative
     * ones counted from ten minutes earlier, delta ones over the last minute.
     */
    public ExportMetricsServiceRequest nextMetrics(long nowNanos) {
        ResourceMetrics.Builder rm = ResourceMetrics.newBuilder().setResource(sdkResource());
        ScopeMetrics.Builder scope = null;
        int left = itemsPerRecord;
        for (int m = 0; left > 0; m++) {
            if (m % METRICS_PER_SCOPE == 0) {
                if (scope != null) {
                    rm.addScopeMetrics(scope);
                }
                scope = ScopeMetrics.newBuilder().setScope(InstrumentationScope.newBuilder()
                        .setName("io.tributary.loadgen.metrics-" + m / METRICS_PER_SCOPE).setVersion("0.1.0"));
            }
            int points = Math.min(POINTS_PER_METRIC, left);
            left -= points;
            scope.addMetrics(metric(m % METRICS_PER_SCOPE, points, nowNanos));
        }
        rm.addScopeMetrics(scope);
        return ExportMetricsServiceRequest.newBuilder().addResourceMetrics(rm).build();
    }

    private Metric metric(int kind, int points, long now) {
        long cumulativeStart = now - CUMULATIVE_START_NANOS;
        long deltaStart = now - DELTA_INTERVAL_NANOS;
        Metric.Builder m = Metric.newBuilder();
        switch (kind) {
            case 0: {
                Gauge.Builder g = Gauge.newBuilder();
                for (int p = 0; p < points; p++) {
                    // a blocked count is often 0: an int point whose value is the default
                    g.addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(now)
                            .addAttributes(str("thread.state", THREAD_STATES[p]))
                            .setAsInt(p == 2 ? random.nextInt(3) : random.nextInt(200)));
                }
                return m.setName("process.thread.count").setDescription("Threads by state").setUnit("{thread}").setGauge(g).build();
            }
            case 1: {
                Gauge.Builder g = Gauge.newBuilder();
                for (int p = 0; p < points; p++) {
                    g.addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(now)
                            .addAttributes(str("cpu.mode", CPU_MODES[p]))
                            .addAttributes(integer("cpu.logical_number", p % 2))
                            .setAsDouble(random.nextDouble()));
                }
                return m.setName("system.cpu.utilization").setDescription("CPU time share by mode").setUnit("1").setGauge(g).build();
            }
            case 2: {
                Sum.Builder s = Sum.newBuilder()
                        .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE)
                        .setIsMonotonic(true);
                for (int p = 0; p < points; p++) {
                    NumberDataPoint.Builder d = NumberDataPoint.newBuilder().setStartTimeUnixNano(cumulativeStart).setTimeUnixNano(now)
                            .addAttributes(str("http.request.method", METHODS[p]))
                            .addAttributes(integer("http.response.status_code", p == 3 ? 404 : 200))
                            .setAsInt(1_000 + random.nextInt(1_000_000));
                    if (random.nextInt(8) == 0) {
                        d.addExemplars(exemplar(now).setAsInt(1));
                    }
                    s.addDataPoints(d);
                }
                return m.setName("http.server.request.count").setDescription("Requests served").setUnit("{request}").setSum(s).build();
            }
            case 3: {
                Sum.Builder s = Sum.newBuilder()
                        .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA)
                        .setIsMonotonic(true);
                for (int p = 0; p < points; p++) {
                    NumberDataPoint.Builder d = NumberDataPoint.newBuilder().setStartTimeUnixNano(deltaStart).setTimeUnixNano(now)
                            .addAttributes(str("payment.method", PAYMENT_METHODS[p]))
                            .setAsDouble(random.nextInt(10_000_000) / 100.0);
                    if (random.nextInt(8) == 0) {
                        d.addExemplars(exemplar(now).setAsDouble((1 + random.nextInt(50_000)) / 100.0));
                    }
                    s.addDataPoints(d);
                }
                return m.setName("app.payment.amount").setDescription("Payments taken").setUnit("USD").setSum(s).build();
            }
            case 4: {
                Histogram.Builder h = Histogram.newBuilder()
                        .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE);
                for (int p = 0; p < points; p++) {
                    HistogramDataPoint.Builder d = histogramPoint(SECONDS_BOUNDS, 400, true)
                            .setStartTimeUnixNano(cumulativeStart).setTimeUnixNano(now)
                            .addAttributes(str("http.request.method", METHODS[p]))
                            .addAttributes(str("http.route", "/api/v1/items/{id}"));
                    if (random.nextInt(8) == 0) {
                        d.addExemplars(exemplar(now).setAsDouble(random.nextDouble() / 4));
                    }
                    h.addDataPoints(d);
                }
                return m.setName("http.server.request.duration").setDescription("Duration of HTTP server requests")
                        .setUnit("s").setHistogram(h).build();
            }
            case 5: {
                Histogram.Builder h = Histogram.newBuilder()
                        .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA);
                for (int p = 0; p < points; p++) {
                    HistogramDataPoint.Builder d = histogramPoint(MILLIS_BOUNDS, 60, false)
                            .setStartTimeUnixNano(deltaStart).setTimeUnixNano(now)
                            .addAttributes(str("rpc.service", "ItemService"))
                            .addAttributes(str("rpc.method", RPC_METHODS[p]));
                    if (random.nextInt(8) == 0) {
                        d.addExemplars(exemplar(now).setAsDouble(random.nextInt(100_000) / 100.0));
                    }
                    h.addDataPoints(d);
                }
                return m.setName("rpc.server.duration").setDescription("Duration of RPCs served").setUnit("ms").setHistogram(h).build();
            }
            case 6: {
                ExponentialHistogram.Builder h = ExponentialHistogram.newBuilder()
                        .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA);
                for (int p = 0; p < points; p++) {
                    ExponentialHistogramDataPoint.Builder d = exponentialPoint(p % 2 == 1)
                            .setStartTimeUnixNano(deltaStart).setTimeUnixNano(now)
                            .addAttributes(str("peer.zone", "zone-" + (char) ('a' + p)));
                    if (random.nextInt(8) == 0) {
                        d.addExemplars(exemplar(now).setAsDouble(random.nextInt(2_000) / 100.0));
                    }
                    h.addDataPoints(d);
                }
                return m.setName("app.clock.skew").setDescription("Clock offset to peers").setUnit("ms")
                        .setExponentialHistogram(h).build();
            }
            default: {
                Summary.Builder s = Summary.newBuilder();
                for (int p = 0; p < points; p++) {
                    SummaryDataPoint.Builder d = SummaryDataPoint.newBuilder().setStartTimeUnixNano(cumulativeStart).setTimeUnixNano(now)
                            .addAttributes(str("rpc.method", RPC_METHODS[p]));
                    long count = 1 + random.nextInt(5_000);
                    double v = (1 + random.nextInt(1_000)) / 100_000.0;
                    double median = v;
                    for (double q : QUANTILES) {
                        v += random.nextInt(1_000) / 10_000.0;
                        if (q == 0.5) {
                            median = v;
                        }
                        d.addQuantileValues(SummaryDataPoint.ValueAtQuantile.newBuilder().setQuantile(q).setValue(v));
                    }
                    s.addDataPoints(d.setCount(count).setSum(count * median));
                }
                return m.setName("rpc.server.latency").setDescription("Latency of RPCs served (legacy summary)").setUnit("s")
                        .setSummary(s).build();
            }
        }
    }

    /** Bucket counts mostly in the lower buckets; sum, min and max consistent with them. */
    private HistogramDataPoint.Builder histogramPoint(double[] bounds, int scale, boolean minMax) {
        HistogramDataPoint.Builder d = HistogramDataPoint.newBuilder();
        long count = 0;
        double sum = 0;
        int first = -1;
        int last = -1;
        for (int b = 0; b <= bounds.length; b++) {
            int c = random.nextInt(b < bounds.length / 2 ? scale : scale / 20 + 1);
            d.addBucketCounts(c);
            if (c > 0) {
                count += c;
                sum += c * (lower(bounds, b) + upper(bounds, b)) / 2;
                first = first < 0 ? b : first;
                last = b;
            }
        }
        for (double bound : bounds) {
            d.addExplicitBounds(bound);
        }
        d.setCount(count).setSum(sum);
        if (minMax && count > 0) {
            d.setMin(lower(bounds, first) + (upper(bounds, first) - lower(bounds, first)) / 10)
                    .setMax(upper(bounds, last) - (upper(bounds, last) - lower(bounds, last)) / 10);
        }
        return d;
    }

    private static double lower(double[] bounds, int bucket) {
        return bucket == 0 ? Math.min(0, bounds[0]) : bounds[bucket - 1];
    }

    private static double upper(double[] bounds, int bucket) {
        return bucket < bounds.length ? bounds[bucket] : 2 * bounds[bounds.length - 1];
    }

    /** Scale 2 to 5, a zero bucket, positive buckets, negative ones when {@code negative}. */
    private ExponentialHistogramDataPoint.Builder exponentialPoint(boolean negative) {
        int scale = 2 + random.nextInt(4);
        double base = Math.pow(2, Math.pow(2, -scale));
        ExponentialHistogramDataPoint.Buckets.Builder pos = ExponentialHistogramDataPoint.Buckets.newBuilder()
                .setOffset(random.nextInt(4 << scale) - (1 << scale));
        ExponentialHistogramDataPoint.Buckets.Builder neg = ExponentialHistogramDataPoint.Buckets.newBuilder();
        long zero = random.nextInt(3);
        long count = zero;
        double sum = 0;
        int n = 1 + random.nextInt(12);
        for (int k = 0; k < n; k++) {
            long c = random.nextInt(20) + (k == 0 ? 1 : 0);
            pos.addBucketCounts(c);
            count += c;
            sum += c * Math.pow(base, pos.getOffset() + k + 0.5);
        }
        double max = Math.pow(base, pos.getOffset() + n);
        double min = zero > 0 ? 0 : Math.pow(base, pos.getOffset());
        if (negative) {
            neg.setOffset(random.nextInt(2 << scale));
            int nn = 1 + random.nextInt(6);
            for (int k = 0; k < nn; k++) {
                long c = random.nextInt(10) + (k == nn - 1 ? 1 : 0);
                neg.addBucketCounts(c);
                count += c;
                sum -= c * Math.pow(base, neg.getOffset() + k + 0.5);
            }
            min = -Math.pow(base, neg.getOffset() + nn);
        }
        return ExponentialHistogramDataPoint.newBuilder()
                .setCount(count).setSum(sum).setScale(scale).setZeroCount(zero)
                .setPositive(pos).setNegative(neg)
                .setMin(min).setMax(max);
    }

    private Exemplar.Builder exemplar(long now) {
        Exemplar.Builder e = Exemplar.newBuilder()
                .setTimeUnixNano(now - random.nextInt(1_000_000_000))
                .setTraceId(ByteString.copyFrom(bytes(16)))
                .setSpanId(ByteString.copyFrom(bytes(8)));
        if (random.nextBoolean()) {
            e.addFilteredAttributes(str("user.id", "user-" + random.nextInt(1_000)));
        }
        return e;
    }

    /** The next profiles record: {@code itemsPerRecord} samples of the 5 seconds before {@code nowNanos}. */
    public ExportProfilesServiceRequest nextProfiles(long nowNanos) {
        DictionaryBuilder dict = new DictionaryBuilder();
        int service = random.nextInt(10);
        String node = "node-" + random.nextInt(50);
        String pod = "loadgen-service-" + service + "-" + Integer.toHexString(random.nextInt(1 << 20));
        String podUid = uuid(bytes(16));
        int sidecar = itemsPerRecord / 4;
        ExportProfilesServiceRequest.Builder r = ExportProfilesServiceRequest.newBuilder()
                .addResourceProfiles(processProfiles(dict, podResource(service, node, pod, podUid, "app"), ProfiledCode.JVM,
                        itemsPerRecord - sidecar, "java", "/usr/lib/jvm/java-21-openjdk-amd64/bin/java", nowNanos));
        if (sidecar > 0) {
            r.addResourceProfiles(processProfiles(dict, podResource(service, node, pod, podUid, "istio-proxy"), ProfiledCode.ENVOY,
                    sidecar, "envoy", "/usr/local/bin/envoy", nowNanos));
        }
        return r.setDictionary(dict.build()).build();
    }

    private static Resource podResource(int service, String node, String pod, String podUid, String container) {
        return Resource.newBuilder()
                .addAttributes(str("service.name", "loadgen-service-" + service))
                .addAttributes(str("host.name", node))
                .addAttributes(str("k8s.cluster.name", "loadgen"))
                .addAttributes(str("k8s.namespace.name", "shop"))
                .addAttributes(str("k8s.node.name", node))
                .addAttributes(str("k8s.deployment.name", "loadgen-service-" + service))
                .addAttributes(str("k8s.pod.name", pod))
                .addAttributes(str("k8s.pod.uid", podUid))
                .addAttributes(str("k8s.container.name", container))
                .build();
    }

    /** One process's CPU profile of {@code samples} samples on {@code threads}. */
    private ResourceProfiles processProfiles(DictionaryBuilder dict, Resource resource, ThreadKind[] threads, int samples,
            String executable, String path, long nowNanos) {
        DictionaryBuilder.AddressSpace process = dict.addressSpace(random);
        int pid = 1_000 + random.nextInt(4_000_000);
        long start = nowNanos - PROFILE_DURATION_NANOS;
        ValueType cpu = ValueType.newBuilder().setTypeStrindex(dict.string("cpu")).setUnitStrindex(dict.string("nanoseconds")).build();
        Profile.Builder p = Profile.newBuilder()
                .setSampleType(cpu)
                .setTimeUnixNano(start)
                .setDurationNano(PROFILE_DURATION_NANOS)
                .setPeriodType(cpu)
                .setPeriod(PROFILE_PERIOD_NANOS)
                .setProfileId(ByteString.copyFrom(bytes(16)))
                .addAttributeIndices(dict.attribute("process.executable.name", executable))
                .addAttributeIndices(dict.attribute("process.executable.path", path))
                .addAttributeIndices(dict.attribute("process.pid", pid));
        int weights = 0;
        for (ThreadKind k : threads) {
            weights += k.weight();
        }
        Map<String, Integer> servingLink = new HashMap<>();
        for (int i = 0; i < samples; i++) {
            int w = random.nextInt(weights);
            int kind = 0;
            while (w >= threads[kind].weight()) {
                w -= threads[kind].weight();
                kind++;
            }
            ThreadKind k = threads[kind];
            int t = random.nextInt(k.names().length);
            String thread = k.names()[t];
            Call[] calls = k.paths()[random.nextInt(k.paths().length)];
            int depth = k.base() + 1 + random.nextInt(calls.length - k.base());
            Sample.Builder s = Sample.newBuilder()
                    .setStackIndex(process.stack(calls, depth))
                    .addAttributeIndices(dict.attribute("thread.name", thread))
                    .addAttributeIndices(dict.attribute("thread.id", pid + 16 * kind + t + 1))
                    .addValues(PROFILE_PERIOD_NANOS)
                    .addTimestampsUnixNano(start + random.nextLong(PROFILE_DURATION_NANOS));
            if (k.traced()) {
                // the span the thread serves; now and then the next request's
                Integer link = servingLink.get(thread);
                if (link == null || random.nextInt(8) == 0) {
                    link = dict.link(bytes(16), bytes(8));
                    servingLink.put(thread, link);
                }
                s.setLinkIndex(link);
            }
            p.addSamples(s);
        }
        return ResourceProfiles.newBuilder()
                .setResource(resource)
                .addScopeProfiles(ScopeProfiles.newBuilder()
                        .setScope(InstrumentationScope.newBuilder().setName("io.tributary.loadgen").setVersion("0.1.0"))
                        .addProfiles(p))
                .build();
    }

    private static String uuid(byte[] b) {
        String h = HexFormat.of().formatHex(b);
        return h.substring(0, 8) + "-" + h.substring(8, 12) + "-" + h.substring(12, 16) + "-" + h.substring(16, 20) + "-" + h.substring(20);
    }

    private Resource sdkResource() {
        int service = random.nextInt(10);
        return Resource.newBuilder()
                .addAttributes(str("service.name", "loadgen-service-" + service))
                .addAttributes(str("service.version", "1." + service % 3 + ".0"))
                .addAttributes(str("host.name", "host-" + random.nextInt(50)))
                .addAttributes(str("k8s.pod.name", "loadgen-" + service + "-" + Integer.toHexString(random.nextInt(1 << 20))))
                .addAttributes(str("telemetry.sdk.name", "opentelemetry"))
                .addAttributes(str("telemetry.sdk.language", "java"))
                .addAttributes(str("telemetry.sdk.version", "1.49.0"))
                .build();
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i += 8) {
            long v = random.nextLong();
            for (int j = 0; j < 8 && i + j < n; j++) {
                b[i + j] = (byte) (v >>> (8 * j));
            }
        }
        b[0] |= 1; // never all zero
        return b;
    }

    private static KeyValue str(String k, String v) {
        return KeyValue.newBuilder().setKey(k).setValue(AnyValue.newBuilder().setStringValue(v)).build();
    }

    private static KeyValue integer(String k, long v) {
        return KeyValue.newBuilder().setKey(k).setValue(AnyValue.newBuilder().setIntValue(v)).build();
    }

    private static KeyValue dbl(String k, double v) {
        return KeyValue.newBuilder().setKey(k).setValue(AnyValue.newBuilder().setDoubleValue(v)).build();
    }
}
