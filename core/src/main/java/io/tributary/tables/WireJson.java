package io.tributary.tables;

import io.tributary.otlp.InvalidProtobufException;
import io.tributary.otlp.Utf8;
import io.tributary.otlp.proto.ProtoReader;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.tables.WireValues.IntList;

/**
 * An attribute list read where it lies in a record and written as a ClickHouse {@code JSON} value
 * and its keys: the bytes {@link BinaryJson} writes from protobuf-java's {@code KeyValue}s (the
 * reference; its Javadoc has the rules), with no object per value.
 *
 * <p>{@link #build} reads the list into a tree held in reused arrays (a node per {@code AnyValue}:
 * its case and value or its children; keys and invalid UTF-8 strings, as read with U+FFFD, and the
 * flattened paths in one byte arena) and flattens it to paths as {@code BinaryJson.Paths} does; then
 * {@link #writeJson} and {@link #writeKeys} write the columns. Protobuf's merging is followed as in
 * {@link WireJsonText}; message occurrences a later case replaced are still walked, so a record
 * fails where protobuf-java fails.
 *
 * <p>Not thread-safe: one per {@link WireValues}, shared by the attribute lists of a task, and
 * holding the tree of the list built last.
 */
final class WireJson {

    /** Above this many nodes or arena bytes the arrays are dropped at the next build, so one huge record does not keep them. */
    private static final int KEEP_NODES = 1 << 16;
    private static final int KEEP_ARENA = 4 << 20;

    // ---- the tree: nodes (AnyValues) and entries (KeyValues; the list's own are entries [0, topCount))

    private byte[] buf;
    /** Per node: its {@link WireValues} case. */
    private int[] kind = new int[64];
    /** Per node: a bool, int or double's bits. */
    private long[] scalar = new long[64];
    /**
     * Per node: a string or bytes' start (negative: {@code -1 - offset} in the arena, read with
     * U+FFFD) and length; an array's first element node and count; a map's first entry and count.
     */
    private int[] first = new int[64];
    private int[] count = new int[64];
    private int nodes;
    /** Per entry: its key's offset and length in the arena, its value node. */
    private int[] keyAt = new int[64];
    private int[] keyLength = new int[64];
    private int[] value = new int[64];
    private int entries;
    private int topCount;

    /** Keys, strings with invalid UTF-8, and paths. */
    private RowBinaryWriter arena = new RowBinaryWriter(1024);
    /** Ranges of occurrences being read (a stack), and a stack of ints for entries read but not yet placed. */
    private final IntList ranges = new IntList();
    private int[] ints = new int[64];
    private int intsTop;

    // ---- the flattened paths: per path its offset and length in the arena and its value node (a stack)

    private int[] pathAt = new int[64];
    private int[] pathLength = new int[64];
    private int[] pathValue = new int[64];
    private int paths;
    /** Paths of the list built: {@code [0, listPaths)}, in the reverse of their order. */
    private int listPaths;
    /** Characters (UTF-16, as Java counts them) of the paths made, against {@link BinaryJson#MAX_PATH_CHARS}. */
    private long pathChars;
    private RangeSet set = new RangeSet();
    private int levels;

    /**
     * Reads the {@code KeyValue}s at {@code kvRanges} (start, length pairs, one level below {@code
     * parent}) and flattens them to paths.
     */
    void build(ProtoReader parent, IntList kvRanges) throws InvalidProtobufException {
        buf = parent.buffer();
        if (kind.length > KEEP_NODES || keyAt.length > KEEP_NODES || pathAt.length > KEEP_NODES) {
            kind = new int[64];
            scalar = new long[64];
            first = new int[64];
            count = new int[64];
            keyAt = new int[64];
            keyLength = new int[64];
            value = new int[64];
            pathAt = new int[64];
            pathLength = new int[64];
            pathValue = new int[64];
            ints = new int[64];
        }
        if (arena.buffer().length > KEEP_ARENA) {
            arena = new RowBinaryWriter(1024);
        }
        if (set.capacity() > 2 * KEEP_NODES) {
            set = new RangeSet();
        }
        arena.reset();
        ranges.clear();
        intsTop = 0;
        int n = kvRanges.size() / 2;
        nodes = 0;
        entries = 0;
        int firstNode = allocNodes(n);
        int firstEntry = allocEntries(n);
        topCount = n;
        for (int i = 0; i < n; i++) {
            ProtoReader kv = parent.child(kvRanges.get(2 * i), kvRanges.get(2 * i + 1));
            int from = ranges.size();
            readKeyValue(kv, firstEntry + i, firstNode + i);
            fill(firstNode + i, kv, from, ranges.size());
            ranges.truncate(from);
        }
        paths = 0;
        pathChars = 0;
        levels = 0;
        set.clear();
        flatten(-1, 0, 0, firstEntry, n, ++levels);
        chargeKeys(0, firstEntry, n);
        listPaths = paths;
    }

