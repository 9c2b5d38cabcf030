package io.tributary.tables;

import static io.tributary.testing.Otlp.arr;
import static io.tributary.testing.Otlp.b;
import static io.tributary.testing.Otlp.d;
import static io.tributary.testing.Otlp.i;
import static io.tributary.testing.Otlp.kv;
import static io.tributary.testing.Otlp.map;
import static io.tributary.testing.Otlp.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.proto.common.v1.KeyValue;
import io.tributary.otlp.InvalidProtobufException;
import io.tributary.otlp.proto.ProtoMessages;
import io.tributary.otlp.proto.ProtoReader;
import io.tributary.rowbinary.RowBinaryWriter;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * The JSON flavour from the record's bytes ({@link WireAttributes} with {@link WireJson}) writes
 * exactly what {@link Attributes} and {@link BinaryJson} write from protobuf-java's {@code
 * KeyValue}s of the same bytes: the JSON value and the keys value, for generated attribute lists
 * (every value type, nesting, arrays ClickHouse types every way, repeated keys, dotted keys that
 * meet nested paths, invalid UTF-8, occurrences that merge), shared or not, whichever column comes
 * first; and it allocates nothing to do so.
 */
class WireJsonTest {

    private final WireValues values = new WireValues();

    @Test
    void generatedListsGiveTheReferenceBytes() throws Exception {
        int arrays = 0;
        for (long seed = 0; seed < 20_000; seed++) {
            WireAnyValueGen gen = new WireAnyValueGen(seed, 2);
            List<byte[]> kvs = new ArrayList<>();
            for (int i = new java.util.SplittableRandom(seed).nextInt(8); i > 0; i--) {
                kvs.add(gen.keyValue(0));
            }
            String what = "seed " + seed;
            Reference ref = reference(kvs);
            if (ref.arrays) {
                arrays++;
            }
            for (boolean shared : new boolean[] {false, true}) {
                WireAttributes wire = wire(kvs, shared);
                if (seed % 2 == 0) {
                    assertThat(hex(wire::writeJson)).as(what).isEqualTo(ref.json);
                    assertThat(hex(wire::writeJsonKeys)).as(what).isEqualTo(ref.keys);
                } else {
                    assertThat(hex(wire::writeJsonKeys)).as(what).isEqualTo(ref.keys);
                    assertThat(hex(wire::writeJson)).as(what).isEqualTo(ref.json);
                }
                // again: a shared list copies what it rendered, a row's list renders again
                assertThat(hex(wire::writeJson)).as(what).isEqualTo(ref.json);
                assertThat(hex(wire::writeJsonKeys)).as(what).isEqualTo(ref.keys);
            }
        }
        assertThat(arrays).isGreaterThan(3_000); // lists with array values, which ClickHouse types every way
    }

