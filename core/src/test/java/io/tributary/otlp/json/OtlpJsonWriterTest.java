package io.tributary.otlp.json;

import io.tributary.otlp.json.OtlpJsonWriter;

import static io.tributary.testing.Otlp.i;
import static io.tributary.testing.Otlp.kv;
import static io.tributary.testing.Otlp.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
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
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * Exact OTLP/JSON as the Collector's {@code otlp_json} marshaler writes it: the expected strings
 * follow pdata's generated {@code MarshalJSON} methods (field order and the conditions under which
 * each field is written) and its json.Stream (numbers, strings, hex ids).
 */
class OtlpJsonWriterTest {

    private static final String TRACE_ID = "5b8efff798038103d269b633813fc60c";
    private static final String SPAN_ID = "eee19b7ec3c1b174";
    private static final long NOW = 1_700_000_000_000_000_000L;

    private static String json(Message m) {
        return new String(OtlpJsonWriter.write(m), StandardCharsets.UTF_8);
    }

    private static ByteString hex(String s) {
        return ByteString.copyFrom(HexFormat.of().parseHex(s));
    }

    private static String dbl(double d) {
        return json(AnyValue.newBuilder().setDoubleValue(d).build());
    }

    @Test
    void span() {
        ExportTraceServiceRequest req = ExportTraceServiceRequest.newBuilder()
                .addResourceSpans(ResourceSpans.newBuilder()
                        .setResource(Resource.newBuilder().addAttributes(kv("service.name", str("checkout"))))
                        .addScopeSpans(ScopeSpans.newBuilder()
                                .setScope(InstrumentationScope.newBuilder().setName("io.example").setVersion("1.2.0"))
                                .addSpans(Span.newBuilder()
                                        .setTraceId(hex(TRACE_ID))
                                        .setSpanId(hex(SPAN_ID))
                                        .setTraceState("vendor=a")
                                        .setParentSpanId(hex("eee19b7ec3c1b173"))
                                        .setFlags(257)
                                        .setName("GET /items")
                                        .setKind(Span.SpanKind.SPAN_KIND_SERVER)
                                        .setStartTimeUnixNano(1544712660000000000L)
                                        .setEndTimeUnixNano(1544712661000000000L)
                                        .addAttributes(kv("http.request.method", str("GET")))
                                        .addAttributes(kv("http.response.status_code", i(200)))
                                        .setDroppedAttributesCount(2)
                                        .addEvents(Span.Event.newBuilder().setTimeUnixNano(1544712660500000000L).setName("retry")
                                                .addAttributes(KeyValue.newBuilder().setKey("retry.last")
                                                        .setValue(AnyValue.newBuilder().setBoolValue(false))))
                                        .addLinks(Span.Link.newBuilder().setTraceId(hex("00000000000000000000000000000001"))
                                                .setSpanId(hex("0000000000000002")).setFlags(256))
                                        .setStatus(Status.newBuilder().setMessage("upstream timeout")
                                                .setCode(Status.StatusCode.STATUS_CODE_ERROR)))
                                .setSchemaUrl("https://opentelemetry.io/schemas/1.26.0")))
                .build();
        assertThat(json(req)).isEqualTo("{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"checkout\"}}]},"
                + "\"scopeSpans\":[{\"scope\":{\"name\":\"io.example\",\"version\":\"1.2.0\"},\"spans\":[{"
                + "\"traceId\":\"5b8efff798038103d269b633813fc60c\",\"spanId\":\"eee19b7ec3c1b174\",\"traceState\":\"vendor=a\","
                + "\"parentSpanId\":\"eee19b7ec3c1b173\",\"flags\":257,\"name\":\"GET /items\",\"kind\":2,"
                + "\"startTimeUnixNano\":\"1544712660000000000\",\"endTimeUnixNano\":\"1544712661000000000\","
                + "\"attributes\":[{\"key\":\"http.request.method\",\"value\":{\"stringValue\":\"GET\"}},"
                + "{\"key\":\"http.response.status_code\",\"value\":{\"intValue\":\"200\"}}],\"droppedAttributesCount\":2,"
                + "\"events\":[{\"timeUnixNano\":\"1544712660500000000\",\"name\":\"retry\",\"attributes\":[{\"key\":\"retry.last\",\"value\":{\"boolValue\":false}}]}],"
                + "\"links\":[{\"traceId\":\"00000000000000000000000000000001\",\"spanId\":\"0000000000000002\",\"flags\":256}],"
                + "\"status\":{\"message\":\"upstream timeout\",\"code\":2}}],"
                + "\"schemaUrl\":\"https://opentelemetry.io/schemas/1.26.0\"}]}]}");
    }