    /** The JSON value of the list built: the path count, then each path and its value as a {@code Dynamic}. */
    void writeJson(RowBinaryWriter out) {
        writePaths(out, 0, listPaths);
    }

    /** The exporter's {@code UniqueFlattenedAttributes} of the list built: every leaf path once, sorted by bytes. */
    void writeKeys(RowBinaryWriter out) {
        set.clear();
        int base = intsTop;
        int arenaMark = arena.size();
        collectKeys(0, 0, 0, topCount);
        int n = intsTop - base;
        ensureInts(intsTop + n);
        sortPaths(base, n);
        out.writeArrayLength(n);
        byte[] a = arena.buffer();
        for (int i = 0; i < n; i++) {
            int p = ints[base + i];
            out.writeString(a, pathAt[p], pathLength[p]);
        }
        intsTop = base;
        paths = listPaths;
        arena.truncate(arenaMark);
    }

    // ---- reading

    /** Reads a KeyValue into entry {@code e} with value node {@code v}: its key into the arena, its value's occurrences onto {@link #ranges}. */
    private void readKeyValue(ProtoReader kv, int e, int v) throws InvalidProtobufException {
        int keyStart = 0;
        int keyLen = 0;
        while (kv.next()) {
            if (kv.is(1, ProtoReader.LEN)) {
                kv.readBytes();
                keyStart = kv.start();
                keyLen = kv.length();
            } else if (kv.is(2, ProtoReader.LEN)) {
                kv.readBytes();
                ranges.add(kv.start(), kv.length());
            } else {
                kv.skip();
            }
        }
        keyAt[e] = arena.size();
        if (Utf8.isValid(buf, keyStart, keyLen)) {
            arena.writeRaw(buf, keyStart, keyLen);
        } else {
            byte[] fixed = Utf8.replaceInvalid(buf, keyStart, keyLen);
            arena.writeRaw(fixed, 0, fixed.length);
        }
        keyLength[e] = arena.size() - keyAt[e];
        value[e] = v;
    }

    /** Reads the AnyValue whose occurrences are {@code ranges[from, to)}, one level below {@code parent}, into node {@code node}. */
    private void fill(int node, ProtoReader parent, int from, int to) throws InvalidProtobufException {
        int k = WireValues.NONE;
        int start = 0;
        int len = 0;
        long x = 0;
        int messages = ranges.size();
        int messagesKind = WireValues.NONE;
        ProtoReader r = null;
        for (int o = from; o < to; o += 2) {
            r = parent.child(ranges.get(o), ranges.get(o + 1));
            while (r.next()) {
                int f = r.field();
                switch (f) {
                    case WireValues.STRING:
                    case WireValues.BYTES:
                        if (r.wireType() != ProtoReader.LEN) {
                            r.skip();
                            break;
                        }
                        r.readBytes();
                        k = f;
                        start = r.start();
                        len = r.length();
                        break;
                    case WireValues.BOOL:
                    case WireValues.INT:
                        if (r.wireType() != ProtoReader.VARINT) {
                            r.skip();
                            break;
                        }
                        k = f;
                        x = r.readVarint();
                        break;
                    case WireValues.DOUBLE:
                        if (r.wireType() != ProtoReader.I64) {
                            r.skip();
                            break;
                        }
                        k = f;
                        x = r.readFixed64();
                        break;
                    case WireValues.ARRAY:
                    case WireValues.KVLIST:
                        if (r.wireType() != ProtoReader.LEN) {
                            r.skip();
                            break;
                        }
                        r.readBytes();
                        if (k != f) {
                            // another case replaced it: this one starts afresh; the replaced ones are still read
                            skim(r, messages, messagesKind);
                            ranges.truncate(messages);
                        }
                        k = f;
                        messagesKind = f;
                        ranges.add(r.start(), r.length());
                        break;
                    default:
                        r.skip();
                }
            }
        }
        kind[node] = k;
        switch (k) {
            case WireValues.STRING:
                if (Utf8.isValid(buf, start, len)) {
                    first[node] = start;
                    count[node] = len;
                } else {
                    byte[] fixed = Utf8.replaceInvalid(buf, start, len);
                    first[node] = -1 - arena.size();
                    count[node] = fixed.length;
                    arena.writeRaw(fixed, 0, fixed.length);
                }
                break;
            case WireValues.BYTES:
                first[node] = start;
                count[node] = len;
                break;
            case WireValues.ARRAY:
                array(node, r, messages);
                break;
            case WireValues.KVLIST:
                map(node, r, messages);
                break;
            default:
                scalar[node] = x;
        }
        if (k != WireValues.ARRAY && k != WireValues.KVLIST) {
            skim(r, messages, messagesKind); // replaced by a scalar case
        }
        ranges.truncate(messages);
    }

