package io.tributary.tables;

import io.tributary.otlp.InvalidProtobufException;
import io.tributary.otlp.Utf8;
import io.tributary.otlp.proto.ProtoReader;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.schema.AttributeValue;
import io.tributary.tables.WireValues.IntList;

/**
 * An attribute list read where it lies in a record: the ranges of its {@code KeyValue} messages.
 * The {@code Map} value is written as the exporter renders it (keys and values as strings,
 * ordered by key bytes, stably); the JSON flavour's value and keys as {@link BinaryJson} writes
 * them, by {@link WireJson} from the same bytes. A resource's (a shared list's) values are rendered
 * once and copied for every row. Reused: {@link #reset} starts a new list.
 */
public final class WireAttributes implements AttributeValue {

    /** The resource attribute that names the service ({@code ServiceName} columns). */
    public static final byte[] SERVICE_NAME = "service.name".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final WireValues values;
    private final boolean shared;
    private ProtoReader parent;
    private final IntList ranges = new IntList();
    private final IntList valueRanges = new IntList();
    // made at first use: a span may hold many lists (one per event and link), most of them empty
    private RowBinaryWriter rendered;
    private RowBinaryWriter entries;
    private static final int[] NONE = new int[0];
    private int[] keyAt = NONE;
    private int[] keyStart = NONE;
    private int[] keyEnd = NONE;
    private int[] entryEnd = NONE;
    private int[] valueStart = NONE;
    private int[] valueLength = NONE;
    private byte[] sortKeys;
    private int[] order = NONE;
    private int[] sortScratch = NONE;
    private boolean mapReady;
    /** A shared list's JSON value, rendered once; and the keys value, made along with it once a keys column has been asked for. */
    private RowBinaryWriter renderedJson;
    private RowBinaryWriter renderedKeys;
    private boolean jsonReady;
    private boolean keysReady;
    private boolean wantsKeys;

    /**
     * @param values the value writer
     * @param shared whether many rows write this list (a resource's attributes): then its map is
     *     rendered once and copied
     */
    public WireAttributes(WireValues values, boolean shared) {
        this.values = values;
        this.shared = shared;
    }

    /** Starts a new list of the {@code KeyValue}s that are fields of messages read by {@code parent}. */
    public void reset(ProtoReader parent) {
        this.parent = parent;
        ranges.clear();
        mapReady = false;
        jsonReady = false;
        keysReady = false;
    }

    /** Adds a {@code KeyValue} message at this range. */
    public void add(int start, int length) {
        ranges.add(start, length);
    }

    int size() {
        return ranges.size() / 2;
    }

    @Override
    public void writeStringMap(RowBinaryWriter out) {
        if (!shared) {
            render(out); // one row has it: written where it goes
            return;
        }
        if (!mapReady) {
            if (rendered == null) {
                rendered = new RowBinaryWriter(256);
            }
            rendered.reset();
            render(rendered);
            mapReady = true;
        }
        out.writeRaw(rendered.buffer(), 0, rendered.size());
    }

    /**
     * Walks every {@code KeyValue} of the list as protobuf-java parses it, for a list no column
     * writes.
     */
    public void skim() throws InvalidProtobufException {
        for (int i = 0; i < ranges.size(); i += 2) {
            WireValues.skimKeyValue(parent, ranges.get(i), ranges.get(i + 1));
        }
    }

    /**
     * The {@code AsString()} of the value of the first attribute whose key is {@code key}, as a
     * ClickHouse String, or "" when there is none (the exporter's {@code GetServiceName}).
     */
    public void writeValueOf(byte[] key, RowBinaryWriter out) throws InvalidProtobufException {
        // every attribute is read as protobuf-java would parse it, even when no row uses them
        for (int i = 0; i < ranges.size(); i += 2) {
            WireValues.skimKeyValue(parent, ranges.get(i), ranges.get(i + 1));
        }
        for (int i = 0; i < ranges.size(); i += 2) {
            ProtoReader r = readKeyValue(i / 2);
            if (kvKeyLength == key.length && java.util.Arrays.equals(r.buffer(), kvKeyStart, kvKeyStart + kvKeyLength, key, 0,
                    kvKeyLength)) {
                values.writeAsString(r, valueRanges, out);
                return;
            }
        }
        out.writeVarUInt(0);
    }

