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
import io.opentelemetry.proto.common.v1.KeyValue;
import io.tributary.clickhouse.ClickHouseClient;
import io.tributary.clickhouse.body.Compression;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.tables.AnyValues;
import io.tributary.tables.Attributes;
import io.tributary.testing.RealServices;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Our native binary JSON values on the real ClickHouse: what the server stores from our bytes is
 * what it stores when it parses the JSON text the collector's exporter sends.
 */
class JsonColumnITCase {

    @Test
    void rotelExampleRoundTripsByteForByte() throws Exception {
        ClickHouseClient ch = RealServices.clickHouse();
        String t = "`default`." + RealServices.uniqueName("json_golden");
        ch.execute("CREATE TABLE " + t + " (id UInt32, j JSON(a Int64)) ENGINE = MergeTree ORDER BY id");
        Attributes a = Attributes.of(List.of(kv("a", i(42)), kv("b", str("dog")), kv("c", i(98))));
        RowBinaryWriter w = new RowBinaryWriter(64);
        w.writeInt32(1);
        a.writeJson(w, Map.of("a", 0x0A));
        assertThat(HexFormat.of().formatHex(w.toByteArray())).isEqualTo(
                "01000000" + "03" + "0161" + "2a00000000000000" + "0162" + "1503646f67" + "0163" + "0a6200000000000000");
        ch.insert("INSERT INTO " + t + " FORMAT RowBinary", Map.of(), w.toByteArray(), Compression.NONE);
        ch.insert("INSERT INTO " + t + " FORMAT JSONEachRow", Map.of(),
                "{\"id\":2,\"j\":{\"a\":42,\"b\":\"dog\",\"c\":98}}".getBytes(), Compression.NONE);

        assertThat(ch.query("SELECT id, j, toTypeName(j.a), dynamicType(j.b), dynamicType(j.c) FROM " + t
                        + " ORDER BY id FORMAT TSV"))
                .isEqualTo("1\t{\"a\":42,\"b\":\"dog\",\"c\":98}\tInt64\tString\tInt64\n"
                        + "2\t{\"a\":42,\"b\":\"dog\",\"c\":98}\tInt64\tString\tInt64\n");
        // The server writes both rows with the same bytes; and our encoder, given the paths in
        // the server's (hash) order, writes exactly those bytes.
        byte[] row1 = rowBinary("SELECT j FROM " + t + " WHERE id = 1");
        byte[] row2 = rowBinary("SELECT j FROM " + t + " WHERE id = 2");
        assertThat(HexFormat.of().formatHex(row1)).isEqualTo(HexFormat.of().formatHex(row2));
        RowBinaryWriter ordered = new RowBinaryWriter(64);
        Attributes.of(List.of(kv("a", i(42)), kv("c", i(98)), kv("b", str("dog")))).writeJson(ordered, Map.of("a", 0x0A));
        assertThat(HexFormat.of().formatHex(row2)).isEqualTo(HexFormat.of().formatHex(ordered.toByteArray()));
    }