    /** Walks the message occurrences from {@code ranges[from]} (of {@code messageKind}) as protobuf-java would parse them. */
    private void skim(ProtoReader r, int from, int messageKind) throws InvalidProtobufException {
        for (int o = from; o < ranges.size(); o += 2) {
            WireValues.skimAnyValueContainer(r, ranges.get(o), ranges.get(o + 1), messageKind);
        }
    }

    /** An array: its elements from the ArrayValue occurrences at {@code ranges[from, end)}, one level below {@code r}. */
    private void array(int node, ProtoReader r, int from) throws InvalidProtobufException {
        int occurrences = ranges.size();
        ProtoReader a = null;
        for (int o = from; o < occurrences; o += 2) {
            a = r.child(ranges.get(o), ranges.get(o + 1));
            while (a.next()) {
                if (a.is(1, ProtoReader.LEN)) {
                    a.readBytes();
                    ranges.add(a.start(), a.length());
                } else {
                    a.skip();
                }
            }
        }
        int n = (ranges.size() - occurrences) / 2;
        int firstNode = allocNodes(n);
        first[node] = firstNode;
        count[node] = n;
        for (int i = 0; i < n; i++) {
            int at = occurrences + 2 * i;
            fill(firstNode + i, a, at, at + 2);
        }
    }

    /** A map: its entries from the KeyValueList occurrences at {@code ranges[from, end)}, one level below {@code r}. */
    private void map(int node, ProtoReader r, int from) throws InvalidProtobufException {
        int occurrences = ranges.size();
        int base = intsTop;
        ProtoReader kv = null;
        for (int o = from; o < occurrences; o += 2) {
            ProtoReader list = r.child(ranges.get(o), ranges.get(o + 1));
            while (list.next()) {
                if (!list.is(1, ProtoReader.LEN)) {
                    list.skip();
                    continue;
                }
                list.readBytes();
                kv = list.child();
                // the key goes to the arena now; the entry is placed once they are all counted
                ensureInts(intsTop + 4);
                int e = intsTop;
                intsTop += 4;
                ints[e + 2] = ranges.size();
                int keyStart = 0;
                int keyLen = 0;
                while (kv.next()) {
                    if (kv.is(1, ProtoReader.LEN)) {
                        kv.readBytes();
                        keyStart = kv.start();
                        keyLen = kv.length();
                    } else if (kv.is(2, ProtoReader.LEN)) {
                        kv.readBytes();
                        ranges.add(kv.start(), kv.length());
                    } else {
                        kv.skip();
                    }
                }
                ints[e] = arena.size();
                if (Utf8.isValid(buf, keyStart, keyLen)) {
                    arena.writeRaw(buf, keyStart, keyLen);
                } else {
                    byte[] fixed = Utf8.replaceInvalid(buf, keyStart, keyLen);
                    arena.writeRaw(fixed, 0, fixed.length);
                }
                ints[e + 1] = arena.size() - ints[e];
                ints[e + 3] = ranges.size();
            }
        }
        int n = (intsTop - base) / 4;
        int firstNode = allocNodes(n);
        int firstEntry = allocEntries(n);
        first[node] = firstEntry;
        count[node] = n;
        for (int i = 0; i < n; i++) {
            int e = base + 4 * i;
            keyAt[firstEntry + i] = ints[e];
            keyLength[firstEntry + i] = ints[e + 1];
            value[firstEntry + i] = firstNode + i;
        }
        for (int i = 0; i < n; i++) {
            int e = base + 4 * i;
            fill(firstNode + i, kv, ints[e + 2], ints[e + 3]);
        }
        intsTop = base;
    }

