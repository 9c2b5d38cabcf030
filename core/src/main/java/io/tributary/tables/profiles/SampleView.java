package io.tributary.tables.profiles;

import io.tributary.otlp.InvalidOtlpException;
import io.tributary.otlp.InvalidProtobufException;
import io.tributary.otlp.Utf8;
import io.tributary.otlp.proto.ProtoReader;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.schema.AttributeValue;
import io.tributary.tables.Hex;
import io.tributary.tables.RecordRows;
import io.tributary.tables.WireAttributes;
import io.tributary.tables.WireEnvelope;
import io.tributary.tables.WireValues;
import io.tributary.tables.WireValues.IntList;

import java.util.Arrays;

/**
 * One row of {@code otel_profiles} (one {@code Sample}) read where it lies in a protobuf record,
 * its dictionary lookups resolved as the contrib exporter's {@code exporter_profiles.go} resolves
 * them: {@code stringAt} ("" for an index outside the string table), the stack leaf first with
 * one frame per line of a location (inline frames in the order of its lines; a location without
 * lines one frame with empty names), {@code StackHash} the XXH64 of each frame's function name and
 * file name, each followed by a zero byte; link index 0 (or outside the table) no link; attribute
 * indices through the attribute table (an index or key index outside its table refuses the record,
 * as {@code pprofile.FromAttributeIndices} fails the exporter's batch), the last value of a key
 * winning, values by {@code AsString}, sorted by key. Negative location, mapping and function
 * indexes, on which the exporter's Go code panics, count as outside their tables. Reused from
 * sample to sample; see {@link ProfilesReader}.
 */
public final class SampleView {

    private final WireValues values;
    private final ProtoReader valueParent = new ProtoReader();
    final ProfilesDictionary dict = new ProfilesDictionary();
    private byte[] buf;
    // the resource and scope
    final WireAttributes resourceAttributes;
    private final RowBinaryWriter serviceName = new RowBinaryWriter(64);
    final WireEnvelope.Scope scope = new WireEnvelope.Scope();
    // the profile
    long time;
    long durationNanos;
    long period;
    int sampleType;
    int sampleUnit;
    int periodType;
    int periodUnit;
    int profileIdStart;
    int profileIdLength;
    final IntList profileAttributeIndices = new IntList();
    private RowBinaryWriter profileAttributes = new RowBinaryWriter(128);
    // the sample
    int stackIndex;
    int linkIndex;
    final IntList sampleAttributeIndices = new IntList();
    private RowBinaryWriter sampleAttributes = new RowBinaryWriter(128);
    final Packed.LongList sampleValues = new Packed.LongList();
    final Packed.LongList timestamps = new Packed.LongList();
    // the resolved stack: frames, and the stack they are of (samples of one profile often share it)
    private int framesOf;
    private boolean framesValid;
    private int frames;
    private long[] frameAddress = new long[32];
    private int[] frameFunction = new int[32];
    private int[] frameFile = new int[32];
    private int[] frameLine = new int[32];
    private int[] frameMapping = new int[32];
    private long stackHash;
    /** What the frames of the stack being resolved may still take in the row. */
    private long frameBudget;
    private RecordRows overBytes;
    private RecordRows overRows;
    private java.util.function.Supplier<RuntimeException> overSupplier;
    private final Xxh64 hash = new Xxh64();
    // attribute map rendering
    private int[] mapEntry = new int[16];
    private byte[][] mapKey = new byte[16][];
    private int[] mapKeyStart = new int[16];
    private int[] mapKeyLength = new int[16];
    private int[] mapOrder = new int[16];
    private int[] keySeen = new int[16];
    private final IntList valueRanges = new IntList();

    SampleView(WireValues values) {
        this.values = values;
        this.resourceAttributes = new WireAttributes(values, true);
    }

    void setBuffer(byte[] buf) {
        this.buf = buf;
        valueParent.reset(buf, 0, 0);
        framesValid = false;
        if (frameAddress.length > 1 << 14) { // a large stack's frames are not kept past its record
            frameAddress = new long[32];
            frameFunction = new int[32];
            frameFile = new int[32];
            frameLine = new int[32];
            frameMapping = new int[32];
        }
        if (mapEntry.length > 1 << 14) {
            mapEntry = new int[16];
            mapKey = new byte[16][];
            mapKeyStart = new int[16];
            mapKeyLength = new int[16];
            mapOrder = new int[16];
        }
        if (keySeen.length > 1 << 14) {
            keySeen = new int[16];
        }
        if (profileAttributes.size() > 1 << 20 || sampleAttributes.size() > 1 << 20) {
            profileAttributes = new RowBinaryWriter(128);
            sampleAttributes = new RowBinaryWriter(128);
        }
        if (sampleValues.a.length > 1 << 14 || timestamps.a.length > 1 << 14) {
            sampleValues.a = new long[16];
            timestamps.a = new long[16];
        }
    }