    private static byte[] rowBinary(String sql) throws Exception {
        java.net.http.HttpResponse<byte[]> r = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create(RealServices.clickHouseUrl()))
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(sql + " FORMAT RowBinary"))
                        .build(),
                java.net.http.HttpResponse.BodyHandlers.ofByteArray());
        assertThat(r.statusCode()).as(new String(r.body())).isEqualTo(200);
        return r.body();
    }

    @Test
    void attributesStoreWhatTheExportersJsonTextStores() throws Exception {
        List<KeyValue> attrs = List.of(
                kv("service.name", str("checkout")),
                kv("http.status_code", i(200)),
                kv("ratio", d(0.25)),
                kv("ok", b(true)),
                kv("blob", AnyValue.newBuilder().setBytesValue(ByteString.copyFromUtf8("hi!")).build()),
                kv("k8s", map(kv("pod", map(kv("name", str("p-1")), kv("uid", str("u")))), kv("node", i(3)))),
                kv("ints", arr(i(1), i(2), i(3))),
                kv("floats", arr(i(1), d(1.5))),
                kv("strs", arr(str("a"), str("é"))),
                kv("bools", arr(b(true), b(false))),
                kv("empty_arr", arr()),
                kv("mixed", arr(i(1), str("x"), b(false))),
                kv("objs", arr(map(kv("k", i(1))), map(kv("k", i(2))))),
                kv("unicode ключ", str("значение")),
                kv("", i(1)),
                kv("odd", map(kv("", i(2)), kv("a..b", str("dots")))),
                kv("a", i(5)),
                kv("a.b", i(6)),
                kv("whole", d(1.0)),
                kv("negzero", d(-0.0)),
                kv("big", d(1e19)),
                kv("huge", d(1e21)),
                kv("wholes", arr(d(1.0), d(2.0))),
                kv("nested", arr(arr(i(1)), arr(i(2), i(3)), arr())),
                kv("nestedmix", arr(arr(i(1)), arr(d(1.5)))),
                kv("boolint", arr(b(true), i(1))),
                kv("emptybytes", AnyValue.newBuilder().setBytesValue(ByteString.EMPTY).build()),
                kv("withnull", arr(str("a"), AnyValue.getDefaultInstance(), AnyValue.newBuilder().setBytesValue(ByteString.EMPTY).build())),
                kv("", map(kv("x", i(7)))),
                kv("none", AnyValue.getDefaultInstance()));
        ClickHouseClient ch = RealServices.clickHouse();
        String t = "`default`." + RealServices.uniqueName("json_attrs");
        ch.execute("CREATE TABLE " + t + " (id UInt32, j JSON) ENGINE = MergeTree ORDER BY id");
        insertOursAndTheExporters(ch, t, attrs);

        String out = ch.query("SELECT id, toJSONString(j), toJSONString(JSONAllPathsWithTypes(j)) FROM " + t
                + " ORDER BY id FORMAT TSV");
        String[] rows = out.split("\n");
        assertThat(rows).hasSize(2);
        String[] ours = rows[0].split("\t");
        String[] theirs = rows[1].split("\t");
        assertThat(ours[2]).as("paths and types").isEqualTo(theirs[2]);
        assertThat(ours[1]).as("values").isEqualTo(theirs[1]);
        assertThat(ours[1]).contains("\"service\":{\"name\":\"checkout\"}").contains("\"blob\":\"aGkh\"");
        assertThat(ours[2]).contains("\"http.status_code\":\"Int64\"").contains("\"ints\":\"Array(Nullable(Int64))\"")
                .contains("\"whole\":\"Int64\"").contains("\"big\":\"UInt64\"")
                .contains("\"nested\":\"Array(Array(Nullable(Int64)))\"").contains("\".x\":\"Int64\"");
    }

    @Test
    void dateLikeStringsStayStrings() throws Exception {
        // The one deliberate difference: ClickHouse parsing JSON text turns these into Date and
        // DateTime64; the binary encoding keeps the strings that were sent.
        ClickHouseClient ch = RealServices.clickHouse();
        String t = "`default`." + RealServices.uniqueName("json_dates");
        ch.execute("CREATE TABLE " + t + " (id UInt32, j JSON) ENGINE = MergeTree ORDER BY id");
        List<KeyValue> attrs = List.of(kv("day", str("2024-01-01")), kv("at", str("2024-01-01T10:00:00.123Z")));
        insertOursAndTheExporters(ch, t, attrs);
        assertThat(ch.query("SELECT id, dynamicType(j.day), dynamicType(j.at), toString(j.at) FROM " + t
                        + " ORDER BY id FORMAT TSV"))
                .isEqualTo("1\tString\tString\t2024-01-01T10:00:00.123Z\n"
                        + "2\tDate\tDateTime64(9)\t2024-01-01 10:00:00.123000000\n");
    }

    /**
     * Inserts {@code attrs} into {@code table (id, j JSON)} twice: row 1 as our binary JSON in
     * RowBinary, row 2 as the JSON text the exporter sends, {@code json.Marshal(attributes.AsRaw())},
     * which is AsString of the map.
     */
    private static void insertOursAndTheExporters(ClickHouseClient ch, String table, List<KeyValue> attrs)
            throws Exception {
        RowBinaryWriter w = new RowBinaryWriter(256);
        w.writeInt32(1);
        Attributes.of(attrs).writeJson(w);
        ch.insert("INSERT INTO " + table + " FORMAT RowBinary", Map.of(), w.toByteArray(), Compression.NONE);
        String text = AnyValues.asString(map(attrs));
        ch.insert("INSERT INTO " + table + " FORMAT JSONEachRow", Map.of(),
                ("{\"id\":2,\"j\":" + text + "}").getBytes(StandardCharsets.UTF_8), Compression.NONE);
    }
}
