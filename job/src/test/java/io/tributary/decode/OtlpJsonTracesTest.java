package io.tributary.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.trace.v1.Span;
import io.tributary.transcode.InvalidOtlpException;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/** OTLP/JSON edge cases: the spec's example, enum names, 64-bit ints as strings or numbers, snake_case, nulls. */
class OtlpJsonTracesTest {

    static ExportTraceServiceRequest parse(String json) throws IOException {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        return OtlpJsonTraces.parse(b, 0, b.length);
    }

    /** The example from opentelemetry-proto's examples/trace.json. */
    @Test
    void specExample() throws IOException {
        ExportTraceServiceRequest r =
                parse("{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"my.service\"}}]},"
                        + "\"scopeSpans\":[{\"scope\":{\"name\":\"my.library\",\"version\":\"1.0.0\",\"attributes\":[{\"key\":\"my.scope.attribute\",\"value\":{\"stringValue\":\"some scope attribute\"}}]},"
                        + "\"spans\":[{\"traceId\":\"5B8EFFF798038103D269B633813FC60C\",\"spanId\":\"EEE19B7EC3C1B174\",\"parentSpanId\":\"EEE19B7EC3C1B173\","
                        + "\"name\":\"I'm a server span\",\"startTimeUnixNano\":\"1544712660000000000\",\"endTimeUnixNano\":\"1544712661000000000\",\"kind\":2,"
                        + "\"attributes\":[{\"key\":\"my.span.attr\",\"value\":{\"stringValue\":\"some value\"}}]}]}]}]}");
        Span s = r.getResourceSpans(0).getScopeSpans(0).getSpans(0);
        assertThat(HexFormat.of().formatHex(s.getTraceId().toByteArray())).isEqualTo("5b8efff798038103d269b633813fc60c");
        assertThat(HexFormat.of().formatHex(s.getSpanId().toByteArray())).isEqualTo("eee19b7ec3c1b174");
        assertThat(HexFormat.of().formatHex(s.getParentSpanId().toByteArray())).isEqualTo("eee19b7ec3c1b173");
        assertThat(s.getName()).isEqualTo("I'm a server span");
        assertThat(s.getStartTimeUnixNano()).isEqualTo(1544712660000000000L);
        assertThat(s.getEndTimeUnixNano()).isEqualTo(1544712661000000000L);
        assertThat(s.getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_SERVER);
        assertThat(s.getAttributes(0).getValue().getStringValue()).isEqualTo("some value");
        assertThat(r.getResourceSpans(0).getScopeSpans(0).getScope().getVersion()).isEqualTo("1.0.0");
        assertThat(r.getResourceSpans(0).getScopeSpans(0).getScope().getAttributes(0).getKey()).isEqualTo("my.scope.attribute");
    }

