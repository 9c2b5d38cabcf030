package io.tributary.tables.profiles;

import io.tributary.otlp.Ids;
import io.tributary.otlp.InvalidOtlpException;
import io.tributary.otlp.InvalidProtobufException;
import io.tributary.otlp.proto.ProtoReader;
import io.tributary.tables.WireValues;
import io.tributary.tables.WireValues.IntList;

import java.util.Arrays;

/**
 * A request's {@code ProfilesDictionary} read where it lies: every table as ranges and numbers in
 * flat arrays, each entry walked as protobuf-java parses it (so a damaged entry fails the record
 * whether or not a sample uses it), every field checked against opentelemetry-proto v1.10/v1.11
 * ({@link ProfilesVersion}). Occurrences of the dictionary field merge: their tables concatenate.
 * Reused from record to record.
 */
final class ProfilesDictionary {

    // string_table: (start, length) per entry
    final IntList strings = new IntList();
    // function_table
    int functions;
    int[] functionName = new int[16];
    int[] functionFile = new int[16];
    // mapping_table
    int mappings;
    int[] mappingFile = new int[16];
    // location_table; its lines flat
    int locations;
    int[] locationMapping = new int[16];
    long[] locationAddress = new long[16];
    int[] locationLinesFrom = new int[16];
    int[] locationLinesTo = new int[16];
    int lines;
    int[] lineFunction = new int[32];
    long[] lineNumber = new long[32];
    // link_table: trace id and span id ranges
    int links;
    int[] linkIds = new int[64];
    // attribute_table: key index, and the ranges of the value's occurrences (protobuf merges them)
    int attributes;
    int[] attributeKey = new int[16];
    int[] attributeValuesFrom = new int[16];
    int[] attributeValuesTo = new int[16];
    final IntList attributeValueRanges = new IntList();
    // stack_table, its location indices flat
    int stacks;
    int[] stackFrom = new int[16];
    int[] stackTo = new int[16];
    final IntList stackLocations = new IntList();

    private final IntList scratch = new IntList();
    // per string: 0 not looked at, 1 valid UTF-8, 2 invalid (its replaced bytes in replaced[i])
    private byte[] validity = new byte[64];
    private byte[][] replaced = new byte[64][];
    private int looked;
    // the heap the tables hold, against the bytes the record may render
    private long memory;
    private long budget;
    private io.tributary.tables.RecordRows rows;
    /** Entries past which a table's arrays are given back after the record. */
    private static final int KEEP = 1 << 14;

    void clear() {
        if (functionName.length > KEEP || mappingFile.length > KEEP || locationMapping.length > KEEP
                || lineFunction.length > KEEP || linkIds.length > 4 * KEEP || attributeKey.length > KEEP
                || stackFrom.length > KEEP || validity.length > KEEP) {
            functionName = new int[16];
            functionFile = new int[16];
            mappingFile = new int[16];
            locationMapping = new int[16];
            locationAddress = new long[16];
            locationLinesFrom = new int[16];
            locationLinesTo = new int[16];
            lineFunction = new int[32];
            lineNumber = new long[32];
            linkIds = new int[64];
            attributeKey = new int[16];
            attributeValuesFrom = new int[16];
            attributeValuesTo = new int[16];
            stackFrom = new int[16];
            stackTo = new int[16];
            validity = new byte[64];
            replaced = new byte[64][];
        }
        if (strings.size() > 2 * KEEP || attributeValueRanges.size() > 2 * KEEP || stackLocations.size() > KEEP
                || scratch.size() > KEEP) {
            strings.shrink();
            attributeValueRanges.shrink();
            stackLocations.shrink();
            scratch.shrink();
        }
        java.util.Arrays.fill(validity, 0, Math.min(looked, validity.length), (byte) 0);
        java.util.Arrays.fill(replaced, 0, Math.min(looked, replaced.length), null);
        looked = 0;
        memory = 0;
        strings.clear();
        functions = mappings = locations = lines = links = attributes = stacks = 0;
        attributeValueRanges.clear();
        stackLocations.clear();
        scratch.clear();
    }

    /**
     * Holds the tables' heap to what {@code rows} may still render: the arrays take up to twenty
     * times the bytes of the entries they index (an empty location is two bytes), which no other
     * bound sees.
     */
    void bound(io.tributary.tables.RecordRows rows) {
        this.rows = rows;
        this.budget = rows.bytesLeft();
    }

    /** Counts {@code bytes} more of the tables' heap. */
    private void grew(long bytes) {
        memory += bytes;
        if (memory > budget) {
            throw rows.overBytes();
        }
    }