    /** The resource's {@code service.name}, rendered once per resource. */
    void renderServiceName() throws InvalidProtobufException {
        serviceName.reset();
        resourceAttributes.writeValueOf(WireAttributes.SERVICE_NAME, serviceName);
    }

    /** Forgets the previous profile's fields. */
    void newProfile() {
        time = durationNanos = period = 0;
        sampleType = sampleUnit = periodType = periodUnit = 0;
        profileIdStart = profileIdLength = 0;
        profileAttributeIndices.clear();
    }

    /**
     * Checks the profile's id and attribute indexes, and renders its attributes once for all its
     * samples when it has any (a profile without samples writes nothing, and renders nothing).
     */
    void profileRead(boolean hasSamples, RecordRows rows) throws InvalidProtobufException {
        ProfilesDictionary.checkId(profileIdLength, 16, "profileId");
        profileAttributes.reset();
        if (!hasSamples) {
            checkAttributes(profileAttributeIndices);
            return;
        }
        profileAttributes.limit(limit(rows), over(rows));
        renderAttributes(profileAttributeIndices, profileAttributes);
    }

    /** The refusal of {@code rows} past their bytes, made once per rows (not per sample). */
    private java.util.function.Supplier<RuntimeException> over(RecordRows rows) {
        if (rows != overRows) {
            overRows = rows;
            overSupplier = rows::overBytes;
        }
        return overSupplier;
    }

