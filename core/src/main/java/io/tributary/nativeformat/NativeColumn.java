package io.tributary.nativeformat;

import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.schema.ChType;

import java.util.Arrays;
import java.util.Map;

/**
 * One column of a Native block, for one ClickHouse type, both ways: it takes values in their
 * RowBinary encoding ({@link #read}) and writes them as the column Native wants ({@link
 * #writePrefix}, {@link #writeData}); and, to split a refused batch, it reads a Native column
 * ({@link #readPrefix}, {@link #readData}) and gives its values back one by one in RowBinary
 * ({@link #next}). An instance does one or the other.
 *
 * <p>The encodings are ClickHouse's own (https://clickhouse.com/docs/interfaces/formats/Native;
 * the column layouts are those of its {@code ISerialization} bulk methods): fixed-width values
 * back to back; strings as LEB128 length and bytes; {@code Nullable} as a byte map of nulls and
 * then the nested column with defaults in the null rows; {@code Array} as UInt64 end offsets and
 * then the elements as one column; {@code Map(K, V)} as {@code Array(Tuple(K, V))}: offsets, then
 * every key, then every value; {@code LowCardinality(String)} as a dictionary: a UInt64 version
 * (1) in the column's prefix, which comes before any data of an enclosing Array or Map, then the
 * index width and flags, the keys (the default, {@code ''}, first) and one index per row. A
 * {@code LowCardinality} of anything but {@code String} is sent as its inner type, which the
 * server converts ({@code input_format_native_allow_types_conversion}, on by default).
 */
abstract class NativeColumn {

    /** Reads one RowBinary value at {@code p} and adds it; returns where the value ends. */
    abstract int read(byte[] b, int p);

    /**
     * {@link #read} of the {@code index}-th element of an array or map: a dictionary tries the key
     * the previous row had at that place first (attribute keys come in the same order row after row).
     */
    int readAt(byte[] b, int p, int index) {
        return read(b, p);
    }

    /** Adds the type's default value (what a null row holds in a Nullable's nested column). */
    abstract void addDefault();

    /** Where the RowBinary value at {@code p} ends, without adding it. */
    abstract int skip(byte[] b, int p);

    /**
     * A flat column (fixed-width values, strings, a dictionary): one whose values can be added
     * again as a run, which a map equal to the previous row's does instead of reading them.
     */
    abstract static class Flat extends NativeColumn {

        /** A position in what was added so far, for {@link #repeat}. */
        abstract int mark();

        /** Adds again what was added between two {@link #mark}s. */
        abstract void repeat(int from, int to);
    }

    /** The type as the block header declares it. */
    abstract String type();

    /** The bytes the column's serialization state puts before the data. */
    void writePrefix(ByteSink out) {}

    /** The column's data, every value added since {@link #clear}. */
    abstract void writeData(ByteSink out);

    /** Bytes held (the buffers, used or not). */
    abstract long bytes();

    /** Bytes of the values added (what the buffers use). */
    abstract long used();

    /** Forgets every value, keeping the buffers. */
    abstract void clear();

    /** Reads the prefix written by {@link #writePrefix}; returns where it ends. */
    int readPrefix(byte[] b, int p) {
        return p;
    }

    /** Reads {@code n} values of Native data at {@code p}; returns where they end. */
    abstract int readData(byte[] b, int p, int n);

    /** Writes the next value read by {@link #readData} in RowBinary. */
    abstract void next(RowBinaryWriter out);

    /** Passes the next value by (a null row's default in a Nullable's nested column). */
    void skip() {
        RowBinaryWriter scratch = SCRATCH.get();
        next(scratch);
        scratch.reset();
    }

    private static final ThreadLocal<RowBinaryWriter> SCRATCH = ThreadLocal.withInitial(() -> new RowBinaryWriter(64));

    /** Fixed-width types by name: their bytes per value. */
    private static final Map<String, Integer> WIDTHS = Map.ofEntries(
            Map.entry("UInt8", 1), Map.entry("Int8", 1), Map.entry("Bool", 1), Map.entry("Enum8", 1),
            Map.entry("UInt16", 2), Map.entry("Int16", 2), Map.entry("Date", 2), Map.entry("Enum16", 2),
            Map.entry("UInt32", 4), Map.entry("Int32", 4), Map.entry("Float32", 4), Map.entry("DateTime", 4),
            Map.entry("Date32", 4), Map.entry("IPv4", 4), Map.entry("Decimal32", 4),
            Map.entry("UInt64", 8), Map.entry("Int64", 8), Map.entry("Float64", 8), Map.entry("DateTime64", 8),
            Map.entry("Decimal64", 8),
            Map.entry("UInt128", 16), Map.entry("Int128", 16), Map.entry("UUID", 16), Map.entry("IPv6", 16),
            Map.entry("Decimal128", 16),
            Map.entry("UInt256", 32), Map.entry("Int256", 32), Map.entry("Decimal256", 32));

