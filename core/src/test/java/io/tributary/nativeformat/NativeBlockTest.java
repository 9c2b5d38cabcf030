package io.tributary.nativeformat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tributary.rowbinary.RowBinaryWriter;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

class NativeBlockTest {

    private static byte[] header(String... namesThenTypes) {
        RowBinaryWriter w = new RowBinaryWriter(256);
        w.writeVarUInt(namesThenTypes.length / 2);
        for (String s : namesThenTypes) {
            w.writeString(s);
        }
        return w.toByteArray();
    }

    /**
     * The bytes ClickHouse 26.7 itself writes for {@code SELECT CAST('a' AS LowCardinality(String)) AS s,
     * CAST(map('k','v','k2','v2') AS Map(LowCardinality(String),String)) AS m, [toDateTime64(1,9)] AS d,
     * CAST(['x','y'] AS Array(LowCardinality(String))) AS al FORMAT Native}: the same row, encoded here, is
     * byte for byte the same block (dictionaries in first-seen order after the default '').
     */
    @Test
    void oneRowIsTheBlockClickHouseWrites() {
        String expected = "0401"
                + "0173" + "164c6f7743617264696e616c69747928537472696e6729"
                + "0100000000000000" + "0006000000000000" + "0200000000000000" + "00" + "0161" + "0100000000000000" + "01"
                + "016d" + "234d6170284c6f7743617264696e616c69747928537472696e67292c20537472696e6729"
                + "0100000000000000" + "0200000000000000" + "0006000000000000" + "0300000000000000" + "00" + "016b" + "026b32"
                + "0200000000000000" + "0102" + "0176" + "027632"
                + "0164" + "144172726179284461746554696d65363428392929" + "0100000000000000" + "00ca9a3b00000000"
                + "02616c" + "1d4172726179284c6f7743617264696e616c69747928537472696e672929"
                + "0100000000000000" + "0200000000000000" + "0006000000000000" + "0300000000000000" + "00" + "0178" + "0179"
                + "0200000000000000" + "0102";
        NativeBlock b = NativeBlock.forHeader(header("s", "m", "d", "al",
                "LowCardinality(String)", "Map(LowCardinality(String), String)", "Array(DateTime64(9))",
                "Array(LowCardinality(String))"));
        RowBinaryWriter row = new RowBinaryWriter(64);
        row.writeString("a");
        row.writeMapSize(2);
        row.writeString("k");
        row.writeString("v");
        row.writeString("k2");
        row.writeString("v2");
        row.writeArrayLength(1);
        row.writeInt64(1_000_000_000L);
        row.writeArrayLength(2);
        row.writeString("x");
        row.writeString("y");
        b.addRows(row.buffer(), 0, row.size(), 1);
        assertEquals(expected, HexFormat.of().formatHex(b.toByteArray()));
        NativeBlock.Rows back = NativeBlock.rows(b.toByteArray(), row.size()); // the exact bound the sink gives
        assertArrayEquals(row.toByteArray(), back.data());
        assertArrayEquals(new int[] {row.size()}, back.rowEnds());
    }

    /** {@code SELECT CAST([] AS Array(LowCardinality(String))) AS al FORMAT Native}: no dictionary for no values. */
    @Test
    void anEmptyLowCardinalityColumnIsItsPrefixOnly() {
        NativeBlock b = NativeBlock.forHeader(header("al", "Array(LowCardinality(String))"));
        byte[] row = {0};
        b.addRows(row, 0, 1, 1);
        assertEquals("0101" + "02616c" + "1d4172726179284c6f7743617264696e616c69747928537472696e672929"
                + "0100000000000000" + "0000000000000000", HexFormat.of().formatHex(b.toByteArray()));
    }

    @Test
    void typesNativeIsNotWrittenForKeepTheTableInRowBinary() {
        assertNull(NativeBlock.forHeader(header("a", "JSON")));
        assertNull(NativeBlock.forHeader(header("a", "s", "String", "Tuple(a String, b UInt8)")));
        assertNull(NativeBlock.forHeader(header("a", "Array(JSON(max_dynamic_paths = 8))")));
        assertNotNull(NativeBlock.forHeader(header("a", "LowCardinality(Nullable(String))")));
    }

    /** A LowCardinality of another type is sent as that type, for the server to convert. */
    @Test
    void otherLowCardinalitiesAreDeclaredAsTheirInnerType() {
        NativeBlock b = NativeBlock.forHeader(header("a", "b", "LowCardinality(Nullable(String))", "LowCardinality(UInt32)"));
        byte[] row = {1, 7, 0, 0, 0}; // a null, then 7: a block of no rows is written as nothing
        b.addRows(row, 0, row.length, 1);
        byte[] block = b.toByteArray();
        String text = new String(block, java.nio.charset.StandardCharsets.ISO_8859_1);
        assertEquals(true, text.contains("Nullable(String)") && !text.contains("LowCardinality"), text);
    }

