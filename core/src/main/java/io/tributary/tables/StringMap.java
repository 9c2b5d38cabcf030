package io.tributary.tables;

import io.opentelemetry.proto.common.v1.KeyValue;
import io.tributary.rowbinary.RowBinaryWriter;

import java.util.Arrays;
import java.util.List;

/**
 * A reusable list of string key/value pairs: the value of a {@code Map(LowCardinality(String),
 * String)} column.
 *
 * <p>Built as the exporter's {@code AttributesToMap} builds it: every attribute (a repeated key
 * too) with its value rendered by {@code AsString}, sorted by key in byte order. The sort here is
 * stable, so repeated keys keep their arrival order.
 */
public final class StringMap {

    private String[] keys;
    private String[] values;
    private int size;

    public StringMap() {
        this(8);
    }

    public StringMap(int capacity) {
        keys = new String[Math.max(1, capacity)];
        values = new String[keys.length];
    }

    /** A new map from OTLP attributes; see {@link #setAttributes}. */
    public static StringMap ofAttributes(List<KeyValue> attributes) {
        StringMap m = new StringMap(attributes.size());
        m.setAttributes(attributes);
        return m;
    }

    public int size() {
        return size;
    }

    public String key(int i) {
        return keys[i];
    }

    public String value(int i) {
        return values[i];
    }

    /** Replaces the content with OTLP attributes, rendered and sorted as the exporter does. */
    public void setAttributes(List<KeyValue> attributes) {
        int n = attributes.size();
        if (n > keys.length) {
            keys = new String[n];
            values = new String[n];
        } else if (n < size) {
            Arrays.fill(keys, n, size, null);
            Arrays.fill(values, n, size, null);
        }
        for (int i = 0; i < n; i++) {
            KeyValue kv = attributes.get(i);
            String k = kv.getKey();
            String v = AnyValues.asString(kv.getValue());
            // insertion sort: attribute lists are short and usually already sorted
            int j = i;
            while (j > 0 && AnyValues.compareUtf8(keys[j - 1], k) > 0) {
                keys[j] = keys[j - 1];
                values[j] = values[j - 1];
                j--;
            }
            keys[j] = k;
            values[j] = v;
        }
        size = n;
    }

    /** Writes the {@code Map(LowCardinality(String), String)} value: the entry count, then each key and value. */
    public void write(RowBinaryWriter out) {
        out.writeMapSize(size);
        for (int i = 0; i < size; i++) {
            out.writeString(keys[i]);
            out.writeString(values[i]);
        }
    }
}