    private int allocNodes(int n) {
        int at = nodes;
        nodes += n;
        if (nodes > kind.length) {
            int c = Math.max(nodes, kind.length * 2);
            kind = java.util.Arrays.copyOf(kind, c);
            scalar = java.util.Arrays.copyOf(scalar, c);
            first = java.util.Arrays.copyOf(first, c);
            count = java.util.Arrays.copyOf(count, c);
        }
        return at;
    }

    private int allocEntries(int n) {
        int at = entries;
        entries += n;
        if (entries > keyAt.length) {
            int c = Math.max(entries, keyAt.length * 2);
            keyAt = java.util.Arrays.copyOf(keyAt, c);
            keyLength = java.util.Arrays.copyOf(keyLength, c);
            value = java.util.Arrays.copyOf(value, c);
        }
        return at;
    }

    private void ensureInts(int n) {
        if (n > ints.length) {
            ints = java.util.Arrays.copyOf(ints, Math.max(n, ints.length * 2));
        }
    }

    // ---- paths

    /**
     * {@code BinaryJson.Paths.flatten}: the entries {@code [firstEntry, firstEntry + n)} walked
     * backwards so that the last of a repeated key wins, maps recursed into, each leaf path with a
     * value added once; {@code prefixAt < 0} at the top.
     */
    private void flatten(int prefixAt, int prefixLen, long prefixChars, int firstEntry, int n, int level) {
        for (int i = firstEntry + n - 1; i >= firstEntry; i--) {
            if (!set.add(level, arena.buffer(), keyAt[i], keyLength[i])) {
                continue;
            }
            int at = arena.size();
            long chars;
            if (prefixAt >= 0) {
                arena.writeRaw(arena.buffer(), prefixAt, prefixLen);
                arena.writeUInt8('.');
                chars = prefixChars + 1 + utf16Length(arena.buffer(), keyAt[i], keyLength[i]);
            } else {
                chars = utf16Length(arena.buffer(), keyAt[i], keyLength[i]);
            }
            arena.writeRaw(arena.buffer(), keyAt[i], keyLength[i]);
            int len = arena.size() - at;
            charge(chars);
            int v = value[i];
            if (kind[v] == WireValues.KVLIST) {
                flatten(at, len, chars, first[v], count[v], ++levels);
            } else if (set.add(0, arena.buffer(), at, len) && type(v) != BinaryJson.NOTHING) {
                addPath(at, len, v);
            }
        }
    }

    /**
     * {@code BinaryJson.Paths.collectKeys}: every leaf path (repeated keys too), forwards, joined
     * with dots unless the prefix is empty. Its characters were counted by {@link #chargeKeys}.
     */
    private void collectKeys(int prefixAt, int prefixLen, int firstEntry, int n) {
        for (int i = firstEntry; i < firstEntry + n; i++) {
            int at = arena.size();
            if (prefixLen > 0) {
                arena.writeRaw(arena.buffer(), prefixAt, prefixLen);
                arena.writeUInt8('.');
            }
            arena.writeRaw(arena.buffer(), keyAt[i], keyLength[i]);
            int len = arena.size() - at;
            int v = value[i];
            if (kind[v] == WireValues.KVLIST) {
                collectKeys(at, len, first[v], count[v]);
            } else if (set.add(0, arena.buffer(), at, len)) {
                int p = addPath(at, len, v);
                ensureInts(intsTop + 1);
                ints[intsTop++] = p;
            }
        }
    }

    /**
     * Counts the characters of the paths {@link #collectKeys} makes, as {@code BinaryJson.Paths.set}
     * does for every list (and every map in an array) whether its keys are written or not.
     */
    private void chargeKeys(long prefixChars, int firstEntry, int n) {
        for (int i = firstEntry; i < firstEntry + n; i++) {
            long key = utf16Length(arena.buffer(), keyAt[i], keyLength[i]);
            long chars = prefixChars > 0 ? prefixChars + 1 + key : key; // an empty prefix adds no dot
            charge(chars);
            int v = value[i];
            if (kind[v] == WireValues.KVLIST) {
                chargeKeys(chars, first[v], count[v]);
            }
        }
    }