    @Test
    void rowsThatDoNotFillTheirBytesAreRefused() {
        NativeBlock b = NativeBlock.forHeader(header("a", "UInt32"));
        byte[] data = new byte[9];
        assertThrows(IllegalStateException.class, () -> b.addRows(data, 0, 9, 2));
    }

    private static final String[] TYPES = {
        "String", "LowCardinality(String)", "UInt8", "Int32", "UInt64", "Float64", "DateTime64(9)", "DateTime('UTC')",
        "Bool", "UUID", "FixedString(3)", "Nullable(String)", "Nullable(UInt64)", "LowCardinality(Nullable(String))",
        "Array(UInt64)", "Array(Float64)", "Array(LowCardinality(String))", "Array(Nullable(String))",
        "Map(LowCardinality(String), String)", "Map(String, String)", "Array(Map(LowCardinality(String), String))",
        "Array(DateTime64(9))", "Array(Array(LowCardinality(String)))", "Map(LowCardinality(String), Array(UInt64))",
    };

    /** Random rows of every type, several blocks' worth: RowBinary → Native → RowBinary gives every byte back. */
    @Test
    void randomRowsOfEveryTypeComeBackByteForByte() {
        Random rnd = new Random(19);
        for (int round = 0; round < 30; round++) {
            int columns = 1 + rnd.nextInt(6);
            List<String> names = new ArrayList<>();
            List<String> types = new ArrayList<>();
            for (int c = 0; c < columns; c++) {
                names.add("c" + c);
                types.add(TYPES[rnd.nextInt(TYPES.length)]);
            }
            List<String> h = new ArrayList<>(names);
            h.addAll(types);
            NativeBlock b = NativeBlock.forHeader(header(h.toArray(new String[0])));
            RowBinaryWriter all = new RowBinaryWriter(1024);
            List<Integer> ends = new ArrayList<>();
            int rows = rnd.nextInt(3) == 0 ? rnd.nextInt(3) : rnd.nextInt(2000);
            int added = 0;
            while (added < rows) {
                int n = 1 + rnd.nextInt(Math.min(50, rows - added));
                RowBinaryWriter chunk = new RowBinaryWriter(256);
                for (int r = 0; r < n; r++) {
                    for (String t : types) {
                        value(t, chunk, rnd);
                    }
                    all.writeRaw(chunk.buffer(), 0, 0);
                    ends.add(all.size() + chunk.size());
                }
                all.writeRaw(chunk.buffer(), 0, chunk.size());
                b.addRows(chunk.buffer(), 0, chunk.size(), n);
                added += n;
            }
            NativeBlock.Rows back = NativeBlock.rows(b.toByteArray(), all.size()); // exactly the rows' bytes, as the sink asks
            assertArrayEquals(all.toByteArray(), back.data(), "types " + types);
            assertArrayEquals(ends.stream().mapToInt(Integer::intValue).toArray(), back.rowEnds(), "types " + types);
            b.clear();
            assertEquals(0, b.rows());
            assertEquals(0, NativeBlock.rows(b.toByteArray(), Integer.MAX_VALUE).rowEnds().length);
        }
    }

    /**
     * Rows whose map equals the previous row's repeat its keys and values instead of reading them
     * again, and a value equal to the previous row's takes its key: runs of equal rows, then
     * others, then the first again, across several adds and a clear, come back byte for byte.
     */
    @Test
    void runsOfEqualRowsComeBackByteForByte() {
        NativeBlock b = NativeBlock.forHeader(header("service", "resource", "span", "n",
                "LowCardinality(String)", "Map(LowCardinality(String), String)", "Map(String, String)", "UInt32"));
        Random rnd = new Random(7);
        for (int round = 0; round < 3; round++) {
            RowBinaryWriter all = new RowBinaryWriter(1024);
            int rows = 0;
            for (int chunk = 0; chunk < 20; chunk++) {
                RowBinaryWriter w = new RowBinaryWriter(256);
                int resource = rnd.nextInt(3);
                int n = 1 + rnd.nextInt(8);
                for (int r = 0; r < n; r++) {
                    w.writeString("svc" + resource);
                    w.writeMapSize(resource);
                    for (int k = 0; k < resource; k++) {
                        w.writeString("k" + k);
                        w.writeString("v" + resource);
                    }
                    int spanAttrs = rnd.nextInt(2);
                    w.writeMapSize(spanAttrs);
                    for (int k = 0; k < spanAttrs; k++) {
                        w.writeString("a");
                        w.writeString(rnd.nextBoolean() ? "x" : "y");
                    }
                    w.writeInt32(rnd.nextInt(3));
                }
                b.addRows(w.buffer(), 0, w.size(), n);
                all.writeRaw(w.buffer(), 0, w.size());
                rows += n;
            }
            NativeBlock.Rows back = NativeBlock.rows(b.toByteArray(), all.size());
            assertArrayEquals(all.toByteArray(), back.data(), "round " + round);
            assertEquals(rows, back.rowEnds().length);
            b.clear();
        }
    }

