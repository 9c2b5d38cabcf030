package io.tributary.nativeformat;

import io.tributary.rowbinary.Leb128;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.schema.ChType;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Rows turned into columns: a block of ClickHouse's {@code Native} format built from rows in
 * {@code RowBinary}, for the columns and types a {@code RowBinaryWithNamesAndTypes} header names.
 * The sink gathers a batch's rows as the decoders write them and turns the batch into one block
 * when it closes; ClickHouse then reads each column in one go instead of parsing row by row, and
 * gets {@code LowCardinality} values as the dictionaries it stores.
 * https://clickhouse.com/docs/interfaces/formats/Native
 *
 * <p>Not thread-safe; reusable ({@link #clear}). {@link #rows} is the inverse, for
 * splitting a refused batch into the rows of its records.
 */
public final class NativeBlock {

    private final byte[][] names;
    private final byte[][] types;
    private final NativeColumn[] columns;
    private int rows;

    private NativeBlock(List<String> names, NativeColumn[] columns) {
        this.names = new byte[names.size()][];
        this.types = new byte[names.size()][];
        this.columns = columns;
        for (int i = 0; i < columns.length; i++) {
            this.names[i] = names.get(i).getBytes(StandardCharsets.UTF_8);
            this.types[i] = columns[i].type().getBytes(StandardCharsets.UTF_8);
        }
    }

    /**
     * A block for the columns of a {@code RowBinaryWithNamesAndTypes} header, or null when a
     * column's type is one Native is not written for here (JSON, Tuple, Variant, ...): such a
     * table's batches stay in RowBinary.
     */
    public static NativeBlock forHeader(byte[] header) {
        Header h = Header.parse(header, 0);
        NativeColumn[] cs = new NativeColumn[h.names.size()];
        for (int i = 0; i < cs.length; i++) {
            cs[i] = NativeColumn.of(ChType.parse(h.types.get(i)));
            if (cs[i] == null) {
                return null;
            }
        }
        return new NativeBlock(h.names, cs);
    }

    /** True when {@link #forHeader} makes a block for these columns. */
    public static boolean supports(byte[] header) {
        return forHeader(header) != null;
    }

    /**
     * Adds {@code count} rows in RowBinary, {@code data[off, off + len)}, in the header's columns.
     *
     * @throws IllegalStateException when the bytes are not exactly that many rows
     */
    public void addRows(byte[] data, int off, int len, int count) {
        NativeColumn[] cs = columns;
        int p = off;
        for (int r = 0; r < count; r++) {
            for (NativeColumn c : cs) {
                p = c.read(data, p);
            }
        }
        if (p != off + len) {
            throw new IllegalStateException(count + " rows took " + (p - off) + " of " + len + " bytes");
        }
        rows += count;
    }

    public int rows() {
        return rows;
    }

    /** Bytes of the values added, in every column (what a batch counts against its budget). */
    public long used() {
        long sum = 0;
        for (NativeColumn c : columns) {
            sum += c.used();
        }
        return sum;
    }

    /** Bytes the columns hold (their buffers, used or not). */
    public long bytes() {
        long sum = 0;
        for (NativeColumn c : columns) {
            sum += c.bytes();
        }
        return sum;
    }

    /**
     * Writes the block: column and row counts, then per column its name, type and values. A block
     * of no rows writes nothing, as ClickHouse writes an empty result: it reads no column data in a
     * block of no rows, and refuses one that leaves columns of the table out (26.7: "Block structure
     * mismatch in Native stream"), while it takes an empty body as no rows.
     */
    public void writeTo(ByteSink out) {
        if (rows == 0) {
            return;
        }
        byte[] counts = new byte[2 * Leb128.MAX_BYTES];
        int n = Leb128.write(counts, 0, columns.length);
        n = Leb128.write(counts, n, rows);
        out.write(counts, 0, n);
        byte[] len = new byte[Leb128.MAX_BYTES];
        for (int i = 0; i < columns.length; i++) {
            out.write(len, 0, Leb128.write(len, 0, names[i].length));
            out.write(names[i], 0, names[i].length);
            out.write(len, 0, Leb128.write(len, 0, types[i].length));
            out.write(types[i], 0, types[i].length);
            columns[i].writePrefix(out);
            columns[i].writeData(out);
        }
    }

    /** The block as bytes. */
    public byte[] toByteArray() {
        Buf b = new Buf(1024);
        writeTo(b::write);
        return Arrays.copyOf(b.data, b.size);
    }

    /** Forgets the rows, keeping the buffers for the next block. */
    public void clear() {
        rows = 0;
        for (NativeColumn c : columns) {
            c.clear();
        }
    }

    /** Rows read back from Native blocks: their RowBinary, and where each row ends in it. */
    public record Rows(byte[] data, int[] rowEnds) {}

    /**
     * The rows of the Native blocks in {@code body}, in RowBinary, in order: the inverse of
     * {@link #writeTo}, for blocks of any types {@link #forHeader} writes. Whatever the bytes, it
     * allocates no more than they and {@code maxRowBytes} allow.
     *
     * @param maxRowBytes the most RowBinary the rows may take (what the batch says its records gave)
     * @throws IllegalStateException when the bytes are not such blocks, or give more rows' bytes
     */
    public static Rows rows(byte[] body, long maxRowBytes) {
        try {
            return readRows(body, maxRowBytes);
        } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
            throw new IllegalStateException("not a Native block: " + e.getMessage(), e);
        }
    }

    private static Rows readRows(byte[] body, long maxRowBytes) {
        int limit = (int) Math.min(maxRowBytes, Integer.MAX_VALUE - 16);
        RowBinaryWriter out = new RowBinaryWriter((int) Math.min(limit, body.length + 1024L));
        // the writer makes room for a whole varint before it writes one: its limit leaves that room,
        // and the exact bound is checked at the end
        out.limit((int) Math.min((long) limit + Leb128.MAX_BYTES, Integer.MAX_VALUE - 16),
                () -> new IllegalStateException("the Native blocks give more than " + maxRowBytes + " bytes of rows"));
        int[] ends = new int[64];
        int total = 0;
        int p = 0;
        int[] next = new int[1];
        java.util.Map<String, ChType> types = new java.util.HashMap<>();
        while (p < body.length) {
            long columnCount = Leb128.read(body, p, next);
            p = next[0];
            long rowCount = Leb128.read(body, p, next);
            p = next[0];
            // every column takes a byte a row at least, and a name and a type; a block of no rows is
            // never written (writeTo writes nothing)
            if (columnCount < 1 || columnCount > body.length - p || rowCount < 1 || rowCount > body.length - p) {
                throw new IllegalStateException("a Native block of " + columnCount + " columns and " + rowCount
                        + " rows in " + (body.length - p) + " bytes");
            }
            NativeColumn[] cs = new NativeColumn[(int) columnCount];
            int n = (int) rowCount;
            for (int i = 0; i < cs.length; i++) {
                p = skipString(body, p, next); // the name
                long typeLength = Leb128.read(body, p, next);
                p = next[0];
                if (typeLength > body.length - p) {
                    throw new IllegalStateException("a Native column type of " + typeLength + " bytes");
                }
                if (nesting(body, p, (int) typeLength) > MAX_NESTING) {
                    throw new IllegalStateException("a Native column type nested more than " + MAX_NESTING + " levels");
                }
                String type = new String(body, p, (int) typeLength, StandardCharsets.UTF_8);
                p += (int) typeLength;
                cs[i] = NativeColumn.of(types.computeIfAbsent(type, ChType::parse)); // parsed once per type
                if (cs[i] == null) {
                    throw new IllegalStateException("a Native block has a column of type " + type);
                }
                if (n > 0) { // ClickHouse reads no column data in a block of no rows
                    p = cs[i].readPrefix(body, p);
                    p = cs[i].readData(body, p, n);
                }
            }
            if (total + n > ends.length) {
                ends = Arrays.copyOf(ends, Math.max(ends.length * 2, total + n));
            }
            for (int r = 0; r < n; r++) {
                for (NativeColumn c : cs) {
                    c.next(out);
                }
                ends[total++] = out.size();
            }
        }
        if (out.size() > maxRowBytes) { // the writer's limit counts its whole buffer, 16 bytes at least
            throw new IllegalStateException("the Native blocks give " + out.size() + " bytes of rows, more than "
                    + maxRowBytes);
        }
        return new Rows(out.toByteArray(), Arrays.copyOf(ends, total));
    }

    /** Deeper than any type written here: a damaged type is refused before its parse recurses that deep. */
    private static final int MAX_NESTING = 32;

    /** The deepest nesting of parentheses in {@code b[from, from + len)}. */
    private static int nesting(byte[] b, int from, int len) {
        int depth = 0;
        int max = 0;
        for (int i = from; i < from + len; i++) {
            if (b[i] == '(') {
                max = Math.max(max, ++depth);
            } else if (b[i] == ')') {
                depth--;
            }
        }
        return max;
    }

    private static int skipString(byte[] b, int p, int[] next) {
        long n = Leb128.read(b, p, next);
        if (n > b.length - next[0]) {
            throw new IllegalStateException("a Native column name of " + n + " bytes");
        }
        return (int) (next[0] + n);
    }

    /** A {@code RowBinaryWithNamesAndTypes} header: the column count, the names, the types. */
    private record Header(List<String> names, List<String> types) {
        static Header parse(byte[] h, int p) {
            int[] next = new int[1];
            int n = (int) Leb128.read(h, p, next);
            p = next[0];
            List<String> names = new ArrayList<>(n);
            List<String> types = new ArrayList<>(n);
            for (int i = 0; i < 2 * n; i++) {
                int len = (int) Leb128.read(h, p, next);
                p = next[0];
                (i < n ? names : types).add(new String(h, p, len, StandardCharsets.UTF_8));
                p += len;
            }
            return new Header(names, types);
        }
    }
}
