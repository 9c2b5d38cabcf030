package io.tributary.nativeformat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.rowbinary.RowBinaryWriter;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * Edges of {@link NativeBlock} a review found: a block of no rows, as ClickHouse reads it; and
 * {@link NativeBlock#rows} over damaged bytes (a checkpoint's), which must answer with an {@link
 * IllegalStateException} and allocate in proportion to the bytes.
 */
class NativeBlockEdgesTest {

    private static byte[] header(String... namesThenTypes) {
        RowBinaryWriter w = new RowBinaryWriter(256);
        w.writeVarUInt(namesThenTypes.length / 2);
        for (String s : namesThenTypes) {
            w.writeString(s);
        }
        return w.toByteArray();
    }

    private static String hex(String s) {
        return HexFormat.of().formatHex(s.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A block of no rows is written as nothing, as ClickHouse writes an empty result. Written as
     * the columns' names and types with their prefixes (a LowCardinality column's keys version),
     * ClickHouse 26.7 reads those 8 bytes as the next column's name and type, for it reads a
     * column's prefix and data only when the block has rows ({@code if (rows) readData(...)}), and
     * refuses the INSERT ("Code: 62. DB::Exception: Empty query: While executing Native.
     * (SYNTAX_ERROR)"), which the sink takes for a refusal about the table; without the prefixes it
     * still refuses a block of no rows that leaves a column of the table out ("Code: 49 ... Block
     * structure mismatch in Native stream: different number of columns"). An empty body it takes as
     * no rows. All checked over HTTP. The same after {@link NativeBlock#clear}; and an empty body,
     * and a block of no rows as ClickHouse would read it, read back as no rows.
     */
    @Test
    void aBlockOfNoRowsIsWrittenAsNothing() {
        NativeBlock b = NativeBlock.forHeader(header("s", "n", "a",
                "LowCardinality(String)", "UInt32", "Array(LowCardinality(String))"));
        assertThat(b.toByteArray()).isEmpty();

        RowBinaryWriter row = new RowBinaryWriter(64);
        row.writeString("x");
        row.writeInt32(7);
        row.writeArrayLength(1);
        row.writeString("y");
        b.addRows(row.buffer(), 0, row.size(), 1);
        b.clear();
        assertThat(b.toByteArray()).isEmpty();

        assertThat(NativeBlock.rows(new byte[0], 100).rowEnds()).isEmpty();
        byte[] noRows = HexFormat.of().parseHex("0200" + "0173" + "16" + hex("LowCardinality(String)")
                + "016e" + "06" + hex("UInt32"));
        // a block of no rows is never written, so one read back is damage
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> NativeBlock.rows(noRows, 100));
    }

    /**
     * A damaged type nested thousands of levels deep (35 KB of {@code Array(}) is refused as not a
     * block, like every other damage, rather than overflowing the stack: a StackOverflowError is no
     * refusal the sink or the fuzz test's contract knows.
     */
    @Test
    void aTypeNestedDeeperThanAnyTableIsRefused() {
        int depth = 5000;
        String type = "Array(".repeat(depth) + "String" + ")".repeat(depth);
        RowBinaryWriter w = new RowBinaryWriter(64 * 1024);
        w.writeVarUInt(1);
        w.writeVarUInt(0);
        w.writeString("a");
        w.writeString(type);
        byte[] body = w.toByteArray();
        assertThatThrownBy(() -> NativeBlock.rows(body, 100)).isInstanceOf(IllegalStateException.class);
    }

    /**
     * Reading back a Native body allocates in proportion to it. A damaged body of 20,000 String
     * columns of no rows is 160 KB; each column parsed with its own type and its writing buffers
     * (4 KB for a String column, 6 KB for a LowCardinality one, all held until the block is read)
     * made that 117 MB, 730 times the body: a damaged committable of some MB would take the heap.
     * Held here to 64 bytes allocated per byte of body, and a MB.
     */
    @Test
    void readingBackAllocatesInProportionToTheBytes() {
        int columns = 20_000;
        RowBinaryWriter w = new RowBinaryWriter(1 << 20);
        w.writeVarUInt(columns);
        w.writeVarUInt(0);
        for (int i = 0; i < columns; i++) {
            w.writeString("");
            w.writeString("String");
        }
        byte[] body = w.toByteArray();
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        long before = mx.getThreadAllocatedBytes(thread);
        try {
            NativeBlock.rows(body, 100);
        } catch (IllegalStateException refused) {
            // refusing is fine; what it cost is the question
        }
        long allocated = mx.getThreadAllocatedBytes(thread) - before;
        assertThat(allocated).as("bytes allocated reading %d bytes", body.length).isLessThan(64L * body.length + (1 << 20));
    }
}