    /** The column for {@code t}, or null when this encoder does not know the type (JSON, Tuple, Variant...). */
    static NativeColumn of(ChType t) {
        if (t.isLiteral()) {
            return null;
        }
        switch (t.name()) {
            case "String":
                return t.args().isEmpty() ? new StringColumn() : null;
            case "FixedString":
                return t.args().size() == 1 && t.arg(0).isLiteral() && t.arg(0).name().matches("[0-9]{1,6}")
                        ? new FixedColumn(t.toString(), Integer.parseInt(t.arg(0).name())) : null;
            case "Decimal": {
                if (t.args().isEmpty() || !t.arg(0).name().matches("[0-9]{1,2}")) {
                    return null;
                }
                int precision = Integer.parseInt(t.arg(0).name());
                return new FixedColumn(t.toString(), precision <= 9 ? 4 : precision <= 18 ? 8 : precision <= 38 ? 16 : 32);
            }
            case "Nullable": {
                NativeColumn inner = t.args().size() == 1 ? of(t.arg(0)) : null;
                return inner == null ? null : new NullableColumn(inner);
            }
            case "Array": {
                NativeColumn inner = t.args().size() == 1 ? of(t.arg(0)) : null;
                return inner == null ? null : new ArrayColumn(inner);
            }
            case "Map": {
                if (t.args().size() != 2) {
                    return null;
                }
                NativeColumn k = of(t.arg(0));
                NativeColumn v = of(t.arg(1));
                return k == null || v == null ? null : new MapColumn(k, v);
            }
            case "LowCardinality": {
                if (t.args().size() != 1) {
                    return null;
                }
                if (t.arg(0).is("String") && t.arg(0).args().isEmpty()) {
                    return new LowCardinalityColumn();
                }
                return of(t.arg(0)); // same bytes in RowBinary; the server converts
            }
            default: {
                Integer w = WIDTHS.get(t.name());
                return w == null ? null : new FixedColumn(t.toString(), w);
            }
        }
    }

    // -------------------------------------------------------------------------------------------

    /** Where the LEB128 value at {@code p} ends. */
    static int varintEnd(byte[] b, int p) {
        while (b[p] < 0) {
            p++;
        }
        return p + 1;
    }

    /** A String's length at {@code p} (its LEB128 prefix; at most 31 bits are taken). */
    static int varint(byte[] b, int p) {
        int v = 0;
        int shift = 0;
        byte x;
        do {
            x = b[p++];
            if (shift > 28) {
                throw new IllegalStateException("a length of more than 2^31 in RowBinary");
            }
            v |= (x & 0x7F) << shift;
            shift += 7;
        } while (x < 0);
        if (v < 0) {
            throw new IllegalStateException("a length of more than 2^31 in RowBinary");
        }
        return v;
    }

