package io.tributary.tables;

import static io.tributary.testing.Otlp.arr;
import static io.tributary.testing.Otlp.b;
import static io.tributary.testing.Otlp.d;
import static io.tributary.testing.Otlp.i;
import static io.tributary.testing.Otlp.kv;
import static io.tributary.testing.Otlp.map;
import static io.tributary.testing.Otlp.str;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.tributary.rowbinary.RowBinaryWriter;

import org.junit.jupiter.api.Test;

import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/** The native binary JSON encoding, byte for byte (the same bytes are checked on a real server in JsonColumnITCase). */
class BinaryJsonTest {

    private static String hex(Attributes a, Map<String, Integer> typed) {
        RowBinaryWriter w = new RowBinaryWriter(64);
        a.writeJson(w, typed);
        return HexFormat.of().formatHex(w.toByteArray());
    }

    private static String keys(Attributes a) {
        RowBinaryWriter w = new RowBinaryWriter(64);
        a.writeJsonKeys(w);
        return HexFormat.of().formatHex(w.toByteArray());
    }

    @Test
    void rotelExampleWithATypedPath() {
        // {"a":42,"b":"dog","c":98} into JSON(a Int64): a is typed (no tag), b and c dynamic
        Attributes a = Attributes.of(List.of(kv("a", i(42)), kv("b", str("dog")), kv("c", i(98))));
        assertThat(hex(a, Map.of("a", BinaryJson.INT64)))
                .isEqualTo("03" + "0161" + "2a00000000000000" + "0162" + "15" + "03646f67" + "0163" + "0a" + "6200000000000000");
        assertThat(hex(a, Map.of()))
                .isEqualTo("03" + "0161" + "0a2a00000000000000" + "0162" + "1503646f67" + "0163" + "0a6200000000000000");
    }

    @Test
    void scalarsNestingEmptiesAndDuplicates() {
        Attributes a = Attributes.of(List.of(
                kv("f", d(1.5)),
                kv("t", b(true)),
                kv("by", AnyValue.newBuilder().setBytesValue(ByteString.copyFrom(new byte[] {1, 2, 3})).build()),
                kv("x", map(kv("y", i(1)), kv("e", map()))),
                kv("none", AnyValue.getDefaultInstance()),
                kv("dup", i(1)),
                kv("dup", i(2))));
        assertThat(hex(a, Map.of())).isEqualTo("05"
                + "0166" + "0e000000000000f83f"
                + "0174" + "2d01"
                + "026279" + "150441514944" // base64 "AQID"
                + "03782e79" + "0a0100000000000000"
                + "03647570" + "0a0200000000000000");
        // keys: every leaf path once (empty values too, empty maps not), sorted by bytes
        assertThat(keys(a)).isEqualTo("06" + "026279" + "03647570" + "0166" + "046e6f6e65" + "0174" + "03782e79");
    }

    @Test
    void arraysAsClickHouseInfersThem() {
        Attributes a = Attributes.of(List.of(
                kv("ai", arr(i(1), AnyValue.getDefaultInstance())),
                kv("af", arr(i(1), d(2.5))),
                kv("as", arr(str("x"))),
                kv("ae", arr()),
                kv("mix", arr(i(1), str("a"))),
                kv("ao", arr(map(kv("k", i(1)))))));
        assertThat(hex(a, Map.of())).isEqualTo("06"
                + "026169" + "1e230a" + "02" + "000100000000000000" + "01"
                + "026166" + "1e230e" + "02" + "00000000000000f03f" + "000000000000000440"
                + "026173" + "1e2315" + "01" + "000178"
                + "026165" + "1e2315" + "00"
                + "036d6978" + "1e2b20" + "02" + "0a0100000000000000" + "150161"
                + "02616f" + "1e" + "3000800210000000" + "01" + "01" + "016b" + "0a0100000000000000");
    }
}