    /** Many lists in turn through one writer: what one leaves behind does not leak into the next. */
    @Test
    void listsInTurnThroughOneWriter() throws Exception {
        List<List<byte[]>> lists = new ArrayList<>();
        for (long seed = 0; seed < 300; seed++) {
            WireAnyValueGen gen = new WireAnyValueGen(seed, 0);
            List<byte[]> kvs = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                kvs.add(gen.keyValue(0));
            }
            lists.add(kvs);
        }
        WireAttributes resource = wire(lists.get(0), true);
        Reference resourceRef = reference(lists.get(0));
        for (List<byte[]> kvs : lists) {
            WireAttributes row = wire(kvs, false);
            Reference ref = reference(kvs);
            assertThat(hex(resource::writeJson)).isEqualTo(resourceRef.json);
            assertThat(hex(row::writeJson)).isEqualTo(ref.json);
            assertThat(hex(resource::writeJsonKeys)).isEqualTo(resourceRef.keys);
            assertThat(hex(row::writeJsonKeys)).isEqualTo(ref.keys);
        }
    }

    @Test
    void pathsAreBoundedAsTheyAreMade() throws Exception {
        // a long key over many leaves: the paths would be far larger than the record
        WireAnyValueGen.Out leaves = new WireAnyValueGen.Out();
        for (int i = 0; i < 300; i++) {
            WireAnyValueGen.Out kv = new WireAnyValueGen.Out();
            kv.bytes(1, Integer.toString(i).getBytes(StandardCharsets.UTF_8));
            leaves.bytes(1, kv.toByteArray());
        }
        WireAnyValueGen.Out value = new WireAnyValueGen.Out();
        value.bytes(6, leaves.toByteArray());
        WireAnyValueGen.Out kv = new WireAnyValueGen.Out();
        byte[] key = new byte[60_000];
        Arrays.fill(key, (byte) 'k');
        kv.bytes(1, key);
        kv.bytes(2, value.toByteArray());
        WireAttributes wire = wire(List.of(kv.toByteArray()), false);
        assertThatThrownBy(() -> wire.writeJson(new RowBinaryWriter(64)))
                .isInstanceOf(OversizedRecordException.class)
                .hasMessageContaining("characters of JSON paths");
    }

    @Test
    void writingAListAgainAllocatesNothing() throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        List<byte[]> kvs = List.of(
                kv("http.method", str("GET")).toByteArray(),
                kv("http.status_code", i(200)).toByteArray(),
                kv("duration", d(12.5)).toByteArray(),
                kv("ratio", d(3.0)).toByteArray(),
                kv("ok", b(true)).toByteArray(),
                kv("tags", arr(str("a"), str("b"))).toByteArray(),
                kv("mixed", arr(i(1), d(2.5), b(false))).toByteArray(),
                kv("nested", map(kv("x", d(1e-7)), kv("y", map(kv("z", str("deep")))), kv("objs", arr(map(kv("k", i(1))))))).toByteArray(),
                kv("any", arr(str("s"), i(1), arr(i(2)))).toByteArray());
        WireAttributes wire = wire(kvs, false);
        ProtoReader parent = parentOf(kvs);
        ProtoReader scan = new ProtoReader();
        RowBinaryWriter out = new RowBinaryWriter(1 << 16);
        for (int i = 0; i < 20_000; i++) { // warm: scratch grown, code compiled
            out.reset();
            wire.reset(parent);
            addAll(wire, parent, scan);
            wire.writeJson(out);
            wire.writeJsonKeys(out);
        }
        assertThat(HexFormat.of().formatHex(out.toByteArray())).isEqualTo(reference(kvs).json + reference(kvs).keys);
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 10_000; i++) {
            out.reset();
            wire.reset(parent); // a new row's list: read again
            addAll(wire, parent, scan);
            wire.writeJson(out);
            wire.writeJsonKeys(out);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(allocated).as("bytes allocated by 10,000 lists").isLessThan(10_000);
    }

    // ---- the two paths

    private record Reference(String json, String keys, boolean arrays) {}

    private static Reference reference(List<byte[]> kvs) throws InvalidProtobufException {
        List<KeyValue> parsed = new ArrayList<>();
        for (byte[] kv : kvs) {
            parsed.add(ProtoMessages.parse(kv, 0, kv.length, KeyValue.getDefaultInstance()));
        }
        Attributes a = Attributes.of(parsed);
        return new Reference(hex(a::writeJson), hex(a::writeJsonKeys), parsed.stream().anyMatch(kv -> kv.getValue().hasArrayValue()));
    }

    private WireAttributes wire(List<byte[]> kvs, boolean shared) throws InvalidProtobufException {
        ProtoReader parent = parentOf(kvs);
        WireAttributes w = new WireAttributes(values, shared);
        w.reset(parent);
        addAll(w, parent, new ProtoReader());
        return w;
    }

    /** A reader over a message whose field 1 repeats the KeyValues, as a record holds them. */
    private static ProtoReader parentOf(List<byte[]> kvs) {
        WireAnyValueGen.Out list = new WireAnyValueGen.Out();
        for (byte[] kv : kvs) {
            list.bytes(1, kv);
        }
        byte[] b = list.toByteArray();
        return new ProtoReader().reset(b, 0, b.length);
    }

    private static void addAll(WireAttributes w, ProtoReader parent, ProtoReader scan) throws InvalidProtobufException {
        ProtoReader r = scan.reset(parent.buffer(), 0, parent.buffer().length);
        while (r.next()) {
            r.readBytes();
            w.add(r.start(), r.length());
        }
    }

    private static String hex(java.util.function.Consumer<RowBinaryWriter> write) {
        RowBinaryWriter out = new RowBinaryWriter(64);
        write.accept(out);
        return HexFormat.of().formatHex(out.toByteArray());
    }
}