    private void charge(long chars) {
        pathChars += chars;
        if (pathChars > BinaryJson.MAX_PATH_CHARS) {
            throw BinaryJson.tooManyPathChars();
        }
    }

    private int addPath(int at, int len, int node) {
        if (paths == pathAt.length) {
            int c = paths * 2;
            pathAt = java.util.Arrays.copyOf(pathAt, c);
            pathLength = java.util.Arrays.copyOf(pathLength, c);
            pathValue = java.util.Arrays.copyOf(pathValue, c);
        }
        pathAt[paths] = at;
        pathLength[paths] = len;
        pathValue[paths] = node;
        return paths++;
    }

    /** Characters Java counts in the UTF-8 {@code b[off, off + len)}: one per code point, two above U+FFFF. */
    private static long utf16Length(byte[] b, int off, int len) {
        long n = 0;
        for (int i = off; i < off + len; i++) {
            int c = b[i] & 0xFF;
            if ((c & 0xC0) != 0x80) {
                n += c >= 0xF0 ? 2 : 1;
            }
        }
        return n;
    }

    /** Stable merge sort of the path numbers at {@code ints[at, at + n)} by path bytes; {@code ints[at + n, at + 2n)} is scratch. */
    private void sortPaths(int at, int n) {
        sortPaths(at, at + n, n);
    }