    static void writeLong(ByteSink out, long v) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (v >>> (8 * i));
        }
        out.write(b, 0, 8);
    }

    /** Where {@code n} UInt64 offsets from {@code p} end, refused past the block. */
    static int offsetsEnd(byte[] b, int p, int n) {
        long end = p + 8L * n;
        if (end > b.length) {
            throw new IllegalStateException("Native offsets end past their block");
        }
        return (int) end;
    }

    static long checkedCount(long v, String what) {
        if (v < 0 || v > Integer.MAX_VALUE) {
            throw new IllegalStateException("a Native column's " + what + " is " + v);
        }
        return v;
    }

    /** Fixed-width values. */
    static final class FixedColumn extends Flat {
        private final String type;
        private final int width;
        private final Buf buf = new Buf(1024);
        private byte[] in;
        private int at;

        FixedColumn(String type, int width) {
            this.type = type;
            this.width = width;
        }

        @Override
        int read(byte[] b, int p) {
            if (width == 8) { // most fixed columns: times, durations, counts, doubles
                buf.writeLong(Buf.readLong(b, p));
            } else if (width == 1) {
                buf.writeByte(b[p]);
            } else {
                buf.write(b, p, width);
            }
            return p + width;
        }

        @Override
        void addDefault() {
            buf.writeZeros(width);
        }

        @Override
        int skip(byte[] b, int p) {
            return p + width;
        }

        @Override
        int mark() {
            return buf.size;
        }

        @Override
        void repeat(int from, int to) {
            buf.write(buf.data, from, to - from);
        }


        @Override
        String type() {
            return type;
        }

        @Override
        void writeData(ByteSink out) {
            out.write(buf.data, 0, buf.size);
        }

        @Override
        long bytes() {
            return buf.data.length;
        }

        @Override
        long used() {
            return buf.size;
        }

        @Override
        void clear() {
            buf.clear();
        }

        @Override
        int readData(byte[] b, int p, int n) {
            in = b;
            at = p;
            long end = p + (long) n * width;
            if (end > b.length) {
                throw new IllegalStateException("a Native " + type + " column ends past its block");
            }
            return (int) end;
        }

        @Override
        void next(RowBinaryWriter out) {
            out.writeRaw(in, at, width);
            at += width;
        }
    }

    /** Strings: LEB128 length and bytes, in Native as in RowBinary. */
    static final class StringColumn extends Flat {
        private final Buf buf = new Buf(4096);
        private byte[] in;
        private int at;

        @Override
        int read(byte[] b, int p) {
            int len = b[p];
            int end = len >= 0 ? p + 1 + len : varintEnd(b, p) + varint(b, p); // lengths below 128 in one byte
            buf.write(b, p, end - p);
            return end;
        }

        @Override
        void addDefault() {
            buf.writeByte(0);
        }

        @Override
        int skip(byte[] b, int p) {
            return varintEnd(b, p) + varint(b, p);
        }

        @Override
        int mark() {
            return buf.size;
        }

        @Override
        void repeat(int from, int to) {
            buf.write(buf.data, from, to - from);
        }


        @Override
        String type() {
            return "String";
        }

        @Override
        void writeData(ByteSink out) {
            out.write(buf.data, 0, buf.size);
        }

        @Override
        long bytes() {
            return buf.data.length;
        }

        @Override
        long used() {
            return buf.size;
        }

        @Override
        void clear() {
            buf.clear();
        }

        @Override
        int readData(byte[] b, int p, int n) {
            in = b;
            at = p;
            for (int i = 0; i < n; i++) {
                p = varintEnd(b, p) + varint(b, p);
            }
            if (p > b.length) {
                throw new IllegalStateException("a Native String column ends past its block");
            }
            return p;
        }

        @Override
        void next(RowBinaryWriter out) {
            int end = varintEnd(in, at) + varint(in, at);
            out.writeRaw(in, at, end - at);
            at = end;
        }
    }

    /** {@code Nullable(T)}: a byte per row, 1 for null, then T's column. */
    static final class NullableColumn extends NativeColumn {
        private final NativeColumn inner;
        private final Buf nulls = new Buf(1024);
        private byte[] in;
        private int at;

        NullableColumn(NativeColumn inner) {
            this.inner = inner;
        }

        @Override
        int read(byte[] b, int p) {
            byte isNull = b[p];
            nulls.writeByte(isNull);
            if (isNull != 0) {
                inner.addDefault();
                return p + 1;
            }
            return inner.read(b, p + 1);
        }

        @Override
        void addDefault() {
            nulls.writeByte(1);
            inner.addDefault();
        }

        @Override
        int skip(byte[] b, int p) {
            return b[p] != 0 ? p + 1 : inner.skip(b, p + 1);
        }

        @Override
        String type() {
            return "Nullable(" + inner.type() + ")";
        }

        @Override
        void writePrefix(ByteSink out) {
            inner.writePrefix(out);
        }

        @Override
        void writeData(ByteSink out) {
            out.write(nulls.data, 0, nulls.size);
            inner.writeData(out);
        }

        @Override
        long bytes() {
            return nulls.data.length + inner.bytes();
        }

        @Override
        long used() {
            return nulls.size + inner.used();
        }

        @Override
        void clear() {
            nulls.clear();
            inner.clear();
        }

        @Override
        int readPrefix(byte[] b, int p) {
            return inner.readPrefix(b, p);
        }

        @Override
        int readData(byte[] b, int p, int n) {
            in = b;
            at = p;
            if ((long) p + n > b.length) {
                throw new IllegalStateException("a Native null map ends past its block");
            }
            return inner.readData(b, p + n, n);
        }

        @Override
        void next(RowBinaryWriter out) {
            byte isNull = in[at++];
            out.writeUInt8(isNull);
            if (isNull != 0) {
                inner.skip();
            } else {
                inner.next(out);
            }
        }
    }

    /** {@code Array(T)}: UInt64 end offsets, then all elements as one T column. */
    static final class ArrayColumn extends NativeColumn {
        private final NativeColumn inner;
        private final Buf offsets = new Buf(1024);
        private long total;
        private byte[] in;
        private int at;
        private long previous;

        /** The width of the elements when they are of a fixed-width type, else 0. */
        private final int fixedWidth;

        ArrayColumn(NativeColumn inner) {
            this.inner = inner;
            this.fixedWidth = inner instanceof FixedColumn f ? f.width : 0;
        }

        @Override
        int read(byte[] b, int p) {
            int n = varint(b, p);
            p = varintEnd(b, p);
            if (fixedWidth > 0) {
                // numbers (bucket counts, bounds, times) lie back to back in both formats: one copy
                int bytes = n * fixedWidth;
                ((FixedColumn) inner).buf.write(b, p, bytes);
                p += bytes;
            } else {
                for (int i = 0; i < n; i++) {
                    p = inner.readAt(b, p, i);
                }
            }
            total += n;
            offsets.writeLong(total);
            return p;
        }

        @Override
        void addDefault() {
            offsets.writeLong(total);
        }

        @Override
        int skip(byte[] b, int p) {
            int n = varint(b, p);
            p = varintEnd(b, p);
            if (fixedWidth > 0) {
                return p + n * fixedWidth;
            }
            for (int i = 0; i < n; i++) {
                p = inner.skip(b, p);
            }
            return p;
        }

        @Override
        String type() {
            return "Array(" + inner.type() + ")";
        }

        @Override
        void writePrefix(ByteSink out) {
            inner.writePrefix(out);
        }

        @Override
        void writeData(ByteSink out) {
            out.write(offsets.data, 0, offsets.size);
            inner.writeData(out);
        }

        @Override
        long bytes() {
            return offsets.data.length + inner.bytes();
        }

        @Override
        long used() {
            return offsets.size + inner.used();
        }

        @Override
        void clear() {
            offsets.clear();
            total = 0;
            inner.clear();
        }

        @Override
        int readPrefix(byte[] b, int p) {
            return inner.readPrefix(b, p);
        }

        @Override
        int readData(byte[] b, int p, int n) {
            in = b;
            at = p;
            previous = 0;
            int end = offsetsEnd(b, p, n);
            long elements = n == 0 ? 0 : checkedCount(Buf.readLong(b, end - 8), "element count");
            return inner.readData(b, end, (int) elements);
        }

        @Override
        void next(RowBinaryWriter out) {
            long end = Buf.readLong(in, at);
            at += 8;
            int n = (int) checkedCount(end - previous, "array length");
            previous = end;
            out.writeVarUInt(n);
            for (int i = 0; i < n; i++) {
                inner.next(out);
            }
        }
    }

    /** {@code Map(K, V)}: as {@code Array(Tuple(K, V))}, offsets, then the keys, then the values. */
    static final class MapColumn extends NativeColumn {
        private final NativeColumn keys;
        private final NativeColumn values;
        private final Buf offsets = new Buf(1024);
        private long total;
        private byte[] in;
        private int at;
        private long previous;

        /** Whether rows equal to the previous one are repeated rather than read (flat keys and values). */
        private final boolean repeats;
        /** The keys and values when flat, else null. */
        private final Flat flatKeys;
        private final Flat flatValues;
        /** The previous row's map in RowBinary, and where its keys and values went. */
        private byte[] lastRow = new byte[256];
        private int lastRowLength = -1;
        private long lastRowCount;
        private int keysFrom;
        private int keysTo;
        private int valuesFrom;
        private int valuesTo;

        MapColumn(NativeColumn keys, NativeColumn values) {
            this.keys = keys;
            this.values = values;
            this.flatKeys = keys instanceof Flat f ? f : null;
            this.flatValues = values instanceof Flat f ? f : null;
            this.repeats = flatKeys != null && flatValues != null;
        }

        @Override
        int read(byte[] b, int p) {
            if (!repeats) {
                return readEntries(b, p);
            }
            // A map equal to the previous row's (a resource's attributes, on every row of its spans)
            // repeats that row's keys and values: no hashing of its keys again. RowBinary values are
            // self-delimiting, so the previous row's bytes found at p are the whole map at p: a map
            // that differs differs within its own bytes, and nothing is walked twice.
            int len = lastRowLength;
            if (len >= 0 && len <= b.length - p && Buf.same(lastRow, 0, b, p, len)) {
                flatKeys.repeat(keysFrom, keysTo);
                flatValues.repeat(valuesFrom, valuesTo);
                total += lastRowCount;
                offsets.writeLong(total);
                return p + len;
            }
            keysFrom = flatKeys.mark();
            valuesFrom = flatValues.mark();
            long before = total;
            int end = readEntries(b, p);
            lastRowCount = total - before;
            keysTo = flatKeys.mark();
            valuesTo = flatValues.mark();
            len = end - p;
            if (lastRow.length < len) {
                lastRow = new byte[Math.max(len, 2 * lastRow.length)];
            }
            System.arraycopy(b, p, lastRow, 0, len);
            lastRowLength = len;
            return end;
        }

        private int readEntries(byte[] b, int p) {
            int n = varint(b, p);
            p = varintEnd(b, p);
            for (int i = 0; i < n; i++) {
                p = keys.readAt(b, p, i);
                p = values.read(b, p);
            }
            total += n;
            offsets.writeLong(total);
            return p;
        }

        @Override
        void addDefault() {
            offsets.writeLong(total);
        }

        @Override
        int skip(byte[] b, int p) {
            int n = varint(b, p);
            p = varintEnd(b, p);
            for (int i = 0; i < n; i++) {
                p = keys.skip(b, p);
                p = values.skip(b, p);
            }
            return p;
        }

        @Override
        String type() {
            return "Map(" + keys.type() + ", " + values.type() + ")";
        }

        @Override
        void writePrefix(ByteSink out) {
            keys.writePrefix(out);
            values.writePrefix(out);
        }

        @Override
        void writeData(ByteSink out) {
            out.write(offsets.data, 0, offsets.size);
            keys.writeData(out);
            values.writeData(out);
        }

        @Override
        long bytes() {
            return offsets.data.length + keys.bytes() + values.bytes();
        }

        @Override
        long used() {
            return offsets.size + keys.used() + values.used();
        }

        @Override
        void clear() {
            offsets.clear();
            total = 0;
            keys.clear();
            values.clear();
            lastRowLength = -1;
        }

        @Override
        int readPrefix(byte[] b, int p) {
            return values.readPrefix(b, keys.readPrefix(b, p));
        }

        @Override
        int readData(byte[] b, int p, int n) {
            in = b;
            at = p;
            previous = 0;
            int end = offsetsEnd(b, p, n);
            long elements = n == 0 ? 0 : checkedCount(Buf.readLong(b, end - 8), "entry count");
            p = keys.readData(b, end, (int) elements);
            return values.readData(b, p, (int) elements);
        }

        @Override
        void next(RowBinaryWriter out) {
            long end = Buf.readLong(in, at);
            at += 8;
            int n = (int) checkedCount(end - previous, "map size");
            previous = end;
            out.writeVarUInt(n);
            for (int i = 0; i < n; i++) {
                keys.next(out);
                values.next(out);
            }
        }
    }

    /**
     * {@code LowCardinality(String)}: each distinct string once in a dictionary, and one index
     * per row. The dictionary lives as long as the block; its first key is the default, {@code
     * ''}, as in the blocks ClickHouse writes itself.
     */
    static final class LowCardinalityColumn extends Flat {
        /** Keys version 1: SharedDictionariesWithAdditionalKeys. */
        private static final long KEYS_VERSION = 1;
        private static final long HAS_ADDITIONAL_KEYS = 1L << 9;
        private static final long NEED_UPDATE_DICTIONARY = 1L << 10;
        private static final long NEED_GLOBAL_DICTIONARY = 1L << 8;

        /** The keys as a String column (length and bytes each). */
        private final Buf keys = new Buf(1024);
        /** Where each key's bytes start in {@link #keys} and how long they are. */
        private int[] keyStart = new int[4];
        private int[] keyLength = new int[4];
        private int[] keyHash = new int[4];
        private int keyCount;
        /** Open addressing: key index + 1, or 0. */
        private int[] slots = new int[8];
        private int[] ids = new int[16];
        private int rows;
        /** The key of the value read last: tried before the hash table. */
        private int lastId;
        /** The key read last at each element index of an array or map. */
        private int[] hints = new int[4];
        // reading
        private byte[] in;
        private int[] readKeyStart;
        private int readWidth;
        private int at;

        LowCardinalityColumn() {
            clear();
        }

        @Override
        int read(byte[] b, int p) {
            // the previous row's value again (a resource's service name on every row of its spans)?
            return append(b, p, lastId, -1);
        }

        @Override
        int readAt(byte[] b, int p, int index) {
            return append(b, p, index < hints.length ? hints[index] : 0, index);
        }

        /** Adds the string at {@code p}, trying key {@code candidate} before the hash table. */
        private int append(byte[] b, int p, int candidate, int index) {
            int len = b[p];
            int from;
            if (len >= 0) { // lengths below 128 in one byte
                from = p + 1;
            } else {
                len = varint(b, p);
                from = varintEnd(b, p);
            }
            int end = from + len;
            int id;
            if (candidate < keyCount && keyLength[candidate] == len
                    && Buf.same(keys.data, keyStart[candidate], b, from, len)) {
                id = candidate;
            } else {
                id = lookup(b, p, from, len, end);
            }
            if (rows == ids.length) {
                ids = Arrays.copyOf(ids, rows * 2);
            }
            ids[rows++] = id;
            lastId = id;
            if (index >= 0) {
                if (index >= hints.length) {
                    hints = Arrays.copyOf(hints, Math.max(index + 1, hints.length * 2));
                }
                hints[index] = id;
            }
            return end;
        }

        private int lookup(byte[] b, int p, int from, int len, int end) {
            int h = hash(b, from, len);
            int mask = slots.length - 1;
            int s = h & mask;
            while (true) {
                int k = slots[s];
                if (k == 0) {
                    return add(b, p, from, len, h, s);
                }
                k--;
                if (keyHash[k] == h && keyLength[k] == len
                        && Buf.same(keys.data, keyStart[k], b, from, len)) {
                    return k;
                }
                s = (s + 1) & mask;
            }
        }

        @Override
        int skip(byte[] b, int p) {
            return varintEnd(b, p) + varint(b, p);
        }

        @Override
        int mark() {
            return rows;
        }

        @Override
        void repeat(int from, int to) {
            int n = to - from;
            if (rows + n > ids.length) {
                ids = Arrays.copyOf(ids, Math.max(ids.length * 2, rows + n));
            }
            System.arraycopy(ids, from, ids, rows, n);
            rows += n;
        }


        private int add(byte[] b, int p, int from, int len, int h, int slot) {
            int id = keyCount++;
            if (id == keyStart.length) {
                keyStart = Arrays.copyOf(keyStart, id * 2);
                keyLength = Arrays.copyOf(keyLength, id * 2);
                keyHash = Arrays.copyOf(keyHash, id * 2);
            }
            keys.write(b, p, from - p + len);
            keyStart[id] = keys.size - len;
            keyLength[id] = len;
            keyHash[id] = h;
            slots[slot] = id + 1;
            if (keyCount * 2 > slots.length) {
                rehash();
            }
            return id;
        }

        private void rehash() {
            int[] s = new int[slots.length * 2];
            int mask = s.length - 1;
            for (int k = 0; k < keyCount; k++) {
                int i = keyHash[k] & mask;
                while (s[i] != 0) {
                    i = (i + 1) & mask;
                }
                s[i] = k + 1;
            }
            slots = s;
        }

        /** A hash of the bytes, eight at a time; good enough to spread short keys. */
        private static int hash(byte[] b, int from, int len) {
            long h = 0x9E3779B97F4A7C15L ^ len;
            if (len >= 8) {
                // eight bytes at a time, the last eight overlapping: no byte loop for the tail
                int last = from + len - 8;
                for (int i = from; i < last; i += 8) {
                    h = (h ^ Buf.readLong(b, i)) * 0xBF58476D1CE4E5B9L;
                    h ^= h >>> 29;
                }
                h ^= Buf.readLong(b, last);
            } else {
                long tail = 0;
                for (int i = from, end = from + len; i < end; i++) {
                    tail = (tail << 8) | (b[i] & 0xFFL);
                }
                h ^= tail;
            }
            h *= 0x94D049BB133111EBL;
            h ^= h >>> 32;
            return (int) h;
        }

        @Override
        void addDefault() {
            if (rows == ids.length) {
                ids = Arrays.copyOf(ids, rows * 2);
            }
            ids[rows++] = 0;
        }

        @Override
        String type() {
            return "LowCardinality(String)";
        }

        @Override
        void writePrefix(ByteSink out) {
            writeLong(out, KEYS_VERSION);
        }

        @Override
        void writeData(ByteSink out) {
            if (rows == 0) {
                return; // as ClickHouse writes an empty LowCardinality column: its prefix only
            }
            int width = keyCount <= 1 << 8 ? 1 : keyCount <= 1 << 16 ? 2 : 4;
            int code = width == 1 ? 0 : width == 2 ? 1 : 2;
            writeLong(out, code | HAS_ADDITIONAL_KEYS | NEED_UPDATE_DICTIONARY);
            writeLong(out, keyCount);
            out.write(keys.data, 0, keys.size);
            writeLong(out, rows);
            byte[] chunk = new byte[Math.min(rows, 8192) * width];
            int n = 0;
            for (int r = 0; r < rows; r++) {
                int v = ids[r];
                for (int i = 0; i < width; i++) {
                    chunk[n++] = (byte) (v >>> (8 * i));
                }
                if (n == chunk.length) {
                    out.write(chunk, 0, n);
                    n = 0;
                }
            }
            if (n > 0) {
                out.write(chunk, 0, n);
            }
        }

        @Override
        long bytes() {
            return keys.data.length + 4L * (keyStart.length * 3 + slots.length + ids.length);
        }

        @Override
        long used() {
            return keys.size + 4L * (keyCount * 3 + slots.length + rows);
        }

        @Override
        void clear() {
            keys.clear();
            Arrays.fill(slots, 0);
            keyCount = 0;
            rows = 0;
            lastId = 0;
            byte[] empty = {0};
            int s = hash(empty, 1, 0) & (slots.length - 1);
            add(empty, 0, 1, 0, hash(empty, 1, 0), s);
        }

        @Override
        int readPrefix(byte[] b, int p) {
            long version = Buf.readLong(b, p);
            if (version != KEYS_VERSION) {
                throw new IllegalStateException("a Native LowCardinality column of keys version " + version);
            }
            return p + 8;
        }

        @Override
        int readData(byte[] b, int p, int n) {
            if (n == 0) {
                return p; // an empty column writes no data, not even its index type
            }
            long flags = Buf.readLong(b, p);
            if ((flags & NEED_GLOBAL_DICTIONARY) != 0 || (flags & HAS_ADDITIONAL_KEYS) == 0) {
                throw new IllegalStateException("a Native LowCardinality column with a global dictionary");
            }
            int code = (int) (flags & 0xFF);
            if (code > 3) {
                throw new IllegalStateException("a Native LowCardinality index type " + code);
            }
            readWidth = 1 << code;
            long count = Buf.readLong(b, p + 8);
            p += 16;
            if (count < 1 || count > b.length - p) {
                throw new IllegalStateException("a Native LowCardinality dictionary of " + count + " keys");
            }
            readKeyStart = new int[(int) count];
            for (int k = 0; k < count; k++) {
                readKeyStart[k] = p;
                p = varintEnd(b, p) + varint(b, p);
            }
            long indexes = Buf.readLong(b, p);
            if (indexes != n) {
                throw new IllegalStateException("a Native LowCardinality column with " + indexes + " indexes for " + n + " rows");
            }
            in = b;
            at = p + 8;
            long end = at + (long) n * readWidth;
            if (end > b.length) {
                throw new IllegalStateException("Native LowCardinality indexes end past their block");
            }
            return (int) end;
        }

        @Override
        void next(RowBinaryWriter out) {
            long id = 0;
            for (int i = 0; i < readWidth; i++) {
                id |= (in[at + i] & 0xFFL) << (8 * i);
            }
            at += readWidth;
            if (id < 0 || id >= readKeyStart.length) {
                throw new IllegalStateException("a Native LowCardinality index " + id + " past its " + readKeyStart.length
                        + " keys");
            }
            int k = readKeyStart[(int) id];
            out.writeRaw(in, k, varintEnd(in, k) + varint(in, k) - k);
        }
    }
}
