package io.tributary.otlp.json;

import io.tributary.otlp.Encoding;
import io.tributary.otlp.InvalidOtlpException;
import io.tributary.otlp.json.OtlpJsonParser;

import static io.tributary.testing.Otlp.kv;
import static io.tributary.testing.Otlp.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.google.protobuf.ByteString;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.LogsData;
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
import io.opentelemetry.proto.metrics.v1.MetricsData;
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
import io.opentelemetry.proto.trace.v1.TracesData;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * OTLP/JSON for all three signals: the spec's examples, enum names and numbers, 64-bit integers as
 * strings or numbers, snake_case keys, nulls, optional fields, and the errors for input that is not
 * OTLP. Every parsed message is compared whole against one built with the generated builders.
 */
class OtlpJsonParserTest {

    static <M extends Message> M parse(String json, M defaultInstance) throws IOException {
        byte[] b = ("  " + json + "\n").getBytes(StandardCharsets.UTF_8);
        // an offset and length inside a larger array, as a Kafka record value may be
        return OtlpJsonParser.parse(b, 2, b.length - 3, defaultInstance);
    }

    static ExportTraceServiceRequest traces(String json) throws IOException {
        return parse(json, ExportTraceServiceRequest.getDefaultInstance());
    }

    static ExportTraceServiceRequest oneSpan(Span span) {
        return ExportTraceServiceRequest.newBuilder()
                .addResourceSpans(
                        ResourceSpans.newBuilder().addScopeSpans(ScopeSpans.newBuilder().addSpans(span)))
                .build();
    }

    static String inSpan(String spanFields) {
        return "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{" + spanFields + "}]}]}]}";
    }

    static ByteString hex(String s) {
        return ByteString.copyFrom(HexFormat.of().parseHex(s));
    }

    // --- traces -------------------------------------------------------------------------------

    /** The example from opentelemetry-proto's examples/trace.json. */
    @Test
    void tracesSpecExample() throws IOException {
        String json =
                """
                {"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"my.service"}}]},
                 "scopeSpans":[{"scope":{"name":"my.library","version":"1.0.0",
                   "attributes":[{"key":"my.scope.attribute","value":{"stringValue":"some scope attribute"}}]},
                  "spans":[{"traceId":"5B8EFFF798038103D269B633813FC60C","spanId":"EEE19B7EC3C1B174",
                   "parentSpanId":"EEE19B7EC3C1B173","name":"I'm a server span",
                   "startTimeUnixNano":"1544712660000000000","endTimeUnixNano":"1544712661000000000","kind":2,
                   "attributes":[{"key":"my.span.attr","value":{"stringValue":"some value"}}]}]}]}]}
                """;
        Span span =
                Span.newBuilder()
                        .setTraceId(hex("5b8efff798038103d269b633813fc60c"))
                        .setSpanId(hex("eee19b7ec3c1b174"))
                        .setParentSpanId(hex("eee19b7ec3c1b173"))
                        .setName("I'm a server span")
                        .setStartTimeUnixNano(1544712660000000000L)
                        .setEndTimeUnixNano(1544712661000000000L)
                        .setKind(Span.SpanKind.SPAN_KIND_SERVER)
                        .addAttributes(kv("my.span.attr", str("some value")))
                        .build();
        ExportTraceServiceRequest expected =
                ExportTraceServiceRequest.newBuilder()
                        .addResourceSpans(
                                ResourceSpans.newBuilder()
                                        .setResource(
                                                Resource.newBuilder()
                                                        .addAttributes(kv("service.name", str("my.service"))))
                                        .addScopeSpans(
                                                ScopeSpans.newBuilder()
                                                        .setScope(
                                                                InstrumentationScope.newBuilder()
                                                                        .setName("my.library")
                                                                        .setVersion("1.0.0")
                                                                        .addAttributes(
                                                                                kv(
                                                                                        "my.scope.attribute",
                                                                                        str("some scope attribute"))))
                                                        .addSpans(span)))
                        .build();
        assertThat(traces(json)).isEqualTo(expected);
        // TracesData has the same shape
        assertThat(parse(json, TracesData.getDefaultInstance()))
                .isEqualTo(TracesData.newBuilder().addAllResourceSpans(expected.getResourceSpansList()).build());
    }

