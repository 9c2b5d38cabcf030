package io.tributary.tables.coroot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.tributary.otlp.GoFloat;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Attribute values against what Coroot's {@code valueToString} ({@code collector/utils.go}) gives:
 * the expected texts follow Go's {@code strconv} and {@code encoding/json} rules, written out here.
 */
class CorootValuesTest {

    private final CorootValues values = new CorootValues(1 << 20, () -> new IllegalStateException("too big"));

    private String text(AnyValue v) {
        return new String(values.toText(v), StandardCharsets.ISO_8859_1);
    }

    private static AnyValue s(String s) {
        return AnyValue.newBuilder().setStringValue(s).build();
    }

    private static AnyValue d(double d) {
        return AnyValue.newBuilder().setDoubleValue(d).build();
    }

    private static AnyValue array(AnyValue... vs) {
        return AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder().addAllValues(List.of(vs))).build();
    }

    private static KeyValue kv(String k, AnyValue v) {
        return KeyValue.newBuilder().setKey(k).setValue(v).build();
    }

    private static AnyValue bytes(int... bs) {
        byte[] b = new byte[bs.length];
        for (int i = 0; i < bs.length; i++) {
            b[i] = (byte) bs[i];
        }
        return AnyValue.newBuilder().setBytesValue(ByteString.copyFrom(b)).build();
    }

    @Test
    void scalarsAsStrconvFormatsThem() {
        assertThat(text(s("GET /api"))).isEqualTo("GET /api");
        assertThat(text(AnyValue.newBuilder().setBoolValue(true).build())).isEqualTo("true");
        assertThat(text(AnyValue.newBuilder().setBoolValue(false).build())).isEqualTo("false");
        assertThat(text(AnyValue.newBuilder().setIntValue(-42).build())).isEqualTo("-42");
        assertThat(text(AnyValue.newBuilder().setIntValue(Long.MIN_VALUE).build())).isEqualTo("-9223372036854775808");
        // FormatFloat(v, 'f', -1, 64): shortest digits, never an exponent
        assertThat(text(d(1.5))).isEqualTo("1.5");
        assertThat(text(d(100))).isEqualTo("100");
        assertThat(text(d(1e21))).isEqualTo("1000000000000000000000");
        assertThat(text(d(1e-7))).isEqualTo("0.0000001");
        assertThat(text(d(0.1 + 0.2))).isEqualTo("0.30000000000000004");
        assertThat(text(d(-0.0))).isEqualTo("-0");
        assertThat(text(d(0))).isEqualTo("0");
        assertThat(text(d(5e-324))).isEqualTo("0." + "0".repeat(323) + "5");
        assertThat(text(d(Double.MAX_VALUE))).isEqualTo("17976931348623157" + "0".repeat(292));
        assertThat(text(d(Double.NaN))).isEqualTo("NaN");
        assertThat(text(d(Double.POSITIVE_INFINITY))).isEqualTo("+Inf");
        assertThat(text(d(Double.NEGATIVE_INFINITY))).isEqualTo("-Inf");
        assertThat(GoFloat.plain(-5e-324)).hasSize(GoFloat.MAX_PLAIN_LENGTH);
    }

    @Test
    void bytesAreTheirRawBytesAndAnEmptyValueIsGoTypeText() {
        assertThat(values.toText(bytes(0, 0xFF, 'a'))).containsExactly(0, 0xFF, 'a');
        assertThat(text(AnyValue.getDefaultInstance())).isEqualTo("unknown attribute value type: <nil>");
    }

    @Test
    void arraysAndKvlistsAreJsonOfTheirValuesStrings() {
        AnyValue kvlist = AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder()
                .addValues(kv("b", AnyValue.newBuilder().setIntValue(1).build()))
                .addValues(kv("a", s("x")))
                .addValues(kv("b", AnyValue.newBuilder().setIntValue(2).build()))).build();
        assertThat(text(kvlist)).as("keys sorted, the last of a repeated key").isEqualTo("{\"a\":\"x\",\"b\":\"2\"}");
        assertThat(text(array(s("a"), AnyValue.newBuilder().setIntValue(1).build(), AnyValue.newBuilder().setBoolValue(true).build(),
                d(1.5), array(s("x"), s("y")), kvlist)))
                .isEqualTo("[\"a\",\"1\",\"true\",\"1.5\",\"[\\\"x\\\",\\\"y\\\"]\",\"{\\\"a\\\":\\\"x\\\",\\\"b\\\":\\\"2\\\"}\"]");
        assertThat(text(array())).isEqualTo("[]");
        assertThat(text(AnyValue.newBuilder().setKvlistValue(KeyValueList.getDefaultInstance()).build())).isEqualTo("{}");
        assertThat(text(array(AnyValue.getDefaultInstance()))).isEqualTo("[\"unknown attribute value type: \\u003cnil\\u003e\"]");
    }

    @Test
    void stringsInJsonAreEscapedAsEncodingJsonDoes() {
        assertThat(text(array(s("<>&\"\\\n\r\t\b\f\u0001\u001f\u007f\u2028\u2029é€😀"))))
                .isEqualTo(new String(("[\"\\u003c\\u003e\\u0026\\\"\\\\\\n\\r\\t\\b\\f\\u0001\\u001f\u007f\\u2028\\u2029é€😀\"]")
                        .getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1));
        // bytes that do not start valid UTF-8: one U+FFFD each, as utf8.DecodeRune reads them
        assertThat(text(array(bytes(0xE2, 0x82, 'a', 0xFF, 0xC0, 0x80, 0xED, 0xA0, 0x80, 0xF4, 0x90, 0x80, 0x80))))
                .isEqualTo("[\"" + "\\ufffd".repeat(2) + "a" + "\\ufffd".repeat(10) + "\"]");
    }

    @Test
    void aRepeatedKeyKeepsItsLastValue() {
        Map<ByteString, byte[]> m = values.toMap(List.of(kv("k", s("1")), kv("j", s("2")), kv("k", s("3"))));
        assertThat(m).hasSize(2);
        assertThat(new String(m.get(ByteString.copyFromUtf8("k")), StandardCharsets.UTF_8)).isEqualTo("3");
    }

    @Test
    void nestingThatGrowsExponentiallyStopsAtTheBound() {
        AnyValue v = s("\"");
        for (int i = 0; i < 40; i++) {
            v = array(v); // each level escapes the quotes and backslashes of the one inside: 2^40 bytes
        }
        AnyValue deep = v;
        assertThatThrownBy(() -> values.toText(deep)).isInstanceOf(IllegalStateException.class).hasMessage("too big");
        AnyValue shallow = array(array(s("\"")));
        assertThat(text(shallow)).isEqualTo("[\"[\\\"\\\\\\\"\\\"]\"]");
    }
}