    /** Adds the tables of one occurrence of the dictionary field (its message read by {@code r}). */
    void read(ProtoReader r) throws InvalidProtobufException {
        while (r.next()) {
            if (r.wireType() != ProtoReader.LEN || r.field() < 1 || r.field() > 7) {
                throw ProfilesVersion.unknownField("ProfilesDictionary", r);
            }
            r.readBytes();
            switch (r.field()) {
                case 1:
                    mapping(r.child());
                    break;
                case 2:
                    location(r.child());
                    break;
                case 3:
                    function(r.child());
                    break;
                case 4:
                    link(r.child());
                    break;
                case 5:
                    strings.add(r.start(), r.length());
                    grew(8 + 9);
                    break;
                case 6:
                    attribute(r.child());
                    break;
                default:
                    stack(r.child());
                    break;
            }
        }
    }

    private void mapping(ProtoReader r) throws InvalidProtobufException {
        int file = 0;
        while (r.next()) {
            switch (r.field()) {
                case 1:
                case 2:
                case 3:
                    if (r.wireType() == ProtoReader.VARINT) {
                        r.readVarint();
                        continue;
                    }
                    break;
                case 4:
                    if (r.wireType() == ProtoReader.VARINT) {
                        file = (int) r.readVarint();
                        continue;
                    }
                    break;
                case 5:
                    scratch.clear(); // read as protobuf-java reads them, not stored
                    if (Packed.int32s(r, scratch)) {
                        continue;
                    }
                    break;
                default:
                    break;
            }
            throw ProfilesVersion.unknownField("Mapping", r);
        }
        if (mappings == mappingFile.length) {
            mappingFile = Arrays.copyOf(mappingFile, mappings * 2);
        }
        mappingFile[mappings++] = file;
        grew(4);
    }

    private void location(ProtoReader r) throws InvalidProtobufException {
        int mapping = 0;
        long address = 0;
        int from = lines;
        while (r.next()) {
            switch (r.field()) {
                case 1:
                    if (r.wireType() == ProtoReader.VARINT) {
                        mapping = (int) r.readVarint();
                        continue;
                    }
                    break;
                case 2:
                    if (r.wireType() == ProtoReader.VARINT) {
                        address = r.readVarint();
                        continue;
                    }
                    break;
                case 3:
                    if (r.wireType() == ProtoReader.LEN) {
                        r.readBytes();
                        line(r.child());
                        continue;
                    }
                    break;
                case 4:
                    scratch.clear();
                    if (Packed.int32s(r, scratch)) {
                        continue;
                    }
                    break;
                default:
                    break;
            }
            throw ProfilesVersion.unknownField("Location", r);
        }
        if (locations == locationMapping.length) {
            int n = locations * 2;
            locationMapping = Arrays.copyOf(locationMapping, n);
            locationAddress = Arrays.copyOf(locationAddress, n);
            locationLinesFrom = Arrays.copyOf(locationLinesFrom, n);
            locationLinesTo = Arrays.copyOf(locationLinesTo, n);
        }
        locationMapping[locations] = mapping;
        locationAddress[locations] = address;
        locationLinesFrom[locations] = from;
        locationLinesTo[locations] = lines;
        locations++;
        grew(20);
    }

    private void line(ProtoReader r) throws InvalidProtobufException {
        int function = 0;
        long line = 0;
        while (r.next()) {
            if (r.is(1, ProtoReader.VARINT)) {
                function = (int) r.readVarint();
            } else if (r.is(2, ProtoReader.VARINT)) {
                line = r.readVarint();
            } else if (r.is(3, ProtoReader.VARINT)) {
                r.readVarint();
            } else {
                throw ProfilesVersion.unknownField("Line", r);
            }
        }
        if (lines == lineFunction.length) {
            lineFunction = Arrays.copyOf(lineFunction, lines * 2);
            lineNumber = Arrays.copyOf(lineNumber, lines * 2);
        }
        lineFunction[lines] = function;
        lineNumber[lines] = line;
        lines++;
        grew(12);
    }

    private void function(ProtoReader r) throws InvalidProtobufException {
        int name = 0;
        int file = 0;
        while (r.next()) {
            if (r.is(1, ProtoReader.VARINT)) {
                name = (int) r.readVarint();
            } else if (r.is(2, ProtoReader.VARINT) || r.is(4, ProtoReader.VARINT)) {
                r.readVarint();
            } else if (r.is(3, ProtoReader.VARINT)) {
                file = (int) r.readVarint();
            } else {
                throw ProfilesVersion.unknownField("Function", r);
            }
        }
        if (functions == functionName.length) {
            functionName = Arrays.copyOf(functionName, functions * 2);
            functionFile = Arrays.copyOf(functionFile, functions * 2);
        }
        functionName[functions] = name;
        functionFile[functions] = file;
        functions++;
        grew(8);
    }

