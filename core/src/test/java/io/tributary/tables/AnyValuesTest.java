package io.tributary.tables;

import static io.tributary.testing.Otlp.arr;
import static io.tributary.testing.Otlp.b;
import static io.tributary.testing.Otlp.bytes;
import static io.tributary.testing.Otlp.d;
import static io.tributary.testing.Otlp.i;
import static io.tributary.testing.Otlp.kv;
import static io.tributary.testing.Otlp.map;
import static io.tributary.testing.Otlp.str;
import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.common.v1.AnyValue;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

/** pdata {@code Value.AsString()} cases; expected strings follow pdata's own tests and Go's JSON encoder. */
class AnyValuesTest {

    @Test
    void scalars() {
        assertThat(AnyValues.asString(str("hello wörld ✓"))).isEqualTo("hello wörld ✓");
        assertThat(AnyValues.asString(str(""))).isEqualTo("");
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
                        kv("strKey", str("strVal")),
                        kv("intKey", i(7)),
                        kv("floatKey", d(18.6)),
                        kv("boolKey", b(false)),
                        kv("nullKey", AnyValue.getDefaultInstance()),
                        kv("mapKey", map(kv("keyTwo", str("valTwo")), kv("keyOne", str("valOne")))),
                        kv("arrKey", arr(str("strOne"), str("strTwo"))));
        assertThat(AnyValues.asString(v))
                .isEqualTo("{\"arrKey\":[\"strOne\",\"strTwo\"],\"boolKey\":false,\"floatKey\":18.6,\"intKey\":7,"
                        + "\"mapKey\":{\"keyOne\":\"valOne\",\"keyTwo\":\"valTwo\"},\"nullKey\":null,\"strKey\":\"strVal\"}");
    }

    @Test
    void sliceRendersAsCompactJson() {
        assertThat(AnyValues.asString(arr(str("strVal"), i(7), d(18.6), b(false), AnyValue.getDefaultInstance())))
                .isEqualTo("[\"strVal\",7,18.6,false,null]");
        assertThat(AnyValues.asString(arr())).isEqualTo("[]");
        assertThat(AnyValues.asString(map())).isEqualTo("{}");
        assertThat(AnyValues.asString(arr(arr(i(1), arr()), map(kv("a", arr(d(1e21), d(1e-7)))))))
                .isEqualTo("[[1,[]],{\"a\":[1e+21,1e-7]}]");
    }

    @Test
    void jsonEscapingWithoutHtmlEscape() {
        assertThat(AnyValues.asString(map(kv("key", str("<a href=\"x\">&y</a>")))))
                .isEqualTo("{\"key\":\"<a href=\\\"x\\\">&y</a>\"}");
        assertThat(AnyValues.asString(arr(str("<"), str(">"), str("&")))).isEqualTo("[\"<\",\">\",\"&\"]");
        assertThat(AnyValues.asString(arr(str("a\nb\tc\r\b\f\\\u0001\u001f\u007f\u2028\u2029"))))
                .isEqualTo("[\"a\\nb\\tc\\r\\b\\f\\\\\\u0001\\u001f\u007f\\u2028\\u2029\"]");
        assertThat(AnyValues.asString(arr(str("日本語 😀")))).isEqualTo("[\"日本語 😀\"]");
        assertThat(AnyValues.asString(arr(str("bad \ud800 surrogate")))).isEqualTo("[\"bad \\ufffd surrogate\"]");
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