    @Test
    void enumsByNameIntegersAsNumbersSnakeCaseAndNulls() throws IOException {
        ExportTraceServiceRequest r =
                traces("""
                {"resource_spans":[{"scope_spans":[{"spans":[{"trace_id":"","span_id":null,
                 "kind":"SPAN_KIND_CONSUMER","start_time_unix_nano":1544712660000000000,"endTimeUnixNano":1.5447126610E18,
                 "status":{"code":"STATUS_CODE_ERROR","message":"boom"},"unknownField":{"x":[1,2,{"y":[]}]},
                 "attributes":[{"key":"i","value":{"intValue":"-9223372036854775808"}},
                  {"key":"j","value":{"int_value":12}},{"key":"d","value":{"doubleValue":"NaN"}},
                  {"key":"e","value":{"doubleValue":"-Infinity"}},{"key":"f","value":{"doubleValue":2}},
                  {"key":"b","value":{"bytesValue":"AQID"}},{"key":"u","value":{"bytesValue":"-_8"}},
                  {"key":"n","value":null},{"key":"t","value":{"boolValue":true}},
                  {"key":"a","value":{"arrayValue":{"values":[{"stringValue":"x"},
                   {"kvlistValue":{"values":[{"key":"k","value":{"intValue":1}}]}}]}}}]}]}]}]}
                """);
        Span span =
                Span.newBuilder()
                        .setKind(Span.SpanKind.SPAN_KIND_CONSUMER)
                        .setStartTimeUnixNano(1544712660000000000L)
                        .setEndTimeUnixNano(1544712661000000000L)
                        .setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_ERROR).setMessage("boom"))
                        .addAttributes(kv("i", AnyValue.newBuilder().setIntValue(Long.MIN_VALUE).build()))
                        .addAttributes(kv("j", AnyValue.newBuilder().setIntValue(12).build()))
                        .addAttributes(kv("d", AnyValue.newBuilder().setDoubleValue(Double.NaN).build()))
                        .addAttributes(
                                kv("e", AnyValue.newBuilder().setDoubleValue(Double.NEGATIVE_INFINITY).build()))
                        .addAttributes(kv("f", AnyValue.newBuilder().setDoubleValue(2).build()))
                        .addAttributes(
                                kv("b", AnyValue.newBuilder().setBytesValue(hex("010203")).build()))
                        .addAttributes(kv("u", AnyValue.newBuilder().setBytesValue(hex("fbff")).build()))
                        .addAttributes(KeyValue.newBuilder().setKey("n"))
                        .addAttributes(kv("t", AnyValue.newBuilder().setBoolValue(true).build()))
                        .addAttributes(
                                kv(
                                        "a",
                                        AnyValue.newBuilder()
                                                .setArrayValue(
                                                        ArrayValue.newBuilder()
                                                                .addValues(str("x"))
                                                                .addValues(
                                                                        AnyValue.newBuilder()
                                                                                .setKvlistValue(
                                                                                        KeyValueList.newBuilder()
                                                                                                .addValues(
                                                                                                        kv(
                                                                                                                "k",
                                                                                                                AnyValue.newBuilder()
                                                                                                                        .setIntValue(1)
                                                                                                                        .build())))))
                                                .build()))
                        .build();
        assertThat(r).isEqualTo(oneSpan(span));
        assertThat(r.getResourceSpans(0).getScopeSpans(0).getSpans(0).getAttributes(7).hasValue()).isFalse();
    }

    @Test
    void spanLinksEventsStatusAndCountsInTracesData() throws IOException {
        TracesData r =
                parse("""
                {"resourceSpans":[{"schemaUrl":"https://opentelemetry.io/schemas/1.4.0","scopeSpans":[{"spans":[{
                 "traceState":"a=b","flags":257,"kind":"SPAN_KIND_CLIENT",
                 "droppedAttributesCount":"1","droppedEventsCount":2,"droppedLinksCount":3,
                 "events":[{"timeUnixNano":"5","name":"ev","attributes":[{"key":"k","value":{"stringValue":"v"}}],"droppedAttributesCount":4}],
                 "links":[{"traceId":"0102030405060708090a0b0c0d0e0f10","span_id":"0102030405060708","traceState":"x=y","flags":1,
                  "attributes":[{"key":"l","value":{"boolValue":false}}],"dropped_attributes_count":5}, null],
                 "status":{"code":1}}]}]}]}
                """,
                        TracesData.getDefaultInstance());
        Span span =
                Span.newBuilder()
                        .setTraceState("a=b")
                        .setFlags(257)
                        .setKind(Span.SpanKind.SPAN_KIND_CLIENT)
                        .setDroppedAttributesCount(1)
                        .setDroppedEventsCount(2)
                        .setDroppedLinksCount(3)
                        .addEvents(
                                Span.Event.newBuilder()
                                        .setTimeUnixNano(5)
                                        .setName("ev")
                                        .addAttributes(kv("k", str("v")))
                                        .setDroppedAttributesCount(4))
                        .addLinks(
                                Span.Link.newBuilder()
                                        .setTraceId(hex("0102030405060708090a0b0c0d0e0f10"))
                                        .setSpanId(hex("0102030405060708"))
                                        .setTraceState("x=y")
                                        .setFlags(1)
                                        .addAttributes(kv("l", AnyValue.newBuilder().setBoolValue(false).build()))
                                        .setDroppedAttributesCount(5))
                        // a null element of a repeated message field is an empty message, as in pdata
                        .addLinks(Span.Link.getDefaultInstance())
                        .setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_OK))
                        .build();
        assertThat(r)
                .isEqualTo(
                        TracesData.newBuilder()
                                .addResourceSpans(
                                        ResourceSpans.newBuilder()
                                                .setSchemaUrl("https://opentelemetry.io/schemas/1.4.0")
                                                .addScopeSpans(ScopeSpans.newBuilder().addSpans(span)))
                                .build());
    }

    @Test
    void unsignedTimestampsAbove2To63() throws IOException {
        assertThat(traces(inSpan("\"startTimeUnixNano\":\"18446744073709551615\",\"endTimeUnixNano\":9223372036854775808")))
                .isEqualTo(oneSpan(Span.newBuilder().setStartTimeUnixNano(-1L).setEndTimeUnixNano(Long.MIN_VALUE).build()));
    }

    @Test
    void unknownEnumNumbersAreKept() throws IOException {
        assertThat(traces(inSpan("\"kind\":42,\"status\":{\"code\":\"7\"}")))
                .isEqualTo(
                        oneSpan(
                                Span.newBuilder()
                                        .setKindValue(42)
                                        .setStatus(Status.newBuilder().setCodeValue(7))
                                        .build()));
    }

    @Test
    void nullsLeaveFieldsAbsent() throws IOException {
        ExportTraceServiceRequest r =
                traces("{\"resourceSpans\":[{\"resource\":null,\"scopeSpans\":[{\"scope\":null,\"spans\":null}]}],\"x\":null}");
        assertThat(r)
                .isEqualTo(
                        ExportTraceServiceRequest.newBuilder()
                                .addResourceSpans(ResourceSpans.newBuilder().addScopeSpans(ScopeSpans.getDefaultInstance()))
                                .build());
        assertThat(r.getResourceSpans(0).hasResource()).isFalse();
        // an empty object is present
        assertThat(traces("{\"resourceSpans\":[{\"resource\":{}}]}").getResourceSpans(0).hasResource()).isTrue();
    }

    @Test
    void unknownFieldsAreSkippedAtEveryLevel() throws IOException {
        ExportTraceServiceRequest r =
                traces("""
                {"partialSuccess":{"rejectedSpans":1},"future":[[{"a":[{}]}],null,true],
                 "resourceSpans":[{"extra":{"resourceSpans":[1]},"scopeSpans":[{"spans":[{"name":"s","traceid":"zz",
                 "attributes":[{"key":"k","value":{"stringValue":"v","future":{"x":1}},"note":[1,{}]}]}]}]}]}
                """);
        assertThat(r).isEqualTo(oneSpan(Span.newBuilder().setName("s").addAttributes(kv("k", str("v"))).build()));
    }

    @Test
    void rejectsBadIdsTypesAndSyntax() {
        assertThatThrownBy(() -> traces(inSpan("\"traceId\":\"abc\"")))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessage("resourceSpans[0].scopeSpans[0].spans[0].traceId must be 32 hex digits, got 3");
        assertThatThrownBy(() -> traces(inSpan("\"spanId\":\"zzzzzzzzzzzzzzzz\"")))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessageContaining("spans[0].spanId is not valid hex");
        // digits of other scripts are no hex digits to the collector (Go's encoding/hex): fullwidth, Arabic-Indic
        assertThatThrownBy(() -> traces(inSpan("\"spanId\":\"\uFF10\uFF11eee19b7ec3c1b1\"")))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessageContaining("spans[0].spanId is not valid hex");
        assertThatThrownBy(() -> traces(inSpan("\"spanId\":\"\u0660\u0661eee19b7ec3c1b1\"")))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessageContaining("spans[0].spanId is not valid hex");
        assertThatThrownBy(
                        () -> traces("{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{},{\"links\":[{},{\"spanId\":\"01\"}]}]}]}]}"))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessage("resourceSpans[0].scopeSpans[0].spans[1].links[1].spanId must be 16 hex digits, got 2");
        assertThatThrownBy(() -> traces("{\"resourceSpans\":{\"a\":1}}"))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessage("resourceSpans must be a JSON array, got an object");
        assertThatThrownBy(() -> traces(inSpan("\"startTimeUnixNano\":\"soon\"")))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessageContaining("startTimeUnixNano is not an integer: soon");
        assertThatThrownBy(() -> traces(inSpan("\"startTimeUnixNano\":\"\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669\u0660\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669\u0660\"")))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessageContaining("startTimeUnixNano is not an integer");
        assertThatThrownBy(() -> traces(inSpan("\"name\":{\"a\":\"b\"}")))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessage("resourceSpans[0].scopeSpans[0].spans[0].name must be a string, got an object");
        assertThatThrownBy(() -> traces(inSpan("\"status\":\"ok\"")))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessageContaining("spans[0].status must be a JSON object, got a string");
        assertThatThrownBy(() -> traces(inSpan("\"kind\":\"SPAN_KIND_SERVR\"")))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessageContaining("spans[0].kind has an unknown SpanKind value: SPAN_KIND_SERVR");
        assertThatThrownBy(() -> traces(inSpan("\"attributes\":[{\"key\":\"b\",\"value\":{\"bytesValue\":\"A\"}}]")))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessageContaining("spans[0].attributes[0].value.bytesValue is not base64");
        assertThatThrownBy(() -> traces(inSpan("\"attributes\":[{\"key\":\"b\",\"value\":{\"boolValue\":\"true\"}}]")))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessageContaining("attributes[0].value.boolValue must be true or false, got a string");
        assertThatThrownBy(() -> traces("{\"resourceSpans\":["))
                .isInstanceOf(IOException.class)
                .isNotInstanceOf(InvalidOtlpException.class);
        assertThatThrownBy(() -> traces("{} {}"))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessage("trailing content after the JSON object");
        assertThatThrownBy(() -> traces("null"))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessage("the record must be a JSON object, got null");
        assertThatThrownBy(() -> traces("[]"))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessage("the record must be a JSON object, got an array");
        assertThatThrownBy(() -> traces(""))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessage("the record must be a JSON object, got the end of the input");
    }

    @Test
    void integerRanges() throws IOException {
        assertThatThrownBy(() -> traces(inSpan("\"startTimeUnixNano\":\"18446744073709551616\"")))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessageContaining("startTimeUnixNano is out of the uint64 range");
        assertThatThrownBy(() -> traces(inSpan("\"startTimeUnixNano\":-1")))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessageContaining("startTimeUnixNano is out of the uint64 range");
        assertThatThrownBy(() -> traces(inSpan("\"startTimeUnixNano\":\"-1\"")))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessageContaining("startTimeUnixNano is out of the uint64 range");
        assertThatThrownBy(() -> traces(inSpan("\"attributes\":[{\"value\":{\"intValue\":\"9223372036854775808\"}}]")))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessageContaining("intValue is out of the int64 range");
        assertThatThrownBy(() -> traces(inSpan("\"attributes\":[{\"value\":{\"intValue\":-9223372036854775809}}]")))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessageContaining("intValue is out of the int64 range");
        assertThatThrownBy(() -> traces(inSpan("\"droppedAttributesCount\":4294967296")))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessageContaining("droppedAttributesCount is out of the uint32 range");
        assertThatThrownBy(() -> traces(inSpan("\"startTimeUnixNano\":1.5")))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessageContaining("startTimeUnixNano is not an integer");
        // refused without expanding 10^999999999
        assertThatThrownBy(() -> traces(inSpan("\"startTimeUnixNano\":1e999999999")))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessageContaining("out of the uint64 range");
        assertThatThrownBy(() -> traces(inSpan("\"startTimeUnixNano\":\"\"")))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessageContaining("startTimeUnixNano is an empty string");
        assertThat(traces(inSpan("\"startTimeUnixNano\":\" 1e3 \",\"endTimeUnixNano\":\"+0012\",\"droppedAttributesCount\":\"4294967295\",\"flags\":\"0\"")))
                .isEqualTo(
                        oneSpan(
                                Span.newBuilder()
                                        .setStartTimeUnixNano(1000)
                                        .setEndTimeUnixNano(12)
                                        .setDroppedAttributesCount(-1)
                                        .build()));
    }

    /** Jackson's nesting limit stops a hostile record before the recursive descent can overflow. */
    @Test
    void deepNestingFailsWithAnExceptionNotAStackOverflow() throws IOException {
        int depth = 100_000;
        StringBuilder kv = new StringBuilder("{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"attributes\":[");
        for (int i = 0; i < depth; i++) {
            kv.append("{\"key\":\"k\",\"value\":{\"kvlistValue\":{\"values\":[");
        }
        assertThatThrownBy(() -> traces(kv.toString()))
                .isInstanceOf(StreamConstraintsException.class)
                .hasMessageContaining("nesting depth");

        StringBuilder unknown = new StringBuilder("{\"x\":");
        unknown.append("[".repeat(depth)).append("]".repeat(depth)).append('}');
        assertThatThrownBy(() -> traces(unknown.toString())).isInstanceOf(StreamConstraintsException.class);

        // just under the limit parses: 6 levels of envelope, then 4 per kvlist level
        int levels = 240;
        StringBuilder ok = new StringBuilder("{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"attributes\":[");
        ok.append("{\"key\":\"k\",\"value\":{\"kvlistValue\":{\"values\":[".repeat(levels));
        ok.append("]}}}".repeat(levels)).append("]}]}]}]}");
        AnyValue v = traces(ok.toString()).getResourceSpans(0).getScopeSpans(0).getSpans(0).getAttributes(0).getValue();
        int seen = 1;
        while (v.getKvlistValue().getValuesCount() > 0) {
            v = v.getKvlistValue().getValues(0).getValue();
            seen++;
        }
        assertThat(seen).isEqualTo(levels);
    }

    /** Builders without generated setters go through {@code setField}, with the same result. */
    @Test
    void dynamicMessagesGiveTheSameResult() throws IOException {
        String json =
                """
                {"resourceSpans":[{"resource":{"attributes":[{"key":"k","value":{"arrayValue":{"values":[{"intValue":"3"},null]}}}]},
                 "scopeSpans":[{"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","kind":"SPAN_KIND_SERVER",
                  "startTimeUnixNano":"18446744073709551615","flags":4294967295,"status":{"code":42},
                  "links":[{"spanId":"eee19b7ec3c1b174"}],"events":[{"name":"e"}]}]}]}]}
                """;
        ExportTraceServiceRequest generated = traces(json);
        DynamicMessage dynamic = parse(json, DynamicMessage.getDefaultInstance(ExportTraceServiceRequest.getDescriptor()));
        assertThat(ExportTraceServiceRequest.parseFrom(dynamic.toByteString())).isEqualTo(generated);
        assertThat(generated.getResourceSpans(0).getScopeSpans(0).getSpans(0).getStatus().getCodeValue()).isEqualTo(42);
        assertThat(generated.getResourceSpans(0).getScopeSpans(0).getSpans(0).getFlags()).isEqualTo(-1);
    }

    @Test
    void autoDetectsJsonAfterWhitespace() {
        assertThat(Encoding.AUTO.of(" \n{}".getBytes(StandardCharsets.UTF_8))).isEqualTo(Encoding.OTLP_JSON);
        assertThat(Encoding.AUTO.of(new byte[] {0x0a, 0x00})).isEqualTo(Encoding.OTLP_PROTO);
        assertThat(Encoding.AUTO.of(new byte[0])).isEqualTo(Encoding.OTLP_PROTO);
        assertThat(Encoding.OTLP_JSON.of(new byte[] {0x0a})).isEqualTo(Encoding.OTLP_JSON);
    }

    // --- logs ---------------------------------------------------------------------------------

    /** Shaped like opentelemetry-proto's examples/logs.json. */
    @Test
    void logs() throws IOException {
        String json =
                """
                {"resourceLogs":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"my.service"}}]},
                 "scopeLogs":[{"scope":{"name":"my.library","version":"1.0.0"},"schemaUrl":"s","logRecords":[
                  {"timeUnixNano":1544712660300000000,"observedTimeUnixNano":"1544712660300000001",
                   "severityNumber":"SEVERITY_NUMBER_INFO","severityText":"Information",
                   "traceId":"5B8EFFF798038103D269B633813FC60C","spanId":"eee19b7ec3c1b174","flags":1,
                   "eventName":"app.started","droppedAttributesCount":2,
                   "body":{"kvlistValue":{"values":[{"key":"msg","value":{"stringValue":"hi"}},
                    {"key":"nested","value":{"kvlistValue":{"values":[{"key":"n","value":{"doubleValue":1.5}}]}}}]}},
                   "attributes":[{"key":"int.attribute","value":{"intValue":"10"}}]},
                  {"severity_number":17,"observed_time_unix_nano":"7","body":{"stringValue":"plain"},
                   "trace_id":"","event_name":"e","time_unix_nano":null}]}]}]}
                """;
        LogRecord first =
                LogRecord.newBuilder()
                        .setTimeUnixNano(1544712660300000000L)
                        .setObservedTimeUnixNano(1544712660300000001L)
                        .setSeverityNumber(SeverityNumber.SEVERITY_NUMBER_INFO)
                        .setSeverityText("Information")
                        .setTraceId(hex("5b8efff798038103d269b633813fc60c"))
                        .setSpanId(hex("eee19b7ec3c1b174"))
                        .setFlags(1)
                        .setEventName("app.started")
                        .setDroppedAttributesCount(2)
                        .setBody(
                                AnyValue.newBuilder()
                                        .setKvlistValue(
                                                KeyValueList.newBuilder()
                                                        .addValues(kv("msg", str("hi")))
                                                        .addValues(
                                                                kv(
                                                                        "nested",
                                                                        AnyValue.newBuilder()
                                                                                .setKvlistValue(
                                                                                        KeyValueList.newBuilder()
                                                                                                .addValues(
                                                                                                        kv(
                                                                                                                "n",
                                                                                                                AnyValue.newBuilder()
                                                                                                                        .setDoubleValue(1.5)
                                                                                                                        .build())))
                                                                                .build()))))
                        .addAttributes(kv("int.attribute", AnyValue.newBuilder().setIntValue(10).build()))
                        .build();
        LogRecord second =
                LogRecord.newBuilder()
                        .setSeverityNumber(SeverityNumber.SEVERITY_NUMBER_ERROR)
                        .setObservedTimeUnixNano(7)
                        .setBody(str("plain"))
                        .setEventName("e")
                        .build();
        ResourceLogs resourceLogs =
                ResourceLogs.newBuilder()
                        .setResource(Resource.newBuilder().addAttributes(kv("service.name", str("my.service"))))
                        .addScopeLogs(
                                ScopeLogs.newBuilder()
                                        .setScope(InstrumentationScope.newBuilder().setName("my.library").setVersion("1.0.0"))
                                        .setSchemaUrl("s")
                                        .addLogRecords(first)
                                        .addLogRecords(second))
                        .build();
        assertThat(parse(json, ExportLogsServiceRequest.getDefaultInstance()))
                .isEqualTo(ExportLogsServiceRequest.newBuilder().addResourceLogs(resourceLogs).build());
        assertThat(parse(json, LogsData.getDefaultInstance()))
                .isEqualTo(LogsData.newBuilder().addResourceLogs(resourceLogs).build());
    }

    @Test
    void rejectsBadLogs() {
        String prefix = "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{";
        assertThatThrownBy(() -> parse(prefix + "\"severityNumber\":\"LOUD\"}]}]}]}", ExportLogsServiceRequest.getDefaultInstance()))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessage("resourceLogs[0].scopeLogs[0].logRecords[0].severityNumber has an unknown SeverityNumber value: LOUD");
        assertThatThrownBy(() -> parse(prefix + "\"spanId\":\"0102030405060708090a\"}]}]}]}", ExportLogsServiceRequest.getDefaultInstance()))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessage("resourceLogs[0].scopeLogs[0].logRecords[0].spanId must be 16 hex digits, got 20");
        assertThatThrownBy(() -> parse(prefix + "\"body\":[]}]}]}]}", ExportLogsServiceRequest.getDefaultInstance()))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessage("resourceLogs[0].scopeLogs[0].logRecords[0].body must be a JSON object, got an array");
    }

    // --- metrics ------------------------------------------------------------------------------

    static final String TRACE = "5b8efff798038103d269b633813fc60c";
    static final String SPAN = "eee19b7ec3c1b174";

    /** Shaped like opentelemetry-proto's examples/metrics.json, with every data point type. */
    @Test
    void metrics() throws IOException {
        String json =
                """
                {"resourceMetrics":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"my.service"}}]},
                 "scopeMetrics":[{"scope":{"name":"my.library"},"metrics":[
                  {"name":"my.gauge","unit":"1","description":"I am a Gauge","metadata":[{"key":"m","value":{"stringValue":"v"}}],
                   "gauge":{"dataPoints":[
                    {"asInt":"10","timeUnixNano":"1544712660300000000","attributes":[{"key":"a","value":{"boolValue":true}}],
                     "exemplars":[{"asInt":"7","timeUnixNano":"1","spanId":"EEE19B7EC3C1B174","traceId":"5B8EFFF798038103D269B633813FC60C",
                       "filteredAttributes":[{"key":"f","value":{"stringValue":"x"}}]}]},
                    {"asDouble":"NaN","flags":1},
                    {"as_double":2.5,"start_time_unix_nano":3}]}},
                  {"name":"my.sum","sum":{"aggregationTemporality":"AGGREGATION_TEMPORALITY_CUMULATIVE","isMonotonic":true,
                   "dataPoints":[{"asDouble":5,"startTimeUnixNano":1,"timeUnixNano":2,
                    "exemplars":[{"asDouble":0.25,"span_id":"eee19b7ec3c1b174","trace_id":""}]}]}},
                  {"name":"my.delta","sum":{"aggregation_temporality":1,"is_monotonic":false,"data_points":[{"as_int":-3}]}},
                  {"name":"my.histogram","histogram":{"aggregationTemporality":2,"dataPoints":[
                    {"count":"3","sum":6.5,"bucketCounts":["1","0","2"],"explicitBounds":[0.5,2],"min":0,"max":4.5,
                     "startTimeUnixNano":"1","timeUnixNano":"2","flags":0},
                    {"count":2,"bucket_counts":[1,1],"explicit_bounds":["1"],"min":null}]}},
                  {"name":"my.exponential","exponentialHistogram":{"aggregationTemporality":"AGGREGATION_TEMPORALITY_DELTA","dataPoints":[
                    {"count":"9","sum":-1,"scale":-2,"zeroCount":"1","zeroThreshold":1e-9,
                     "positive":{"offset":-3,"bucketCounts":["4","2"]},"negative":{"offset":"-1","bucket_counts":[2]},
                     "min":-4,"max":8,"exemplars":[{"asInt":1,"spanId":"eee19b7ec3c1b174"}]}]}},
                  {"name":"my.summary","summary":{"dataPoints":[
                    {"count":"4","sum":10,"quantileValues":[{"quantile":0.5,"value":2},{"quantile":1,"value":"Infinity"}],"flags":1},
                    {"quantile_values":[{"quantile":0}]}]}}]}]}]}
                """;
        Metric gauge =
                Metric.newBuilder()
                        .setName("my.gauge")
                        .setUnit("1")
                        .setDescription("I am a Gauge")
                        .addMetadata(kv("m", str("v")))
                        .setGauge(
                                Gauge.newBuilder()
                                        .addDataPoints(
                                                NumberDataPoint.newBuilder()
                                                        .setAsInt(10)
                                                        .setTimeUnixNano(1544712660300000000L)
                                                        .addAttributes(kv("a", AnyValue.newBuilder().setBoolValue(true).build()))
                                                        .addExemplars(
                                                                Exemplar.newBuilder()
                                                                        .setAsInt(7)
                                                                        .setTimeUnixNano(1)
                                                                        .setSpanId(hex(SPAN))
                                                                        .setTraceId(hex(TRACE))
                                                                        .addFilteredAttributes(kv("f", str("x")))))
                                        .addDataPoints(NumberDataPoint.newBuilder().setAsDouble(Double.NaN).setFlags(1))
                                        .addDataPoints(NumberDataPoint.newBuilder().setAsDouble(2.5).setStartTimeUnixNano(3)))
                        .build();
        Metric sum =
                Metric.newBuilder()
                        .setName("my.sum")
                        .setSum(
                                Sum.newBuilder()
                                        .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE)
                                        .setIsMonotonic(true)
                                        .addDataPoints(
                                                NumberDataPoint.newBuilder()
                                                        .setAsDouble(5)
                                                        .setStartTimeUnixNano(1)
                                                        .setTimeUnixNano(2)
                                                        .addExemplars(Exemplar.newBuilder().setAsDouble(0.25).setSpanId(hex(SPAN)))))
                        .build();
        Metric delta =
                Metric.newBuilder()
                        .setName("my.delta")
                        .setSum(
                                Sum.newBuilder()
                                        .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA)
                                        .addDataPoints(NumberDataPoint.newBuilder().setAsInt(-3)))
                        .build();
        Metric histogram =
                Metric.newBuilder()
                        .setName("my.histogram")
                        .setHistogram(
                                Histogram.newBuilder()
                                        .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE)
                                        .addDataPoints(
                                                HistogramDataPoint.newBuilder()
                                                        .setCount(3)
                                                        .setSum(6.5)
                                                        .addBucketCounts(1)
                                                        .addBucketCounts(0)
                                                        .addBucketCounts(2)
                                                        .addExplicitBounds(0.5)
                                                        .addExplicitBounds(2)
                                                        .setMin(0)
                                                        .setMax(4.5)
                                                        .setStartTimeUnixNano(1)
                                                        .setTimeUnixNano(2))
                                        .addDataPoints(
                                                HistogramDataPoint.newBuilder()
                                                        .setCount(2)
                                                        .addBucketCounts(1)
                                                        .addBucketCounts(1)
                                                        .addExplicitBounds(1)))
                        .build();
        Metric exponential =
                Metric.newBuilder()
                        .setName("my.exponential")
                        .setExponentialHistogram(
                                ExponentialHistogram.newBuilder()
                                        .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA)
                                        .addDataPoints(
                                                ExponentialHistogramDataPoint.newBuilder()
                                                        .setCount(9)
                                                        .setSum(-1)
                                                        .setScale(-2)
                                                        .setZeroCount(1)
                                                        .setZeroThreshold(1e-9)
                                                        .setPositive(
                                                                ExponentialHistogramDataPoint.Buckets.newBuilder()
                                                                        .setOffset(-3)
                                                                        .addBucketCounts(4)
                                                                        .addBucketCounts(2))
                                                        .setNegative(
                                                                ExponentialHistogramDataPoint.Buckets.newBuilder()
                                                                        .setOffset(-1)
                                                                        .addBucketCounts(2))
                                                        .setMin(-4)
                                                        .setMax(8)
                                                        .addExemplars(Exemplar.newBuilder().setAsInt(1).setSpanId(hex(SPAN)))))
                        .build();
        Metric summary =
                Metric.newBuilder()
                        .setName("my.summary")
                        .setSummary(
                                Summary.newBuilder()
                                        .addDataPoints(
                                                SummaryDataPoint.newBuilder()
                                                        .setCount(4)
                                                        .setSum(10)
                                                        .addQuantileValues(
                                                                SummaryDataPoint.ValueAtQuantile.newBuilder()
                                                                        .setQuantile(0.5)
                                                                        .setValue(2))
                                                        .addQuantileValues(
                                                                SummaryDataPoint.ValueAtQuantile.newBuilder()
                                                                        .setQuantile(1)
                                                                        .setValue(Double.POSITIVE_INFINITY))
                                                        .setFlags(1))
                                        .addDataPoints(
                                                SummaryDataPoint.newBuilder()
                                                        .addQuantileValues(SummaryDataPoint.ValueAtQuantile.getDefaultInstance())))
                        .build();
        ResourceMetrics resourceMetrics =
                ResourceMetrics.newBuilder()
                        .setResource(Resource.newBuilder().addAttributes(kv("service.name", str("my.service"))))
                        .addScopeMetrics(
                                ScopeMetrics.newBuilder()
                                        .setScope(InstrumentationScope.newBuilder().setName("my.library"))
                                        .addMetrics(gauge)
                                        .addMetrics(sum)
                                        .addMetrics(delta)
                                        .addMetrics(histogram)
                                        .addMetrics(exponential)
                                        .addMetrics(summary))
                        .build();

        ExportMetricsServiceRequest r = parse(json, ExportMetricsServiceRequest.getDefaultInstance());
        assertThat(r).isEqualTo(ExportMetricsServiceRequest.newBuilder().addResourceMetrics(resourceMetrics).build());
        assertThat(parse(json, MetricsData.getDefaultInstance()))
                .isEqualTo(MetricsData.newBuilder().addResourceMetrics(resourceMetrics).build());

        // proto3 optional fields: present at zero, absent when missing or null
        ScopeMetrics scope = r.getResourceMetrics(0).getScopeMetrics(0);
        HistogramDataPoint withMin = scope.getMetrics(3).getHistogram().getDataPoints(0);
        HistogramDataPoint withoutMin = scope.getMetrics(3).getHistogram().getDataPoints(1);
        assertThat(withMin.hasMin()).isTrue();
        assertThat(withMin.hasSum()).isTrue();
        assertThat(withoutMin.hasMin()).isFalse();
        assertThat(withoutMin.hasMax()).isFalse();
        assertThat(withoutMin.hasSum()).isFalse();
        assertThat(scope.getMetrics(0).getGauge().getDataPoints(0).getValueCase())
                .isEqualTo(NumberDataPoint.ValueCase.AS_INT);
        assertThat(scope.getMetrics(1).getSum().getDataPoints(0).getExemplars(0).getValueCase())
                .isEqualTo(Exemplar.ValueCase.AS_DOUBLE);
    }

    @Test
    void rejectsBadMetrics() {
        String prefix = "{\"resourceMetrics\":[{\"scopeMetrics\":[{\"metrics\":[{\"histogram\":{\"dataPoints\":[{";
        assertThatThrownBy(() -> parse(prefix + "\"bucketCounts\":[1,null]}]}}]}]}]}", ExportMetricsServiceRequest.getDefaultInstance()))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessage("resourceMetrics[0].scopeMetrics[0].metrics[0].histogram.dataPoints[0].bucketCounts[1] must not be null");
        assertThatThrownBy(() -> parse(prefix + "\"explicitBounds\":[1,\"x\"]}]}}]}]}]}", ExportMetricsServiceRequest.getDefaultInstance()))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessage("resourceMetrics[0].scopeMetrics[0].metrics[0].histogram.dataPoints[0].explicitBounds[1] is not a number: x");
        assertThatThrownBy(() -> parse(prefix + "\"bucketCounts\":\"1\"}]}}]}]}]}", ExportMetricsServiceRequest.getDefaultInstance()))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessageEndingWith("dataPoints[0].bucketCounts must be a JSON array, got a string");
        assertThatThrownBy(() -> parse(prefix + "\"exemplars\":[{\"traceId\":\"AQIDBAUGBwgJCgsMDQ4PEA==\"}]}]}}]}]}]}", ExportMetricsServiceRequest.getDefaultInstance()))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessageEndingWith("dataPoints[0].exemplars[0].traceId must be 32 hex digits, got 24");
        assertThatThrownBy(
                        () -> parse(
                                "{\"resourceMetrics\":[{\"scopeMetrics\":[{\"metrics\":[{\"sum\":{\"aggregationTemporality\":\"CUMULATIVE\"}}]}]}]}",
                                ExportMetricsServiceRequest.getDefaultInstance()))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessageEndingWith("metrics[0].sum.aggregationTemporality has an unknown AggregationTemporality value: CUMULATIVE");
    }

    @org.junit.jupiter.api.Test
    void negativeZeroKeepsItsSign() throws Exception {
        String json = "{\"resourceMetrics\":[{\"scopeMetrics\":[{\"metrics\":[{\"gauge\":{\"dataPoints\":["
                + "{\"asDouble\":-0},{\"asDouble\":\"-0\"},{\"asDouble\":-0.0},{\"asDouble\":0}]}}]}]}]}";
        io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest r = OtlpJsonParser.parse(
                json.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest.getDefaultInstance());
        java.util.List<Long> bits = new java.util.ArrayList<>();
        for (io.opentelemetry.proto.metrics.v1.NumberDataPoint p
                : r.getResourceMetrics(0).getScopeMetrics(0).getMetrics(0).getGauge().getDataPointsList()) {
            bits.add(Double.doubleToRawLongBits(p.getAsDouble()));
        }
        org.assertj.core.api.Assertions.assertThat(bits).containsExactly(
                Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE, 0L);
    }
}