    /** What one rendered value may take: what the record may still render. */
    private static int limit(RecordRows rows) {
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE - 16, rows.bytesLeft()));
    }

    /** The exporter's index checks alone (its FromAttributeIndices runs for every profile). */
    private void checkAttributes(IntList indices) {
        ProfilesDictionary d = dict;
        int strings = d.strings.size() / 2;
        for (int k = 0; k < indices.size(); k++) {
            int a = indices.get(k);
            if (a < 0 || a >= d.attributes) {
                throw new InvalidOtlpException("attribute index " + a + " out of bounds [0, " + d.attributes + ")");
            }
            int key = d.attributeKey[a];
            if (key < 0 || key >= strings) {
                throw new InvalidOtlpException("key string index " + key + " out of bounds [0, " + strings + ")");
            }
        }
    }

    /** Forgets the previous sample's fields. */
    void newSample() {
        stackIndex = linkIndex = 0;
        sampleAttributeIndices.clear();
        sampleValues.clear();
        timestamps.clear();
    }

    /**
     * Resolves the sample's stack and attributes, the frames within what {@code rows} may still
     * hold: a stack of many locations of many lines each would otherwise multiply into more frames
     * than any row can hold, before a byte of them is written.
     */
    void sampleRead(RecordRows rows) throws InvalidProtobufException {
        sampleAttributes.reset();
        sampleAttributes.limit(limit(rows), over(rows));
        renderAttributes(sampleAttributeIndices, sampleAttributes);
        if (!framesValid || stackIndex != framesOf) {
            framesValid = false;
            frameBudget = rows.bytesLeft();
            overBytes = rows;
            resolveStack(stackIndex);
            framesOf = stackIndex;
            framesValid = true;
        }
    }

    private void resolveStack(int s) {
        ProfilesDictionary d = dict;
        frames = 0;
        if (s < 0 || s >= d.stacks) {
            stackHash = 0;
            return;
        }
        hash.reset();
        for (int i = d.stackFrom[s]; i < d.stackTo[s]; i++) {
            int loc = d.stackLocations.get(i);
            if (loc < 0 || loc >= d.locations) {
                continue;
            }
            long address = d.locationAddress[loc];
            int m = d.locationMapping[loc];
            int mappingFile = m >= 0 && m < d.mappings ? d.mappingFile[m] : -1;
            int from = d.locationLinesFrom[loc];
            int to = d.locationLinesTo[loc];
            if (from == to) {
                frame(address, -1, -1, 0, mappingFile);
                continue;
            }
            for (int l = from; l < to; l++) {
                int f = d.lineFunction[l];
                boolean known = f >= 0 && f < d.functions;
                frame(address, known ? d.functionName[f] : -1, known ? d.functionFile[f] : -1, (int) d.lineNumber[l], mappingFile);
            }
        }
        stackHash = hash.digest();
    }

    private void frame(long address, int function, int file, int line, int mappingFile) {
        // what the frame takes in the row: an address, a line number and three strings
        frameBudget -= 8 + 4 + stringBytes(function) + stringBytes(file) + stringBytes(mappingFile);
        if (frameBudget < 0) {
            throw overBytes.overBytes();
        }
        if (frames == frameAddress.length) {
            int n = frames * 2;
            frameAddress = Arrays.copyOf(frameAddress, n);
            frameFunction = Arrays.copyOf(frameFunction, n);
            frameFile = Arrays.copyOf(frameFile, n);
            frameLine = Arrays.copyOf(frameLine, n);
            frameMapping = Arrays.copyOf(frameMapping, n);
        }
        frameAddress[frames] = address;
        frameFunction[frames] = function;
        frameFile[frames] = file;
        frameLine[frames] = line;
        frameMapping[frames] = mappingFile;
        frames++;
        hashString(function);
        hash.update((byte) 0);
        hashString(file);
        hash.update((byte) 0);
    }

    /** What string {@code i} takes in a row: its length and bytes. */
    private long stringBytes(int i) {
        if (!dict.hasString(i)) {
            return 1;
        }
        byte[] r = dict.replaced(buf, i);
        long n = r != null ? r.length : dict.strings.get(2 * i + 1);
        return n + (n < 128 ? 1 : 5);
    }

    /** Feeds the string as the column holds it (invalid UTF-8 replaced, as every string column). */
    private void hashString(int i) {
        if (!dict.hasString(i)) {
            return;
        }
        byte[] r = dict.replaced(buf, i);
        if (r == null) {
            hash.update(buf, dict.strings.get(2 * i), dict.strings.get(2 * i + 1));
        } else {
            hash.update(r, 0, r.length);
        }
    }

    /**
     * Renders the map of the attributes at {@code indices}: {@code FromAttributeIndices} then
     * {@code AttributesToMap}.
     */
    private void renderAttributes(IntList indices, RowBinaryWriter out) throws InvalidProtobufException {
        ProfilesDictionary d = dict;
        checkAttributes(indices);
        int strings = d.strings.size() / 2;
        // the last position of each key index: one pass, whatever the list's length
        if (keySeen.length < strings) {
            keySeen = new int[Math.max(strings, keySeen.length * 2)];
        }
        for (int k = 0; k < indices.size(); k++) {
            keySeen[d.attributeKey[indices.get(k)]] = k; // read below only for keys this list sets
        }
        int n = 0;
        for (int k = 0; k < indices.size(); k++) {
            int a = indices.get(k);
            int key = d.attributeKey[a];
            if (keySeen[key] != k) {
                continue; // the key comes again later: its last value wins (pcommon.Map.PutEmpty)
            }
            if (n == mapEntry.length) {
                int c = n * 2;
                mapEntry = Arrays.copyOf(mapEntry, c);
                mapKey = Arrays.copyOf(mapKey, c);
                mapKeyStart = Arrays.copyOf(mapKeyStart, c);
                mapKeyLength = Arrays.copyOf(mapKeyLength, c);
                mapOrder = Arrays.copyOf(mapOrder, c);
            }
            byte[] replaced = d.replaced(buf, key);
            if (replaced == null) {
                mapKey[n] = buf;
                mapKeyStart[n] = d.strings.get(2 * key);
                mapKeyLength[n] = d.strings.get(2 * key + 1);
            } else {
                mapKey[n] = replaced;
                mapKeyStart[n] = 0;
                mapKeyLength[n] = replaced.length;
            }
            mapEntry[n] = a;
            mapOrder[n] = n;
            n++;
        }
        // in key order (AttributesToMap); two key strings of the same bytes are one key, the later
        // value winning: a stable sort by key bytes, keeping the last of each run of one key
        int filled = n;
        if (n > 1) {
            int[] order = mapOrder;
            if (n <= 32) {
                // short lists (all but hostile ones): an insertion sort, stable, without allocating
                for (int i = 1; i < n; i++) {
                    int x = order[i];
                    int j = i - 1;
                    while (j >= 0 && compareKeys(order[j], x) > 0) {
                        order[j + 1] = order[j];
                        j--;
                    }
                    order[j + 1] = x;
                }
            } else {
                Integer[] boxed = new Integer[n];
                for (int i = 0; i < n; i++) {
                    boxed[i] = i;
                }
                Arrays.sort(boxed, this::compareKeys); // stable, n log n, over distinct key strings
                for (int i = 0; i < n; i++) {
                    order[i] = boxed[i];
                }
            }
            int kept = 0;
            for (int i = 0; i < n; i++) {
                int x = order[i];
                if (i + 1 < n && compareKeys(x, order[i + 1]) == 0) {
                    continue; // a later value of the same key follows
                }
                order[kept++] = x;
            }
            n = kept;
        }
        out.writeMapSize(n);
        for (int k = 0; k < n; k++) {
            int i = mapOrder[k];
            out.writeString(mapKey[i], mapKeyStart[i], mapKeyLength[i]);
            int a = mapEntry[i];
            valueRanges.clear();
            for (int v = d.attributeValuesFrom[a]; v < d.attributeValuesTo[a]; v++) {
                valueRanges.add(d.attributeValueRanges.get(v));
            }
            values.writeAsString(valueParent, valueRanges, out);
        }
        Arrays.fill(mapKey, 0, filled, null); // no record's bytes kept
    }

    private int compareKeys(int x, int y) {
        return Arrays.compareUnsigned(mapKey[x], mapKeyStart[x], mapKeyStart[x] + mapKeyLength[x],
                mapKey[y], mapKeyStart[y], mapKeyStart[y] + mapKeyLength[y]);
    }

    private void writeStringAt(int i, RowBinaryWriter out) {
        if (!dict.hasString(i)) {
            out.writeVarUInt(0);
            return;
        }
        WireValues.writeString(buf, dict.strings.get(2 * i), dict.strings.get(2 * i + 1), out);
    }

    // ---- column values (written by ProfilesSchema's columns)

    /** The profile's time ({@code Timestamp}: the profile's, not a sample's). */
    public long timestampNanos() {
        return time;
    }

    public void writeProfileId(RowBinaryWriter out) {
        Hex.write(buf, profileIdStart, profileIdLength, out);
    }

    public void writeSampleType(RowBinaryWriter out) {
        writeStringAt(sampleType, out);
    }

    public void writeSampleUnit(RowBinaryWriter out) {
        writeStringAt(sampleUnit, out);
    }

    public void writeServiceName(RowBinaryWriter out) {
        out.writeRaw(serviceName.buffer(), 0, serviceName.size());
    }

    public AttributeValue resourceAttributes() {
        return resourceAttributes;
    }

    public void writeScopeName(RowBinaryWriter out) {
        WireValues.writeString(buf, scope.nameStart, scope.nameLength, out);
    }

    public void writeScopeVersion(RowBinaryWriter out) {
        WireValues.writeString(buf, scope.versionStart, scope.versionLength, out);
    }

    public void writeProfileAttributes(RowBinaryWriter out) {
        out.writeRaw(profileAttributes.buffer(), 0, profileAttributes.size());
    }

    public void writeSampleAttributes(RowBinaryWriter out) {
        out.writeRaw(sampleAttributes.buffer(), 0, sampleAttributes.size());
    }

    public long stackHash() {
        return stackHash;
    }

    public void writeAddresses(RowBinaryWriter out) {
        out.writeArrayLength(frames);
        for (int i = 0; i < frames; i++) {
            out.writeUInt64(frameAddress[i]);
        }
    }

    public void writeFunctionNames(RowBinaryWriter out) {
        writeStrings(frameFunction, out);
    }

    public void writeFileNames(RowBinaryWriter out) {
        writeStrings(frameFile, out);
    }

    public void writeMappingFileNames(RowBinaryWriter out) {
        writeStrings(frameMapping, out);
    }

    private void writeStrings(int[] indices, RowBinaryWriter out) {
        out.writeArrayLength(frames);
        for (int i = 0; i < frames; i++) {
            writeStringAt(indices[i], out);
        }
    }

    public void writeLineNumbers(RowBinaryWriter out) {
        out.writeArrayLength(frames);
        for (int i = 0; i < frames; i++) {
            out.writeInt32(frameLine[i]);
        }
    }

    public void writeValues(RowBinaryWriter out) {
        writeLongs(sampleValues, out);
    }

    public void writeTimestamps(RowBinaryWriter out) {
        writeLongs(timestamps, out);
    }

    private static void writeLongs(Packed.LongList l, RowBinaryWriter out) {
        out.writeArrayLength(l.size);
        for (int i = 0; i < l.size; i++) {
            out.writeInt64(l.a[i]);
        }
    }

    public long durationNanos() {
        return durationNanos;
    }

    public long period() {
        return period;
    }

    public void writePeriodType(RowBinaryWriter out) {
        writeStringAt(periodType, out);
    }

    public void writePeriodUnit(RowBinaryWriter out) {
        writeStringAt(periodUnit, out);
    }

    public void writeTraceId(RowBinaryWriter out) {
        if (linkIndex <= 0 || linkIndex >= dict.links) {
            out.writeVarUInt(0);
            return;
        }
        Hex.write(buf, dict.linkIds[4 * linkIndex], dict.linkIds[4 * linkIndex + 1], out);
    }

    public void writeSpanId(RowBinaryWriter out) {
        if (linkIndex <= 0 || linkIndex >= dict.links) {
            out.writeVarUInt(0);
            return;
        }
        Hex.write(buf, dict.linkIds[4 * linkIndex + 2], dict.linkIds[4 * linkIndex + 3], out);
    }
}