    /** pdata holds resource, scope, status, value, body, positive and negative by value: always written. */
    @Test
    void emptyMessagesAndUnsetNonOneofMessageFields() {
        assertThat(json(ExportTraceServiceRequest.getDefaultInstance())).isEqualTo("{}");
        ExportTraceServiceRequest req = ExportTraceServiceRequest.newBuilder()
                .addResourceSpans(ResourceSpans.newBuilder().addScopeSpans(ScopeSpans.newBuilder().addSpans(Span.getDefaultInstance())))
                .build();
        assertThat(json(req)).isEqualTo("{\"resourceSpans\":[{\"resource\":{},\"scopeSpans\":[{\"scope\":{},\"spans\":[{\"status\":{}}]}]}]}");
        assertThat(json(KeyValue.newBuilder().setKey("k").build())).isEqualTo("{\"key\":\"k\",\"value\":{}}");
        assertThat(json(LogRecord.getDefaultInstance())).isEqualTo("{\"body\":{}}");
        assertThat(json(ExponentialHistogramDataPoint.getDefaultInstance())).isEqualTo("{\"positive\":{},\"negative\":{}}");
        assertThat(json(Metric.newBuilder().setName("m").build())).isEqualTo("{\"name\":\"m\"}");
    }

    /** A oneof member is written whenever it is set, also to its default. */
    @Test
    void anyValues() {
        assertThat(json(AnyValue.getDefaultInstance())).isEqualTo("{}");
        assertThat(json(AnyValue.newBuilder().setStringValue("").build())).isEqualTo("{\"stringValue\":\"\"}");
        assertThat(json(AnyValue.newBuilder().setBoolValue(false).build())).isEqualTo("{\"boolValue\":false}");
        assertThat(json(AnyValue.newBuilder().setIntValue(0).build())).isEqualTo("{\"intValue\":\"0\"}");
        assertThat(json(AnyValue.newBuilder().setDoubleValue(0).build())).isEqualTo("{\"doubleValue\":0}");
        assertThat(json(AnyValue.newBuilder().setBytesValue(ByteString.EMPTY).build())).isEqualTo("{\"bytesValue\":\"\"}");
        assertThat(json(AnyValue.newBuilder().setBytesValue(hex("0102ff")).build())).isEqualTo("{\"bytesValue\":\"AQL/\"}");
        assertThat(json(AnyValue.newBuilder().setArrayValue(ArrayValue.getDefaultInstance()).build())).isEqualTo("{\"arrayValue\":{}}");
        AnyValue nested = AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder()
                .addValues(KeyValue.newBuilder().setKey("k").setValue(AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder()
                        .addValues(AnyValue.newBuilder().setIntValue(Long.MIN_VALUE))
                        .addValues(AnyValue.newBuilder().setDoubleValue(1.5))))))
                .build();
        assertThat(json(nested)).isEqualTo("{\"kvlistValue\":{\"values\":[{\"key\":\"k\",\"value\":{\"arrayValue\":{\"values\":"
                + "[{\"intValue\":\"-9223372036854775808\"},{\"doubleValue\":1.5}]}}}]}}");
    }

    /** Go's strconv shortest form, plain between 1e-6 and 1e21, ES6-style exponents outside. */
    @Test
    void doubles() {
        assertThat(dbl(0.1)).isEqualTo("{\"doubleValue\":0.1}");
        assertThat(dbl(100)).isEqualTo("{\"doubleValue\":100}");
        assertThat(dbl(-2.5)).isEqualTo("{\"doubleValue\":-2.5}");
        assertThat(dbl(-0.0)).isEqualTo("{\"doubleValue\":-0}");
        assertThat(dbl(1e20)).isEqualTo("{\"doubleValue\":100000000000000000000}");
        assertThat(dbl(1e21)).isEqualTo("{\"doubleValue\":1e+21}");
        assertThat(dbl(0.000001)).isEqualTo("{\"doubleValue\":0.000001}");
        assertThat(dbl(1e-7)).isEqualTo("{\"doubleValue\":1e-7}");
        assertThat(dbl(1.5e-10)).isEqualTo("{\"doubleValue\":1.5e-10}");
        assertThat(dbl(Double.MAX_VALUE)).isEqualTo("{\"doubleValue\":1.7976931348623157e+308}");
        assertThat(dbl(Double.MIN_VALUE)).isEqualTo("{\"doubleValue\":5e-324}");
        assertThat(dbl(Double.NaN)).isEqualTo("{\"doubleValue\":\"NaN\"}");
        assertThat(dbl(Double.POSITIVE_INFINITY)).isEqualTo("{\"doubleValue\":\"Infinity\"}");
        assertThat(dbl(Double.NEGATIVE_INFINITY)).isEqualTo("{\"doubleValue\":\"-Infinity\"}");
    }

    @Test
    void integersAndEnums() {
        // fixed64 unsigned; fixed32/uint32 unsigned numbers; sint32 signed numbers
        HistogramDataPoint h = HistogramDataPoint.newBuilder().setCount(-1L).setFlags(-1).addBucketCounts(-1L).build();
        assertThat(json(h)).isEqualTo("{\"count\":\"18446744073709551615\",\"bucketCounts\":[\"18446744073709551615\"],\"flags\":4294967295}");
        ExponentialHistogramDataPoint e = ExponentialHistogramDataPoint.newBuilder().setScale(-3)
                .setPositive(ExponentialHistogramDataPoint.Buckets.newBuilder().setOffset(-5)).build();
        assertThat(json(e)).isEqualTo("{\"scale\":-3,\"positive\":{\"offset\":-5},\"negative\":{}}");
        // sfixed64 signed
        assertThat(json(NumberDataPoint.newBuilder().setAsInt(-1).build())).isEqualTo("{\"asInt\":\"-1\"}");
        // an enum number the proto does not know is kept as a number
        assertThat(json(Span.newBuilder().setKindValue(42).build())).isEqualTo("{\"kind\":42,\"status\":{}}");
    }

    /** json-iterator's escaping: quote, backslash, \n \r \t, other controls as \\u00xx; nothing else. */
    @Test
    void strings() {
        String s = "q\"b\\s\n\r\t\b\f\u0001\u001f\u007f/<>&é€😀";
        assertThat(json(AnyValue.newBuilder().setStringValue(s).build()))
                .isEqualTo("{\"stringValue\":\"q\\\"b\\\\s\\n\\r\\t\\u0008\\u000c\\u0001\\u001f\u007f/<>&é€😀\"}");
        // a lone surrogate is what protobuf encodes it as, '?'
        assertThat(json(AnyValue.newBuilder().setStringValue("a\ud800b").build())).isEqualTo("{\"stringValue\":\"a?b\"}");
    }

    @Test
    void logRecord() {
        LogRecord r = LogRecord.newBuilder()
                .setTimeUnixNano(NOW)
                .setObservedTimeUnixNano(NOW + 1000)
                .setSeverityNumber(SeverityNumber.SEVERITY_NUMBER_ERROR)
                .setSeverityText("ERROR")
                .setBody(AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder()
                        .addValues(kv("event", str("order.failed"))).addValues(kv("order.id", i(42)))))
                .addAttributes(kv("exception.type", str("java.io.IOException")))
                .setDroppedAttributesCount(1)
                .setFlags(1)
                .setTraceId(hex(TRACE_ID))
                .setSpanId(hex(SPAN_ID))
                .setEventName("app.order.failed")
                .build();
        String record = "{\"timeUnixNano\":\"1700000000000000000\",\"observedTimeUnixNano\":\"1700000000000001000\","
                + "\"severityNumber\":17,\"severityText\":\"ERROR\",\"body\":{\"kvlistValue\":{\"values\":["
                + "{\"key\":\"event\",\"value\":{\"stringValue\":\"order.failed\"}},{\"key\":\"order.id\",\"value\":{\"intValue\":\"42\"}}]}},"
                + "\"attributes\":[{\"key\":\"exception.type\",\"value\":{\"stringValue\":\"java.io.IOException\"}}],"
                + "\"droppedAttributesCount\":1,\"flags\":1,\"traceId\":\"5b8efff798038103d269b633813fc60c\","
                + "\"spanId\":\"eee19b7ec3c1b174\",\"eventName\":\"app.order.failed\"}";
        assertThat(json(r)).isEqualTo(record);

        ExportLogsServiceRequest req = ExportLogsServiceRequest.newBuilder()
                .addResourceLogs(ResourceLogs.newBuilder()
                        .setResource(Resource.newBuilder().addAttributes(kv("service.name", str("checkout"))))
                        .addScopeLogs(ScopeLogs.newBuilder()
                                .setScope(InstrumentationScope.newBuilder().setName("io.example").setVersion("1.2.0"))
                                .addLogRecords(r)
                                .addLogRecords(LogRecord.newBuilder().setObservedTimeUnixNano(5)
                                        .setBody(AnyValue.newBuilder().setStringValue("plain")))))
                .build();
        assertThat(json(req)).isEqualTo("{\"resourceLogs\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"checkout\"}}]},"
                + "\"scopeLogs\":[{\"scope\":{\"name\":\"io.example\",\"version\":\"1.2.0\"},\"logRecords\":["
                + record + ",{\"observedTimeUnixNano\":\"5\",\"body\":{\"stringValue\":\"plain\"}}]}]}]}");
    }

    @Test
    void intGauge() {
        Metric m = Metric.newBuilder().setName("process.thread.count").setDescription("Threads").setUnit("{thread}")
                .setGauge(Gauge.newBuilder()
                        .addDataPoints(NumberDataPoint.newBuilder().addAttributes(kv("thread.state", str("blocked")))
                                .setTimeUnixNano(NOW).setAsInt(0))
                        .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(NOW).setAsInt(12)))
                .build();
        assertThat(json(m)).isEqualTo("{\"name\":\"process.thread.count\",\"description\":\"Threads\",\"unit\":\"{thread}\","
                + "\"gauge\":{\"dataPoints\":[{\"attributes\":[{\"key\":\"thread.state\",\"value\":{\"stringValue\":\"blocked\"}}],"
                + "\"timeUnixNano\":\"1700000000000000000\",\"asInt\":\"0\"},{\"timeUnixNano\":\"1700000000000000000\",\"asInt\":\"12\"}]}}");
    }

    @Test
    void doubleGauge() {
        Metric m = Metric.newBuilder().setName("system.cpu.utilization").setUnit("1")
                .setGauge(Gauge.newBuilder()
                        .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(NOW).setAsDouble(0.25))
                        .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(NOW).setAsDouble(0).setFlags(1)))
                .build();
        assertThat(json(m)).isEqualTo("{\"name\":\"system.cpu.utilization\",\"unit\":\"1\",\"gauge\":{\"dataPoints\":["
                + "{\"timeUnixNano\":\"1700000000000000000\",\"asDouble\":0.25},"
                + "{\"timeUnixNano\":\"1700000000000000000\",\"asDouble\":0,\"flags\":1}]}}");
    }

    /** Exemplar declares span_id before trace_id; the Collector writes traceId first. */
    @Test
    void cumulativeMonotonicSumWithExemplar() {
        Metric m = Metric.newBuilder().setName("http.server.request.count").setUnit("{request}")
                .setSum(Sum.newBuilder()
                        .addDataPoints(NumberDataPoint.newBuilder().addAttributes(kv("http.request.method", str("GET")))
                                .setStartTimeUnixNano(NOW - 600_000_000_000L).setTimeUnixNano(NOW).setAsInt(1234)
                                .addExemplars(Exemplar.newBuilder().addFilteredAttributes(kv("user.id", str("u-1")))
                                        .setTimeUnixNano(NOW - 1_000_000_000L).setAsInt(1)
                                        .setSpanId(hex(SPAN_ID)).setTraceId(hex(TRACE_ID))))
                        .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE)
                        .setIsMonotonic(true))
                .build();
        assertThat(json(m)).isEqualTo("{\"name\":\"http.server.request.count\",\"unit\":\"{request}\",\"sum\":{\"dataPoints\":["
                + "{\"attributes\":[{\"key\":\"http.request.method\",\"value\":{\"stringValue\":\"GET\"}}],"
                + "\"startTimeUnixNano\":\"1699999400000000000\",\"timeUnixNano\":\"1700000000000000000\",\"asInt\":\"1234\","
                + "\"exemplars\":[{\"filteredAttributes\":[{\"key\":\"user.id\",\"value\":{\"stringValue\":\"u-1\"}}],"
                + "\"timeUnixNano\":\"1699999999000000000\",\"asInt\":\"1\",\"traceId\":\"5b8efff798038103d269b633813fc60c\","
                + "\"spanId\":\"eee19b7ec3c1b174\"}]}],\"aggregationTemporality\":2,\"isMonotonic\":true}}");
    }

    @Test
    void deltaSum() {
        Metric m = Metric.newBuilder().setName("app.payment.amount").setUnit("USD")
                .setSum(Sum.newBuilder()
                        .addDataPoints(NumberDataPoint.newBuilder().setStartTimeUnixNano(NOW - 60_000_000_000L)
                                .setTimeUnixNano(NOW).setAsDouble(12.5))
                        .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA))
                .build();
        assertThat(json(m)).isEqualTo("{\"name\":\"app.payment.amount\",\"unit\":\"USD\",\"sum\":{\"dataPoints\":["
                + "{\"startTimeUnixNano\":\"1699999940000000000\",\"timeUnixNano\":\"1700000000000000000\",\"asDouble\":12.5}],"
                + "\"aggregationTemporality\":1}}");
    }

    /** sum, min and max are {@code optional}: written when set, also at 0; left out when not. */
    @Test
    void histogram() {
        Metric m = Metric.newBuilder().setName("http.server.request.duration").setUnit("s")
                .setHistogram(Histogram.newBuilder()
                        .addDataPoints(HistogramDataPoint.newBuilder().setStartTimeUnixNano(NOW - 600_000_000_000L)
                                .setTimeUnixNano(NOW).setCount(5).setSum(0.75)
                                .addBucketCounts(1).addBucketCounts(3).addBucketCounts(1)
                                .addExplicitBounds(0.1).addExplicitBounds(0.5)
                                .addExemplars(Exemplar.newBuilder().setTimeUnixNano(NOW - 1_000_000_000L).setAsDouble(0.3))
                                .setMin(0.05).setMax(0.9))
                        .addDataPoints(HistogramDataPoint.newBuilder().setTimeUnixNano(NOW).setCount(2).setSum(0)
                                .addBucketCounts(2).addBucketCounts(0).addBucketCounts(0)
                                .addExplicitBounds(0.1).addExplicitBounds(0.5))
                        .addDataPoints(HistogramDataPoint.newBuilder().setTimeUnixNano(NOW).setCount(1).addBucketCounts(1))
                        .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE))
                .build();
        assertThat(json(m)).isEqualTo("{\"name\":\"http.server.request.duration\",\"unit\":\"s\",\"histogram\":{\"dataPoints\":["
                + "{\"startTimeUnixNano\":\"1699999400000000000\",\"timeUnixNano\":\"1700000000000000000\",\"count\":\"5\",\"sum\":0.75,"
                + "\"bucketCounts\":[\"1\",\"3\",\"1\"],\"explicitBounds\":[0.1,0.5],"
                + "\"exemplars\":[{\"timeUnixNano\":\"1699999999000000000\",\"asDouble\":0.3}],\"min\":0.05,\"max\":0.9},"
                + "{\"timeUnixNano\":\"1700000000000000000\",\"count\":\"2\",\"sum\":0,\"bucketCounts\":[\"2\",\"0\",\"0\"],"
                + "\"explicitBounds\":[0.1,0.5]},"
                + "{\"timeUnixNano\":\"1700000000000000000\",\"count\":\"1\",\"bucketCounts\":[\"1\"]}],"
                + "\"aggregationTemporality\":2}}");
    }

    @Test
    void exponentialHistogram() {
        Metric m = Metric.newBuilder().setName("app.clock.skew").setUnit("ms")
                .setExponentialHistogram(ExponentialHistogram.newBuilder()
                        .addDataPoints(ExponentialHistogramDataPoint.newBuilder().setTimeUnixNano(NOW).setCount(7).setSum(-1.5)
                                .setScale(3).setZeroCount(1)
                                .setPositive(ExponentialHistogramDataPoint.Buckets.newBuilder().setOffset(-2)
                                        .addBucketCounts(1).addBucketCounts(0).addBucketCounts(2))
                                .setNegative(ExponentialHistogramDataPoint.Buckets.newBuilder().addBucketCounts(3))
                                .setMin(-4).setMax(2.5).setZeroThreshold(1e-9))
                        .addDataPoints(ExponentialHistogramDataPoint.newBuilder().setTimeUnixNano(NOW).setCount(1)
                                .setPositive(ExponentialHistogramDataPoint.Buckets.newBuilder().addBucketCounts(1)))
                        .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA))
                .build();
        assertThat(json(m)).isEqualTo("{\"name\":\"app.clock.skew\",\"unit\":\"ms\",\"exponentialHistogram\":{\"dataPoints\":["
                + "{\"timeUnixNano\":\"1700000000000000000\",\"count\":\"7\",\"sum\":-1.5,\"scale\":3,\"zeroCount\":\"1\","
                + "\"positive\":{\"offset\":-2,\"bucketCounts\":[\"1\",\"0\",\"2\"]},\"negative\":{\"bucketCounts\":[\"3\"]},"
                + "\"min\":-4,\"max\":2.5,\"zeroThreshold\":1e-9},"
                + "{\"timeUnixNano\":\"1700000000000000000\",\"count\":\"1\",\"positive\":{\"bucketCounts\":[\"1\"]},\"negative\":{}}],"
                + "\"aggregationTemporality\":1}}");
    }

    /** quantile and value are plain doubles: 0 is left out. */
    @Test
    void summary() {
        Metric m = Metric.newBuilder().setName("rpc.server.latency").setUnit("s")
                .setSummary(Summary.newBuilder()
                        .addDataPoints(SummaryDataPoint.newBuilder().addAttributes(kv("rpc.method", str("GetItem")))
                                .setStartTimeUnixNano(NOW - 600_000_000_000L).setTimeUnixNano(NOW).setCount(10).setSum(1.25)
                                .addQuantileValues(SummaryDataPoint.ValueAtQuantile.newBuilder().setQuantile(0).setValue(0.01))
                                .addQuantileValues(SummaryDataPoint.ValueAtQuantile.newBuilder().setQuantile(0.5).setValue(0.1))
                                .addQuantileValues(SummaryDataPoint.ValueAtQuantile.newBuilder().setQuantile(1).setValue(0.5))))
                .build();
        assertThat(json(m)).isEqualTo("{\"name\":\"rpc.server.latency\",\"unit\":\"s\",\"summary\":{\"dataPoints\":["
                + "{\"attributes\":[{\"key\":\"rpc.method\",\"value\":{\"stringValue\":\"GetItem\"}}],"
                + "\"startTimeUnixNano\":\"1699999400000000000\",\"timeUnixNano\":\"1700000000000000000\",\"count\":\"10\",\"sum\":1.25,"
                + "\"quantileValues\":[{\"value\":0.01},{\"quantile\":0.5,\"value\":0.1},{\"quantile\":1,\"value\":0.5}]}]}}");
    }

    @Test
    void metricsRequest() {
        ExportMetricsServiceRequest req = ExportMetricsServiceRequest.newBuilder()
                .addResourceMetrics(ResourceMetrics.newBuilder()
                        .setResource(Resource.newBuilder().addAttributes(kv("service.name", str("checkout"))))
                        .addScopeMetrics(ScopeMetrics.newBuilder()
                                .setScope(InstrumentationScope.newBuilder().setName("io.example"))
                                .addMetrics(Metric.newBuilder().setName("up").setGauge(Gauge.newBuilder()
                                        .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(NOW).setAsInt(1))))
                                .setSchemaUrl("https://opentelemetry.io/schemas/1.26.0"))
                        .setSchemaUrl("https://opentelemetry.io/schemas/1.26.0"))
                .build();
        assertThat(json(req)).isEqualTo("{\"resourceMetrics\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"checkout\"}}]},"
                + "\"scopeMetrics\":[{\"scope\":{\"name\":\"io.example\"},\"metrics\":[{\"name\":\"up\",\"gauge\":{\"dataPoints\":"
                + "[{\"timeUnixNano\":\"1700000000000000000\",\"asInt\":\"1\"}]}}],\"schemaUrl\":\"https://opentelemetry.io/schemas/1.26.0\"}],"
                + "\"schemaUrl\":\"https://opentelemetry.io/schemas/1.26.0\"}]}");
    }

    @Test
    void refusesMapFields() {
        Struct s = Struct.newBuilder().putFields("a", Value.newBuilder().setBoolValue(true).build()).build();
        assertThatThrownBy(() -> OtlpJsonWriter.write(s))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("google.protobuf.Struct.fields");
    }
}
