package io.tributary.rowbinary;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The reader against the bytes the real ClickHouse returns ({@code rowbinary-golden.tsv}, the
 * writer's fixture): each case reads one query's value and must consume every byte.
 */
class RowBinaryReaderTest {

    private static Map<String, Function<RowBinaryReader, Object>> cases() {
        Map<String, Function<RowBinaryReader, Object>> c = new LinkedHashMap<>();
        c.put("SELECT 0::UInt64", r -> r.readUInt64() == 0);
        c.put("SELECT 1234567890123::UInt64", r -> r.readUInt64() == 1234567890123L);
        c.put("SELECT 18446744073709551615::UInt64", r -> Long.toUnsignedString(r.readUInt64()).equals("18446744073709551615"));
        c.put("SELECT -1::Int64", r -> r.readInt64() == -1);
        c.put("SELECT 1.5::Float64", r -> r.readFloat64() == 1.5);
        c.put("SELECT -0.0::Float64", r -> Double.doubleToRawLongBits(r.readFloat64()) == Double.doubleToRawLongBits(-0.0));
        c.put("SELECT ''::String", r -> r.readString().isEmpty());
        c.put("SELECT 'ünï 😀 日本'::String", r -> r.readString().equals("ünï 😀 日本"));
        c.put("SELECT repeat('a', 128)::String", r -> r.readString().equals("a".repeat(128)));
        c.put("SELECT repeat('b', 300)::String", r -> r.readString().equals("b".repeat(300)));
        c.put("SELECT 'Server'::LowCardinality(String)", r -> r.readString().equals("Server"));
        c.put("SELECT toDateTime64('2025-11-30 00:00:00.123456789', 9, 'UTC')", r -> r.readDateTime64() == 1_764_460_800_123_456_789L);
        c.put("SELECT toDateTime64('1969-12-31 23:59:59.999999999', 9, 'UTC')", r -> r.readDateTime64() == -1);
        c.put("SELECT map('a', '1', 'b', '2')::Map(LowCardinality(String), String)", r -> {
            int n = r.readLength();
            List<String> kv = new ArrayList<>();
            for (int i = 0; i < 2 * n; i++) {
                kv.add(r.readString());
            }
            return kv.equals(List.of("a", "1", "b", "2"));
        });
        c.put("SELECT []::Array(String)", r -> r.readLength() == 0);
        c.put("SELECT [toDateTime64('2025-11-30 00:00:00.000000001', 9, 'UTC'), toDateTime64('2025-11-30 00:00:01', 9, 'UTC')]::Array(DateTime64(9))",
                r -> r.readLength() == 2 && r.readDateTime64() == 1_764_460_800_000_000_001L
                        && r.readDateTime64() == 1_764_460_801_000_000_000L);
        c.put("SELECT 255::UInt8", r -> r.readUInt8() == 255);
        c.put("SELECT true::Bool", r -> r.readBool());
        c.put("SELECT -32768::Int16", r -> r.readInt16() == -32768);
        c.put("SELECT -2147483648::Int32", r -> r.readInt32() == Integer.MIN_VALUE);
        c.put("SELECT 4294967295::UInt32", r -> r.readUInt32() == 4294967295L);
        c.put("SELECT toDateTime('2025-11-30 00:00:01', 'UTC')", r -> r.readDateTime() == 1_764_460_801L);
        return c;
    }

    @Test
    void readsWhatClickHouseWrites() throws IOException {
        Map<String, String> golden = RowBinaryWriterTest.golden();
        for (Map.Entry<String, Function<RowBinaryReader, Object>> e : cases().entrySet()) {
            assertThat(golden).as("fixture").containsKey(e.getKey());
            byte[] bytes = HexFormat.of().parseHex(golden.get(e.getKey()));
            RowBinaryReader r = new RowBinaryReader(bytes, 0, bytes.length);
            assertThat(e.getValue().apply(r)).as(e.getKey()).isEqualTo(true);
            assertThat(r.hasMore()).as(e.getKey() + ": bytes left").isFalse();
        }
    }

    @Test
    void readsOnlyItsRangeAndSaysWhereItWasCut() {
        byte[] bytes = {9, 9, 3, 'a', 'b', 'c', 5, 'x'};
        RowBinaryReader r = new RowBinaryReader(bytes, 2, 4);
        assertThat(r.readString()).isEqualTo("abc");
        assertThat(r.hasMore()).isFalse();
        assertThatThrownBy(r::readUInt8).hasMessageContaining("cut off");
        RowBinaryReader cut = new RowBinaryReader(bytes, 6, 2); // length 5, one byte there
        assertThatThrownBy(cut::readString).hasMessageContaining("exceeds");
        RowBinaryReader shortInt = new RowBinaryReader(new byte[] {1, 2, 3}, 0, 3);
        assertThatThrownBy(shortInt::readInt32).hasMessageContaining("4 bytes needed");
    }

    /** Found by RowBinaryReaderFuzzTest: a ten-byte varint is a length of 2^63 or more, negative as a long. */
    @Test
    void aLengthAbove2To63IsRefusedNotReadBackwards() {
        byte[] bytes = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
            (byte) 0x80, (byte) 0xD6, (byte) 0x01, 'x'};
        assertThatThrownBy(() -> new RowBinaryReader(bytes, 0, bytes.length).skipString())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exceeds");
        assertThatThrownBy(() -> new RowBinaryReader(bytes, 0, bytes.length).readString())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exceeds");
        assertThatThrownBy(() -> new RowBinaryReader(bytes, 0, bytes.length).readLength())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exceeds");
    }
}
