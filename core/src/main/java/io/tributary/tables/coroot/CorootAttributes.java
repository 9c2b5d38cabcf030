package io.tributary.tables.coroot;

import com.google.protobuf.ByteString;
import io.tributary.rowbinary.RowBinaryWriter;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A {@code Map(LowCardinality(String), String)} value as Coroot's collector fills it: one entry
 * per key (the last value of a repeated key), written in key byte order.
 */
final class CorootAttributes {

    static final CorootAttributes EMPTY = new CorootAttributes(Map.of());

    private final byte[][] keys;
    private final byte[][] values;

    CorootAttributes(Map<ByteString, byte[]> map) {
        List<byte[][]> entries = new ArrayList<>(map.size());
        map.forEach((k, v) -> entries.add(new byte[][] {k.toByteArray(), v}));
        entries.sort((a, b) -> Arrays.compareUnsigned(a[0], b[0]));
        keys = new byte[entries.size()][];
        values = new byte[entries.size()][];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = entries.get(i)[0];
            values[i] = entries.get(i)[1];
        }
    }

    /** The Map value: the entry count, then each key and value as a String. */
    void write(RowBinaryWriter out) {
        out.writeMapSize(keys.length);
        for (int i = 0; i < keys.length; i++) {
            out.writeString(keys[i]);
            out.writeString(values[i]);
        }
    }
}