    private void sortPaths(int lo, int hi, int shift) {
        if (hi - lo < 16) {
            for (int i = lo + 1; i < hi; i++) {
                int x = ints[i];
                int j = i;
                while (j > lo && comparePaths(ints[j - 1], x) > 0) {
                    ints[j] = ints[j - 1];
                    j--;
                }
                ints[j] = x;
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        sortPaths(lo, mid, shift);
        sortPaths(mid, hi, shift);
        int i = lo;
        int j = mid;
        int k = lo + shift;
        while (i < mid && j < hi) {
            ints[k++] = comparePaths(ints[i], ints[j]) <= 0 ? ints[i++] : ints[j++];
        }
        while (i < mid) {
            ints[k++] = ints[i++];
        }
        while (j < hi) {
            ints[k++] = ints[j++];
        }
        System.arraycopy(ints, lo + shift, ints, lo, hi - lo);
    }

    private int comparePaths(int p, int q) {
        byte[] a = arena.buffer();
        return java.util.Arrays.compareUnsigned(a, pathAt[p], pathAt[p] + pathLength[p], a, pathAt[q], pathAt[q] + pathLength[q]);
    }

    // ---- writing

    /** The paths {@code [from, to)}, last first (they were made backwards): the count, then each path and value. */
    private void writePaths(RowBinaryWriter out, int from, int to) {
        out.writeVarUInt(to - from);
        for (int p = to - 1; p >= from; p--) {
            out.writeString(arena.buffer(), pathAt[p], pathLength[p]);
            writeDynamic(out, pathValue[p]);
        }
    }

    /** {@code BinaryJson.writeDynamic}: the value's type, then its bytes; {@code Nothing} for JSON null. */
    private void writeDynamic(RowBinaryWriter out, int node) {
        int t = type(node);
        switch (t) {
            case BinaryJson.NOTHING:
                out.writeUInt8(BinaryJson.NOTHING);
                break;
            case BinaryJson.ARRAY: {
                int e = elementType(node);
                out.writeUInt8(BinaryJson.ARRAY);
                writeType(out, e);
                writeElements(out, e, node);
                break;
            }
            case BinaryJson.OBJECT:
                out.writeRaw(BinaryJson.JSON_TYPE, 0, BinaryJson.JSON_TYPE.length);
                writeObject(out, node);
                break;
            default:
                out.writeUInt8(t);
                writeAs(out, t, node);
        }
    }

    /** A map value (any other value: an empty one) as a JSON value of its own: its paths made afresh. */
    private void writeObject(RowBinaryWriter out, int node) {
        int outerPaths = paths;
        int arenaMark = arena.size();
        long outerChars = pathChars;
        pathChars = 0;
        set.clear();
        if (kind[node] == WireValues.KVLIST) {
            flatten(-1, 0, 0, first[node], count[node], ++levels);
            chargeKeys(0, first[node], count[node]);
        }
        writePaths(out, outerPaths, paths);
        paths = outerPaths;
        arena.truncate(arenaMark);
        pathChars = outerChars;
    }

    /** {@code BinaryJson.type}: a scalar tag, {@code ARRAY}, {@code OBJECT}, or {@code NOTHING} for null. */
    private int type(int node) {
        switch (kind[node]) {
            case WireValues.STRING:
                return BinaryJson.STRING;
            case WireValues.BOOL:
                return BinaryJson.BOOL;
            case WireValues.INT:
                return BinaryJson.INT64;
            case WireValues.DOUBLE:
                return BinaryJson.doubleType(Double.longBitsToDouble(scalar[node]));
            case WireValues.BYTES:
                return count[node] == 0 ? BinaryJson.NOTHING : BinaryJson.STRING;
            case WireValues.ARRAY:
                return BinaryJson.ARRAY;
            case WireValues.KVLIST:
                return BinaryJson.OBJECT;
            default:
                return BinaryJson.NOTHING;
        }
    }

    /** {@code BinaryJson.writeAs}: a scalar in the plain encoding of {@code tag}, converted as ClickHouse would. */
    private void writeAs(RowBinaryWriter out, int tag, int node) {
        int k = kind[node];
        long x = scalar[node];
        switch (tag) {
            case BinaryJson.INT64:
            case BinaryJson.UINT64:
                out.writeInt64(k == WireValues.DOUBLE ? BinaryJson.toLong(Double.longBitsToDouble(x)) : k == WireValues.BOOL ? (x != 0 ? 1 : 0) : x);
                break;
            case BinaryJson.FLOAT64:
                out.writeFloat64(k == WireValues.INT ? (double) x : k == WireValues.BOOL ? (x != 0 ? 1.0 : 0.0) : Double.longBitsToDouble(x));
                break;
            case BinaryJson.BOOL:
                out.writeBool(x != 0);
                break;
            default:
                if (k == WireValues.BYTES) {
                    WireValues.writeBase64(buf, first[node], count[node], out);
                } else if (first[node] >= 0) {
                    out.writeString(buf, first[node], count[node]);
                } else {
                    out.writeString(arena.buffer(), -1 - first[node], count[node]);
                }
        }
    }

    // ---- array element types, as (depth << 8 | leaf): Array^depth(leaf); leaf a tag, OBJECT_LEAF or DYNAMIC

    private static final int OBJECT_LEAF = 0xFF;
    private static final int NONE_TYPE = BinaryJson.NOTHING;
    private static final int ANY_TYPE = BinaryJson.DYNAMIC;

    /** {@code BinaryJson.elementType}: the element type of an array, as ClickHouse infers it from JSON text. */
    private int elementType(int node) {
        int t = NONE_TYPE;
        for (int i = first[node]; i < first[node] + count[node]; i++) {
            int e = type(i);
            int of = e == BinaryJson.ARRAY ? elementType(i) + (1 << 8) : e == BinaryJson.OBJECT ? OBJECT_LEAF : e;
            t = unify(t, of);
        }
        return t;
    }

    /** {@code BinaryJson.ElementType.unify}. */
    private static int unify(int a, int b) {
        if (a == NONE_TYPE) {
            return b;
        }
        if (b == NONE_TYPE || a == b) {
            return a;
        }
        int da = a >>> 8;
        int db = b >>> 8;
        if (da > 0 && db > 0) {
            return unify(a - (1 << 8), b - (1 << 8)) + (1 << 8);
        }
        int la = a & 0xFF;
        int lb = b & 0xFF;
        if (da == 0 && db == 0 && numeric(la) && numeric(lb)) {
            return la == BinaryJson.FLOAT64 || lb == BinaryJson.FLOAT64 ? BinaryJson.FLOAT64
                    : la == BinaryJson.UINT64 || lb == BinaryJson.UINT64 ? BinaryJson.UINT64
                    : BinaryJson.INT64; // Bool with Int64
        }
        return ANY_TYPE;
    }

    private static boolean numeric(int k) {
        return k == BinaryJson.BOOL || k == BinaryJson.INT64 || k == BinaryJson.UINT64 || k == BinaryJson.FLOAT64;
    }

    /** {@code BinaryJson.ElementType.writeType}: the element type's binary encoding, inside {@code Array(...)}. */
    private static void writeType(RowBinaryWriter out, int t) {
        for (int d = t >>> 8; d > 0; d--) {
            out.writeUInt8(BinaryJson.ARRAY);
        }
        int leaf = t & 0xFF;
        switch (leaf) {
            case BinaryJson.NOTHING:
                out.writeUInt8(BinaryJson.NULLABLE);
                out.writeUInt8(BinaryJson.STRING);
                break;
            case OBJECT_LEAF:
                out.writeRaw(BinaryJson.ARRAY_ELEMENT_JSON_TYPE, 0, BinaryJson.ARRAY_ELEMENT_JSON_TYPE.length);
                break;
            case BinaryJson.DYNAMIC:
                out.writeUInt8(BinaryJson.DYNAMIC);
                out.writeUInt8(BinaryJson.DYNAMIC_MAX_TYPES);
                break;
            default:
                out.writeUInt8(BinaryJson.NULLABLE);
                out.writeUInt8(leaf);
        }
    }

    /** {@code BinaryJson.ElementType.writeElements}: the element count, then each element in type {@code t}'s encoding. */
    private void writeElements(RowBinaryWriter out, int t, int node) {
        int n = kind[node] == WireValues.ARRAY ? count[node] : 0;
        out.writeArrayLength(n);
        int leaf = t & 0xFF;
        for (int i = first[node]; i < first[node] + n; i++) {
            boolean isNull = type(i) == BinaryJson.NOTHING;
            if (t >>> 8 > 0) {
                if (isNull) {
                    out.writeArrayLength(0); // arrays are not nullable: null reads as []
                } else {
                    writeElements(out, t - (1 << 8), i);
                }
            } else if (leaf == OBJECT_LEAF) {
                writeObject(out, i);
            } else if (leaf == BinaryJson.DYNAMIC) {
                writeDynamic(out, i);
            } else {
                out.writeUInt8(isNull ? 1 : 0);
                if (!isNull) {
                    writeAs(out, leaf == BinaryJson.NOTHING ? BinaryJson.STRING : leaf, i);
                }
            }
        }
    }

    /**
     * A set of byte strings in the arena, each with a tag (0 for paths, a level number for the keys
     * of one map), cleared in constant time: a slot counts only when stamped with the current round.
     */
    private static final class RangeSet {
        private int[] slots = new int[64]; // entry + 1
        private int[] stamps = new int[64];
        private int round = 1;
        private int[] tag = new int[32];
        private int[] at = new int[32];
        private int[] length = new int[32];
        private int[] hash = new int[32];
        private int size;

        int capacity() {
            return slots.length;
        }

        void clear() {
            size = 0;
            if (++round == Integer.MAX_VALUE) {
                java.util.Arrays.fill(stamps, 0);
                round = 1;
            }
        }

        /** Adds {@code (t, b[off, off + len))}; false when it is there already. */
        boolean add(int t, byte[] b, int off, int len) {
            int h = t * 31;
            for (int i = off; i < off + len; i++) {
                h = h * 31 + b[i];
            }
            h ^= h >>> 16;
            int mask = slots.length - 1;
            for (int s = h & mask; ; s = (s + 1) & mask) {
                if (stamps[s] != round) {
                    if (size * 2 >= slots.length) {
                        grow(b);
                        return add(t, b, off, len);
                    }
                    if (size == at.length) {
                        int c = size * 2;
                        tag = java.util.Arrays.copyOf(tag, c);
                        at = java.util.Arrays.copyOf(at, c);
                        length = java.util.Arrays.copyOf(length, c);
                        hash = java.util.Arrays.copyOf(hash, c);
                    }
                    tag[size] = t;
                    at[size] = off;
                    length[size] = len;
                    hash[size] = h;
                    stamps[s] = round;
                    slots[s] = ++size;
                    return true;
                }
                int e = slots[s] - 1;
                if (hash[e] == h && tag[e] == t && length[e] == len
                        && java.util.Arrays.equals(b, at[e], at[e] + len, b, off, off + len)) {
                    return false;
                }
            }
        }

        private void grow(byte[] b) {
            int n = slots.length * 2;
            slots = new int[n];
            stamps = new int[n];
            round = 1;
            int mask = n - 1;
            for (int e = 0; e < size; e++) {
                int s = hash[e] & mask;
                while (stamps[s] == round) {
                    s = (s + 1) & mask;
                }
                stamps[s] = round;
                slots[s] = e + 1;
            }
        }
    }
}