    @Test
    void enumsByNameIntegersAsNumbersSnakeCaseAndNulls() throws IOException {
        ExportTraceServiceRequest r =
                parse("{\"resource_spans\":[{\"scope_spans\":[{\"spans\":[{\"trace_id\":\"\",\"span_id\":null,"
                        + "\"kind\":\"SPAN_KIND_CONSUMER\",\"start_time_unix_nano\":1544712660000000000,\"endTimeUnixNano\":1.5447126610E18,"
                        + "\"status\":{\"code\":\"STATUS_CODE_ERROR\",\"message\":\"boom\"},\"unknownField\":{\"x\":[1,2]},"
                        + "\"attributes\":[{\"key\":\"i\",\"value\":{\"intValue\":\"-9223372036854775808\"}},"
                        + "{\"key\":\"j\",\"value\":{\"int_value\":12}},{\"key\":\"d\",\"value\":{\"doubleValue\":\"NaN\"}},"
                        + "{\"key\":\"e\",\"value\":{\"doubleValue\":\"-Infinity\"}},{\"key\":\"f\",\"value\":{\"doubleValue\":2}},"
                        + "{\"key\":\"b\",\"value\":{\"bytesValue\":\"AQID\"}},{\"key\":\"u\",\"value\":{\"bytesValue\":\"-_8\"}},"
                        + "{\"key\":\"n\",\"value\":null},{\"key\":\"t\",\"value\":{\"boolValue\":true}},"
                        + "{\"key\":\"a\",\"value\":{\"arrayValue\":{\"values\":[{\"stringValue\":\"x\"},{\"kvlistValue\":{\"values\":[{\"key\":\"k\",\"value\":{\"intValue\":1}}]}}]}}}]}]}]}]}");
        Span s = r.getResourceSpans(0).getScopeSpans(0).getSpans(0);
        assertThat(s.getTraceId().isEmpty()).isTrue();
        assertThat(s.getSpanId().isEmpty()).isTrue();
        assertThat(s.getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_CONSUMER);
        assertThat(s.getStartTimeUnixNano()).isEqualTo(1544712660000000000L);
        assertThat(s.getEndTimeUnixNano()).isEqualTo(1544712661000000000L);
        assertThat(s.getStatus().getCodeValue()).isEqualTo(2);
        assertThat(s.getStatus().getMessage()).isEqualTo("boom");
        assertThat(s.getAttributes(0).getValue().getIntValue()).isEqualTo(Long.MIN_VALUE);
        assertThat(s.getAttributes(1).getValue().getIntValue()).isEqualTo(12);
        assertThat(s.getAttributes(2).getValue().getDoubleValue()).isNaN();
        assertThat(s.getAttributes(3).getValue().getDoubleValue()).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(s.getAttributes(4).getValue().getValueCase()).isEqualTo(AnyValue.ValueCase.DOUBLE_VALUE);
        assertThat(s.getAttributes(5).getValue().getBytesValue().toByteArray()).containsExactly(1, 2, 3);
        assertThat(s.getAttributes(6).getValue().getBytesValue().toByteArray()).containsExactly(0xfb, 0xff);
        assertThat(s.getAttributes(7).getValue().getValueCase()).isEqualTo(AnyValue.ValueCase.VALUE_NOT_SET);
        assertThat(s.getAttributes(8).getValue().getBoolValue()).isTrue();
        AnyValue arr = s.getAttributes(9).getValue();
        assertThat(arr.getArrayValue().getValues(1).getKvlistValue().getValues(0).getValue().getIntValue()).isEqualTo(1);
    }

    @Test
    void unsignedTimestampsAbove2To63() throws IOException {
        Span s = parse("{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"startTimeUnixNano\":\"18446744073709551615\"}]}]}]}")
                .getResourceSpans(0).getScopeSpans(0).getSpans(0);
        assertThat(s.getStartTimeUnixNano()).isEqualTo(-1L);
    }

    @Test
    void rejectsBadIdsTypesAndSyntax() {
        assertThatThrownBy(() -> parse("{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"traceId\":\"abc\"}]}]}]}"))
                .isInstanceOf(InvalidOtlpException.class).hasMessageContaining("traceId");
        assertThatThrownBy(() -> parse("{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"spanId\":\"zzzzzzzzzzzzzzzz\"}]}]}]}"))
                .isInstanceOf(InvalidOtlpException.class).hasMessageContaining("spanId");
        assertThatThrownBy(() -> parse("{\"resourceSpans\":{\"a\":1}}"))
                .isInstanceOf(InvalidOtlpException.class).hasMessageContaining("resourceSpans");
        assertThatThrownBy(() -> parse("{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"startTimeUnixNano\":\"soon\"}]}]}]}"))
                .isInstanceOf(InvalidOtlpException.class).hasMessageContaining("startTimeUnixNano");
        assertThatThrownBy(() -> parse("{\"resourceSpans\":[")).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> parse("{} {}")).isInstanceOf(InvalidOtlpException.class);
    }

    @Test
    void autoDetectsJsonAfterWhitespace() {
        assertThat(Encoding.AUTO.of(" \n{}".getBytes(StandardCharsets.UTF_8))).isEqualTo(Encoding.OTLP_JSON);
        assertThat(Encoding.AUTO.of(new byte[] {0x0a, 0x00})).isEqualTo(Encoding.OTLP_PROTO);
        assertThat(Encoding.AUTO.of(new byte[0])).isEqualTo(Encoding.OTLP_PROTO);
        assertThat(Encoding.OTLP_JSON.of(new byte[] {0x0a})).isEqualTo(Encoding.OTLP_JSON);
    }
}
