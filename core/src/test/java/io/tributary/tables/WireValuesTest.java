package io.tributary.tables;

import static io.tributary.testing.Otlp.arr;
import static io.tributary.testing.Otlp.d;
import static io.tributary.testing.Otlp.kv;
import static io.tributary.testing.Otlp.map;
import static io.tributary.testing.Otlp.str;
import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.tributary.otlp.InvalidProtobufException;
import io.tributary.otlp.proto.ProtoMessages;
import io.tributary.otlp.proto.ProtoReader;
import io.tributary.rowbinary.RowBinaryWriter;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.HexFormat;

/**
 * {@link WireValues} writes, from an {@code AnyValue}'s protobuf bytes, exactly the ClickHouse
 * String that {@link AnyValues} (the reference, over protobuf-java's parse of the same bytes) gives:
 * scalars, doubles, and arrays and maps rendered as JSON text straight from the bytes, for values
 * encoded in every way protobuf-java reads as the same message; and it allocates nothing to do so.
 */
class WireValuesTest {

    private final WireValues values = new WireValues();
    private final ProtoReader reader = new ProtoReader();

    @Test
    void generatedValuesGiveTheReferenceText() throws Exception {
        int containers = 0;
        int empty = 0;
        for (long seed = 0; seed < 30_000; seed++) {
            byte[] value = new WireAnyValueGen(seed, seed % 4 == 0 ? 3 : 0).anyValue(0);
            String text = sameAsReference(value);
            AnyValue parsed = ProtoMessages.parse(value, 0, value.length, AnyValue.getDefaultInstance());
            if (parsed.hasArrayValue() || parsed.hasKvlistValue()) {
                containers++;
                if (text.isEmpty()) {
                    empty++;
                }
            }
        }
        // the cases are there: many containers, some of which hold a NaN or an infinity
        assertThat(containers).isGreaterThan(5_000);
        assertThat(empty).isBetween(50, containers / 4);
    }

    @Test
    void valuesAsArraysAndMapsInside() throws Exception {
        assertThat(sameAsReference(map(kv("b", d(1.5)), kv("a", arr(d(1e21), d(1e-7), d(-0.0))), kv("b", d(2))).toByteArray()))
                .isEqualTo("{\"a\":[1e+21,1e-7,-0],\"b\":2}");
        assertThat(sameAsReference(arr(str("\u2028 € \"q\""), d(Double.NaN)).toByteArray())).isEmpty();
        assertThat(sameAsReference(d(0.000001).toByteArray())).isEqualTo("0.000001");
        assertThat(sameAsReference(d(Double.NEGATIVE_INFINITY).toByteArray())).isEqualTo("-Infinity");
    }

    /**
     * A map case, a string, then a map again: pdata (and the outermost value here) starts the map
     * afresh; protobuf-java's parser would keep the first map's entries too. Nested values follow pdata.
     */
    @Test
    void aMessageCaseAfterAnotherStartsAfresh() throws Exception {
        byte[] a = kvBody("A");
        byte[] b = kvBody("B");
        WireAnyValueGen.Out nested = new WireAnyValueGen.Out();
        nested.bytes(6, a);
        nested.bytes(1, "s".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        nested.bytes(6, b);
        WireAnyValueGen.Out outer = new WireAnyValueGen.Out();
        WireAnyValueGen.Out list = new WireAnyValueGen.Out();
        list.bytes(1, nested.toByteArray());
        outer.bytes(5, list.toByteArray());
        assertThat(text(nested.toByteArray())).isEqualTo("{\"B\":\"\"}");
        assertThat(text(outer.toByteArray())).isEqualTo("[{\"B\":\"\"}]");
    }

    /** A KeyValueList's fields holding one entry {@code key: ""}. */
    private static byte[] kvBody(String key) {
        WireAnyValueGen.Out value = new WireAnyValueGen.Out();
        value.bytes(1, new byte[0]);
        WireAnyValueGen.Out kv = new WireAnyValueGen.Out();
        kv.bytes(1, key.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        kv.bytes(2, value.toByteArray());
        WireAnyValueGen.Out list = new WireAnyValueGen.Out();
        list.bytes(1, kv.toByteArray());
        return list.toByteArray();
    }

    private String text(byte[] value) throws InvalidProtobufException {
        RowBinaryWriter got = new RowBinaryWriter(64);
        values.writeAsString(reader.reset(value, 0, value.length), 0, value.length, got);
        byte[] b = got.toByteArray();
        return new String(b, 1, b.length - 1, java.nio.charset.StandardCharsets.UTF_8); // short: a one-byte length
    }

    @Test
    void renderingAMapOrDoubleAllocatesNothing() throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        byte[][] cases = {
            d(123.456).toByteArray(),
            map(kv("z", d(0.1)), kv("a", arr(str("x\ny"), d(1e22))), kv("m", map(kv("k", d(-2.5e-9))))).toByteArray(),
        };
        RowBinaryWriter out = new RowBinaryWriter(1 << 16);
        for (byte[] value : cases) {
            for (int i = 0; i < 20_000; i++) { // warm: scratch grown, code compiled
                out.reset();
                values.writeAsString(reader.reset(value, 0, value.length), 0, value.length, out);
            }
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 10_000; i++) {
                out.reset();
                values.writeAsString(reader.reset(value, 0, value.length), 0, value.length, out);
            }
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertThat(allocated).as("bytes allocated by 10,000 renderings").isLessThan(10_000);
        }
    }

    /** Asserts the wire path writes the reference's String for {@code value} (an AnyValue's bytes); returns the text. */
    private String sameAsReference(byte[] value) throws InvalidProtobufException {
        AnyValue parsed = ProtoMessages.parse(value, 0, value.length, AnyValue.getDefaultInstance());
        String expected = AnyValues.asString(parsed);
        RowBinaryWriter want = new RowBinaryWriter(64);
        want.writeString(expected);
        RowBinaryWriter got = new RowBinaryWriter(64);
        values.writeAsString(reader.reset(value, 0, value.length), 0, value.length, got);
        assertThat(HexFormat.of().formatHex(got.toByteArray()))
                .as("%s from %s", expected, HexFormat.of().formatHex(value))
                .isEqualTo(HexFormat.of().formatHex(want.toByteArray()));
        return expected;
    }
}