    /** More distinct values than a UInt8 index holds: the indexes widen to UInt16, then UInt32. */
    @Test
    void largeDictionariesWidenTheirIndexes() {
        for (int distinct : new int[] {255, 256, 257, 65_535, 65_536, 70_000}) {
            NativeBlock b = NativeBlock.forHeader(header("a", "LowCardinality(String)"));
            RowBinaryWriter w = new RowBinaryWriter(1 << 20);
            for (int i = 0; i < distinct; i++) {
                w.writeString("v" + i);
            }
            w.writeString("v0");
            w.writeString("");
            b.addRows(w.buffer(), 0, w.size(), distinct + 2);
            assertArrayEquals(w.toByteArray(), NativeBlock.rows(b.toByteArray(), w.size()).data(), distinct + " distinct");
        }
    }

    private static final String[] WORDS = {"", "a", "service.name", "http.method", "GET", "ünïcødé", "x".repeat(300)};

    private static void value(String type, RowBinaryWriter w, Random rnd) {
        switch (type) {
            case "String":
            case "LowCardinality(String)":
                w.writeString(rnd.nextInt(4) == 0 ? "r" + rnd.nextInt(1000) : WORDS[rnd.nextInt(WORDS.length)]);
                return;
            case "UInt8":
            case "Bool":
                w.writeUInt8(rnd.nextInt(2));
                return;
            case "Int32":
            case "DateTime('UTC')":
                w.writeInt32(rnd.nextInt());
                return;
            case "UInt64":
            case "DateTime64(9)":
                w.writeInt64(rnd.nextLong());
                return;
            case "Float64":
                w.writeFloat64(rnd.nextGaussian());
                return;
            case "UUID":
                w.writeInt64(rnd.nextLong());
                w.writeInt64(rnd.nextLong());
                return;
            case "FixedString(3)":
                w.writeRaw(new byte[] {(byte) rnd.nextInt(), 0, (byte) rnd.nextInt()}, 0, 3);
                return;
            default:
        }
        if (type.startsWith("Nullable(") || type.equals("LowCardinality(Nullable(String))")) {
            boolean isNull = rnd.nextInt(3) == 0;
            w.writeUInt8(isNull ? 1 : 0);
            if (!isNull) {
                value(type.contains("String") ? "String" : "UInt64", w, rnd);
            }
            return;
        }
        int n = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(6);
        if (type.startsWith("Array(")) {
            String inner = type.substring(6, type.length() - 1);
            w.writeArrayLength(n);
            for (int i = 0; i < n; i++) {
                value(inner, w, rnd);
            }
            return;
        }
        if (type.startsWith("Map(")) {
            String value = type.endsWith("Array(UInt64))") ? "Array(UInt64)" : "String";
            w.writeMapSize(n);
            for (int i = 0; i < n; i++) {
                value("String", w, rnd);
                value(value, w, rnd);
            }
            return;
        }
        throw new IllegalArgumentException(type);
    }

    /**
     * Rows ending in a short varint-prefixed value read back within exactly their bytes: the
     * writer makes room for a ten-byte varint before it writes one, which once refused a batch
     * whose last value was a one-byte length (seen in the refused-rows test: a Native batch that
     * could never be split, again after every restart).
     */
    @Test
    void rowsEndingInAShortLengthReadBackWithinExactlyTheirBytes() {
        NativeBlock b = NativeBlock.forHeader(header("a", "m", "UInt8", "Map(LowCardinality(String), String)"));
        RowBinaryWriter w = new RowBinaryWriter(64);
        w.writeUInt8(1);
        w.writeMapSize(0);
        b.addRows(w.buffer(), 0, w.size(), 1);
        assertArrayEquals(w.toByteArray(), NativeBlock.rows(b.toByteArray(), w.size()).data());
    }

    @Test
    void theInverseRefusesWhatIsNotABlock() {
        NativeBlock b = NativeBlock.forHeader(header("a", "String"));
        byte[] one = {3, 'a', 'b', 'c'};
        b.addRows(one, 0, one.length, 1);
        byte[] block = b.toByteArray();
        assertThrows(IllegalStateException.class, () -> NativeBlock.rows(Arrays.copyOf(block, block.length - 1), 100));
        assertThrows(IllegalStateException.class, () -> NativeBlock.rows(Arrays.copyOf(block, block.length + 1), 100));
        assertThrows(IllegalStateException.class, () -> NativeBlock.rows(block, 3)); // 4 bytes of rows, 3 allowed
    }
}