    /**
     * Writes the map: entries ordered by key bytes (stably), each key and the {@code AsString()}
     * of its value. Commonly every key is valid UTF-8 and every value one field: then the keys
     * are ordered where they lie and each entry written once, straight to {@code out}; otherwise
     * the entries are rendered first and ordered by their rendered keys.
     */
    private void render(RowBinaryWriter out) throws InvalidProtobufException {
        int n = size();
        ensureCapacity(n);
        byte[] b = parent.buffer();
        boolean simple = true;
        for (int i = 0; i < n; i++) {
            ProtoReader r = parent.child(ranges.get(2 * i), ranges.get(2 * i + 1));
            int ks = 0;
            int kl = 0;
            int vs = 0;
            int vl = -1;
            while (r.next()) {
                if (r.is(1, ProtoReader.LEN)) {
                    r.readBytes();
                    ks = r.start();
                    kl = r.length();
                } else if (r.is(2, ProtoReader.LEN)) {
                    r.readBytes();
                    if (vl >= 0) {
                        simple = false; // the value's occurrences merge
                    }
                    vs = r.start();
                    vl = r.length();
                } else {
                    r.skip();
                }
            }
            keyStart[i] = ks;
            keyEnd[i] = ks + kl;
            valueStart[i] = vs;
            valueLength[i] = vl;
            order[i] = i;
            if (simple && !Utf8.isValid(b, ks, kl)) {
                simple = false;
            }
        }
        if (!simple) {
            renderInOrder(out, n);
            return;
        }
        sort(b, n);
        out.writeMapSize(n);
        for (int k = 0; k < n; k++) {
            int i = order[k];
            out.writeString(b, keyStart[i], keyEnd[i] - keyStart[i]);
            if (valueLength[i] < 0) {
                out.writeVarUInt(0); // no value: an empty AnyValue
            } else {
                // read one level below its KeyValue, where protobuf-java counts its depth
                ProtoReader kv = parent.child(ranges.get(2 * i), ranges.get(2 * i + 1));
                values.writeAsString(kv, valueStart[i], valueLength[i], out);
            }
        }
    }

    private void ensureCapacity(int n) {
        if (keyStart.length < n) {
            int c = Math.max(Math.max(n, 16), keyStart.length * 2);
            keyAt = new int[c];
            keyStart = new int[c];
            keyEnd = new int[c];
            valueStart = new int[c];
            valueLength = new int[c];
            entryEnd = new int[c];
            order = new int[c];
            sortScratch = new int[c];
        }
    }

    /** The general case: every entry rendered, then ordered by its rendered key. */
    private void renderInOrder(RowBinaryWriter out, int n) throws InvalidProtobufException {
        if (entries == null) {
            entries = new RowBinaryWriter(512);
        }
        entries.reset();
        for (int i = 0; i < n; i++) {
            ProtoReader r = readKeyValue(i);
            keyAt[i] = entries.size();
            WireValues.writeString(r.buffer(), kvKeyStart, kvKeyLength, entries);
            keyEnd[i] = entries.size();
            keyStart[i] = keyEnd[i] - (keyEnd[i] - keyAt[i] - leb128Length(entries.buffer(), keyAt[i]));
            values.writeAsString(r, valueRanges, entries);
            entryEnd[i] = entries.size();
            order[i] = i;
        }
        sort(entries.buffer(), n);
        out.writeMapSize(n);
        byte[] e = entries.buffer();
        for (int k = 0; k < n; k++) {
            int i = order[k];
            out.writeRaw(e, keyAt[i], entryEnd[i] - keyAt[i]);
        }
    }