    private void link(ProtoReader r) throws InvalidProtobufException {
        int traceStart = 0;
        int traceLength = 0;
        int spanStart = 0;
        int spanLength = 0;
        while (r.next()) {
            if (r.is(1, ProtoReader.LEN)) {
                r.readBytes();
                traceStart = r.start();
                traceLength = r.length();
            } else if (r.is(2, ProtoReader.LEN)) {
                r.readBytes();
                spanStart = r.start();
                spanLength = r.length();
            } else {
                throw ProfilesVersion.unknownField("Link", r);
            }
        }
        // pdata refuses the request when an id has another size
        checkId(traceLength, Ids.TRACE_ID_BYTES, "link_table traceId");
        checkId(spanLength, Ids.SPAN_ID_BYTES, "link_table spanId");
        if (4 * links + 4 > linkIds.length) {
            linkIds = Arrays.copyOf(linkIds, linkIds.length * 2);
        }
        int p = 4 * links++;
        linkIds[p] = traceStart;
        linkIds[p + 1] = traceLength;
        linkIds[p + 2] = spanStart;
        linkIds[p + 3] = spanLength;
        grew(16);
    }

    static void checkId(int length, int expected, String field) {
        if (length != 0 && length != expected) {
            throw new InvalidOtlpException(field + " must be " + expected + " bytes, got " + length);
        }
    }

    private void attribute(ProtoReader r) throws InvalidProtobufException {
        int key = 0;
        int from = attributeValueRanges.size();
        while (r.next()) {
            if (r.is(1, ProtoReader.VARINT)) {
                key = (int) r.readVarint();
            } else if (r.is(2, ProtoReader.LEN)) {
                r.readBytes();
                WireValues.skimAnyValue(r); // parsed as protobuf-java parses it, used or not
                attributeValueRanges.add(r.start(), r.length());
            } else if (r.is(3, ProtoReader.VARINT)) {
                r.readVarint();
            } else {
                throw ProfilesVersion.unknownField("KeyValueAndUnit", r);
            }
        }
        if (attributes == attributeKey.length) {
            attributeKey = Arrays.copyOf(attributeKey, attributes * 2);
            attributeValuesFrom = Arrays.copyOf(attributeValuesFrom, attributes * 2);
            attributeValuesTo = Arrays.copyOf(attributeValuesTo, attributes * 2);
        }
        attributeKey[attributes] = key;
        attributeValuesFrom[attributes] = from;
        attributeValuesTo[attributes] = attributeValueRanges.size();
        attributes++;
        grew(12 + 8);
    }

    private void stack(ProtoReader r) throws InvalidProtobufException {
        int from = stackLocations.size();
        while (r.next()) {
            if (r.field() != 1 || !Packed.int32s(r, stackLocations)) {
                throw ProfilesVersion.unknownField("Stack", r);
            }
        }
        if (stacks == stackFrom.length) {
            stackFrom = Arrays.copyOf(stackFrom, stacks * 2);
            stackTo = Arrays.copyOf(stackTo, stacks * 2);
        }
        stackFrom[stacks] = from;
        stackTo[stacks] = stackLocations.size();
        stacks++;
        grew(8 + 4L * (stackLocations.size() - from));
    }

    /**
     * The bytes of string {@code i} as every string column holds them (invalid UTF-8 replaced by
     * U+FFFD), looked at once per record: null when they are the record's own bytes where the
     * string lies, else the replaced copy.
     */
    byte[] replaced(byte[] buf, int i) {
        if (i >= validity.length) {
            int n = Math.max(i + 1, validity.length * 2);
            validity = java.util.Arrays.copyOf(validity, n);
            replaced = java.util.Arrays.copyOf(replaced, n);
        }
        if (validity[i] == 0) {
            int start = strings.get(2 * i);
            int length = strings.get(2 * i + 1);
            if (io.tributary.otlp.Utf8.isValid(buf, start, length)) {
                validity[i] = 1;
            } else {
                validity[i] = 2;
                replaced[i] = io.tributary.otlp.Utf8.replaceInvalid(buf, start, length);
                grew(replaced[i].length);
            }
            looked = Math.max(looked, i + 1);
        }
        return replaced[i];
    }

    /** Whether {@code i} names a string ({@code stringAt}: any other index is ""). */
    boolean hasString(int i) {
        return i >= 0 && i < strings.size() / 2;
    }
}
