package io.tributary.transcode;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** pdata {@code Value.AsString()} cases; expected strings follow pdata's own tests and Go's JSON encoder. */
class AnyValuesTest {

    static AnyValue s(String v) {
        return AnyValue.newBuilder().setStringValue(v).build();
    }

    static AnyValue i(long v) {
        return AnyValue.newBuilder().setIntValue(v).build();
    }

    static AnyValue d(double v) {
        return AnyValue.newBuilder().setDoubleValue(v).build();
    }

    static AnyValue b(boolean v) {
        return AnyValue.newBuilder().setBoolValue(v).build();
    }

    static AnyValue bytes(byte... v) {
        return AnyValue.newBuilder().setBytesValue(ByteString.copyFrom(v)).build();
    }

    static AnyValue arr(AnyValue... vs) {
        return AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder().addAllValues(List.of(vs))).build();
    }

    static KeyValue kv(String k, AnyValue v) {
        return KeyValue.newBuilder().setKey(k).setValue(v).build();
    }

    static AnyValue map(KeyValue... kvs) {
        return AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder().addAllValues(List.of(kvs))).build();
    }

    @Test
    void scalars() {
        assertThat(AnyValues.asString(s("hello wörld ✓"))).isEqualTo("hello wörld ✓");
        assertThat(AnyValues.asString(s(""))).isEqualTo("");
        assertThat(AnyValues.asString(b(true))).isEqualTo("true");
        assertThat(AnyValues.asString(b(false))).isEqualTo("false");
        assertThat(AnyValues.asString(i(42))).isEqualTo("42");
        assertThat(AnyValues.asString(i(Long.MIN_VALUE))).isEqualTo("-9223372036854775808");
        assertThat(AnyValues.asString(d(1.61803399))).isEqualTo("1.61803399");
        assertThat(AnyValues.asString(d(.000000009))).isEqualTo("9e-9");
        assertThat(AnyValues.asString(d(42))).isEqualTo("42");
        assertThat(AnyValues.asString(d(Double.NaN))).isEqualTo("NaN");
        assertThat(AnyValues.asString(d(Double.POSITIVE_INFINITY))).isEqualTo("Infinity");
        assertThat(AnyValues.asString(d(Double.NEGATIVE_INFINITY))).isEqualTo("-Infinity");
        assertThat(AnyValues.asString(AnyValue.getDefaultInstance())).isEqualTo("");
    }

    @Test
    void bytesAreStandardBase64() {
        assertThat(AnyValues.asString(bytes((byte) 0xfb, (byte) 0xff, (byte) 0x01))).isEqualTo("+/8B");
        assertThat(AnyValues.asString(bytes("hi".getBytes(StandardCharsets.UTF_8)))).isEqualTo("aGk=");
        assertThat(AnyValues.asString(bytes())).isEqualTo("");
    }

    @Test
    void mapRendersAsSortedCompactJson() {
        AnyValue v =
                map(
                        kv("strKey", s("strVal")),
                        kv("intKey", i(7)),
                        kv("floatKey", d(18.6)),
                        kv("boolKey", b(false)),
                        kv("nullKey", AnyValue.getDefaultInstance()),
                        kv("mapKey", map(kv("keyTwo", s("valTwo")), kv("keyOne", s("valOne")))),
                        kv("arrKey", arr(s("strOne"), s("strTwo"))));
        assertThat(AnyValues.asString(v))
                .isEqualTo("{\"arrKey\":[\"strOne\",\"strTwo\"],\"boolKey\":false,\"floatKey\":18.6,\"intKey\":7,"
                        + "\"mapKey\":{\"keyOne\":\"valOne\",\"keyTwo\":\"valTwo\"},\"nullKey\":null,\"strKey\":\"strVal\"}");
    }

    @Test
    void sliceRendersAsCompactJson() {
        assertThat(AnyValues.asString(arr(s("strVal"), i(7), d(18.6), b(false), AnyValue.getDefaultInstance())))
                .isEqualTo("[\"strVal\",7,18.6,false,null]");
        assertThat(AnyValues.asString(arr())).isEqualTo("[]");
        assertThat(AnyValues.asString(map())).isEqualTo("{}");
        assertThat(AnyValues.asString(arr(arr(i(1), arr()), map(kv("a", arr(d(1e21), d(1e-7)))))))
                .isEqualTo("[[1,[]],{\"a\":[1e+21,1e-7]}]");
    }

    @Test
    void jsonEscapingWithoutHtmlEscape() {
        assertThat(AnyValues.asString(map(kv("key", s("<a href=\"x\">&y</a>")))))
                .isEqualTo("{\"key\":\"<a href=\\\"x\\\">&y</a>\"}");
        assertThat(AnyValues.asString(arr(s("<"), s(">"), s("&")))).isEqualTo("[\"<\",\">\",\"&\"]");
        assertThat(AnyValues.asString(arr(s("a\nb\tc\r\b\f\\\u0001\u001f\u007f\u2028\u2029"))))
                .isEqualTo("[\"a\\nb\\tc\\r\\b\\f\\\\\\u0001\\u001f\u007f\\u2028\\u2029\"]");
        assertThat(AnyValues.asString(arr(s("日本語 😀")))).isEqualTo("[\"日本語 😀\"]");
        assertThat(AnyValues.asString(arr(s("bad \ud800 surrogate")))).isEqualTo("[\"bad \\ufffd surrogate\"]");
    }

    @Test
    void mapKeysLastWinsAndByteOrder() {
        assertThat(AnyValues.asString(map(kv("b", i(1)), kv("a", i(2)), kv("b", i(3)))))
                .isEqualTo("{\"a\":2,\"b\":3}");
        // U+FF21 sorts before U+1F600 in UTF-8 although its UTF-16 code unit is larger
        assertThat(AnyValues.asString(map(kv("😀", i(1)), kv("Ａ", i(2)), kv("Z", i(3)))))
                .isEqualTo("{\"Z\":3,\"Ａ\":2,\"😀\":1}");
    }

    @Test
    void nestedBytesAndNonFiniteDoubles() {
        assertThat(AnyValues.asString(arr(bytes((byte) 1, (byte) 2), bytes()))).isEqualTo("[\"AQI=\",null]");
        assertThat(AnyValues.asString(arr(i(1), d(Double.NaN)))).isEqualTo("");
        assertThat(AnyValues.asString(map(kv("x", arr(d(Double.POSITIVE_INFINITY)))))).isEqualTo("");
        assertThat(AnyValues.asString(d(-0.0))).isEqualTo("-0");
    }
}