    // the KeyValue readKeyValue read last: its key's range (the last occurrence; absent: empty) and,
    // in valueRanges, its value's occurrences
    private int kvKeyStart;
    private int kvKeyLength;

    /** Reads the {@code i}-th KeyValue; returns its reader (the parent of its value's ranges). */
    private ProtoReader readKeyValue(int i) throws InvalidProtobufException {
        ProtoReader r = parent.child(ranges.get(2 * i), ranges.get(2 * i + 1));
        kvKeyStart = kvKeyLength = 0;
        valueRanges.clear();
        while (r.next()) {
            if (r.is(1, ProtoReader.LEN)) {
                r.readBytes();
                kvKeyStart = r.start();
                kvKeyLength = r.length();
            } else if (r.is(2, ProtoReader.LEN)) {
                r.readBytes();
                valueRanges.add(r.start(), r.length());
            } else {
                r.skip();
            }
        }
        return r;
    }

    /** Bytes of the LEB128 length that starts at {@code at}. */
    private static int leb128Length(byte[] b, int at) {
        int n = 1;
        while (b[at + n - 1] < 0) {
            n++;
        }
        return n;
    }

    /** Stable sort of {@code order[0, n)} by the key bytes in {@code keys} (Go's string order). */
    private void sort(byte[] keys, int n) {
        sortKeys = keys;
        if (n < 32) {
            for (int i = 1; i < n; i++) {
                int x = order[i];
                int j = i;
                while (j > 0 && compareKeys(order[j - 1], x) > 0) {
                    order[j] = order[j - 1];
                    j--;
                }
                order[j] = x;
            }
            return;
        }
        mergeSort(0, n);
    }

    private void mergeSort(int from, int to) {
        if (to - from < 2) {
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(from, mid);
        mergeSort(mid, to);
        int i = from;
        int j = mid;
        int k = from;
        while (i < mid && j < to) {
            sortScratch[k++] = compareKeys(order[i], order[j]) <= 0 ? order[i++] : order[j++];
        }
        while (i < mid) {
            sortScratch[k++] = order[i++];
        }
        while (j < to) {
            sortScratch[k++] = order[j++];
        }
        System.arraycopy(sortScratch, from, order, from, to - from);
    }

    private int compareKeys(int a, int b) {
        byte[] e = sortKeys;
        return java.util.Arrays.compareUnsigned(e, keyStart[a], keyEnd[a], e, keyStart[b], keyEnd[b]);
    }

    @Override
    public void writeJson(RowBinaryWriter out) {
        if (jsonReady) {
            out.writeRaw(renderedJson.buffer(), 0, renderedJson.size());
            return;
        }
        WireJson json = values.json();
        json.build(parent, ranges);
        if (shared) {
            if (renderedJson == null) {
                renderedJson = new RowBinaryWriter(256);
            }
            renderedJson.reset();
            json.writeJson(renderedJson);
            jsonReady = true;
            out.writeRaw(renderedJson.buffer(), 0, renderedJson.size());
        } else {
            json.writeJson(out); // one row has it: written where it goes
        }
        if (wantsKeys) {
            // made now, while the list is read: the keys column comes later in the row, after other lists
            keys(json);
        }
    }

    @Override
    public void writeJsonKeys(RowBinaryWriter out) {
        wantsKeys = true;
        if (!keysReady) {
            WireJson json = values.json();
            json.build(parent, ranges);
            keys(json);
        }
        out.writeRaw(renderedKeys.buffer(), 0, renderedKeys.size());
    }

    private void keys(WireJson json) {
        if (renderedKeys == null) {
            renderedKeys = new RowBinaryWriter(64);
        }
        renderedKeys.reset();
        json.writeKeys(renderedKeys);
        keysReady = true;
    }
}
