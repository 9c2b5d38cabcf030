package io.tributary.rowbinary;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Golden bytes: each case encodes the value of a query with {@link RowBinaryWriter} and compares
 * with what the real ClickHouse 26.7 returns for {@code <query> FORMAT RowBinary}, kept in
 * {@code rowbinary-golden.tsv} next to the query.
 */
class RowBinaryWriterTest {

    private static final long T1 = 1_764_460_800_123_456_789L; // 2025-11-30 00:00:00.123456789 UTC

    private static Map<String, Consumer<RowBinaryWriter>> cases() {
        Map<String, Consumer<RowBinaryWriter>> c = new LinkedHashMap<>();
        c.put("SELECT 0::UInt64", w -> w.writeUInt64(0));
        c.put("SELECT 1234567890123::UInt64", w -> w.writeUInt64(1234567890123L));
        c.put("SELECT 18446744073709551615::UInt64", w -> w.writeUInt64(-1L));
        c.put("SELECT -1::Int64", w -> w.writeInt64(-1));
        c.put("SELECT 1.5::Float64", w -> w.writeFloat64(1.5));
        c.put("SELECT -0.0::Float64", w -> w.writeFloat64(-0.0));
        c.put("SELECT ''::String", w -> w.writeString(""));
        c.put("SELECT 'hello'::String", w -> w.writeString("hello"));
        c.put("SELECT 'ünï 😀 日本'::String", w -> w.writeString("ünï 😀 日本"));
        c.put("SELECT repeat('a', 127)::String", w -> w.writeString("a".repeat(127)));
        c.put("SELECT repeat('a', 128)::String", w -> w.writeString("a".repeat(128)));
        c.put("SELECT repeat('b', 300)::String", w -> w.writeString("b".repeat(300).getBytes(StandardCharsets.UTF_8)));
        c.put("SELECT 'Server'::LowCardinality(String)", w -> w.writeLowCardinalityString("Server"));
        c.put("SELECT toDateTime64('2025-11-30 00:00:00.123456789', 9, 'UTC')", w -> w.writeDateTime64Nanos(T1));
        c.put("SELECT toDateTime64('1969-12-31 23:59:59.999999999', 9, 'UTC')", w -> w.writeDateTime64Nanos(-1));
        c.put("SELECT map('a', '1', 'b', '2')::Map(LowCardinality(String), String)", w -> {
            w.writeMapSize(2);
            w.writeString("a");
            w.writeString("1");
            w.writeString("b");
            w.writeString("2");
        });
        c.put("SELECT map()::Map(LowCardinality(String), String)", w -> w.writeMapSize(0));
        c.put("SELECT ['x', 'yz']::Array(String)", w -> {
            w.writeArrayLength(2);
            w.writeString("x");
            w.writeString("yz");
        });
        c.put("SELECT []::Array(String)", w -> w.writeArrayLength(0));
        c.put("SELECT [toDateTime64('2025-11-30 00:00:00.000000001', 9, 'UTC'), toDateTime64('2025-11-30 00:00:01', 9, 'UTC')]::Array(DateTime64(9))", w -> {
            w.writeArrayLength(2);
            w.writeDateTime64Nanos(1_764_460_800_000_000_001L);
            w.writeDateTime64Nanos(1_764_460_801_000_000_000L);
        });
        c.put("SELECT [map('k', 'v'), map()]::Array(Map(LowCardinality(String), String))", w -> {
            w.writeArrayLength(2);
            w.writeMapSize(1);
            w.writeString("k");
            w.writeString("v");
            w.writeMapSize(0);
        });
        c.put("SELECT 255::UInt8", w -> w.writeUInt8(255));
        c.put("SELECT true::Bool", w -> w.writeBool(true));
        c.put("SELECT -32768::Int16", w -> w.writeInt16(-32768));
        c.put("SELECT -2147483648::Int32", w -> w.writeInt32(Integer.MIN_VALUE));
        c.put("SELECT 4294967295::UInt32", w -> w.writeUInt32(4294967295L));
        c.put("SELECT toDateTime('2025-11-30 00:00:01', 'UTC')", w -> w.writeUInt32(1_764_460_801L));
        c.put("SELECT 42::UInt64 AS a, 'x'::String AS b, map('k', 'v')::Map(LowCardinality(String), String) AS c", w -> {
            w.writeUInt64(42);
            w.writeString("x");
            w.writeMapSize(1);
            w.writeString("k");
            w.writeString("v");
        });
        return c;
    }

    @Test
    void matchesClickHouseByteForByte() throws IOException {
        Map<String, String> golden = golden();
        Map<String, Consumer<RowBinaryWriter>> cases = cases();
        assertThat(cases.keySet()).containsExactlyInAnyOrderElementsOf(golden.keySet());
        for (Map.Entry<String, Consumer<RowBinaryWriter>> e : cases.entrySet()) {
            RowBinaryWriter w = new RowBinaryWriter(4); // small: exercises growth too
            e.getValue().accept(w);
            assertThat(HexFormat.of().formatHex(w.toByteArray())).as(e.getKey()).isEqualTo(golden.get(e.getKey()));
        }
    }

    @Test
    void resetReusesTheBuffer() {
        RowBinaryWriter w = new RowBinaryWriter(16);
        w.writeString("abc");
        w.reset();
        w.writeUInt8(7);
        assertThat(w.toByteArray()).containsExactly(7);
        assertThat(w.size()).isEqualTo(1);
    }

    static Map<String, String> golden() throws IOException {
        Map<String, String> out = new HashMap<>();
        try (InputStream in = RowBinaryWriterTest.class.getResourceAsStream("/rowbinary-golden.tsv")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                int tab = line.lastIndexOf('\t');
                out.put(line.substring(0, tab), line.substring(tab + 1));
            }
        }
        return out;
    }
}
