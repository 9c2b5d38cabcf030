package io.tributary.encoding.jaeger;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An attribute map kept as the collector's {@code pcommon.Map} keeps one (pdata v1.59, {@code
 * pcommon/map.go}), so that the translator's puts and removes leave the attributes in the order the
 * collector's request has them: a put of a present key replaces its value where it stands, a put of
 * a new key appends, and {@code Remove} moves the last entry into the removed one's place. The
 * exporter's map columns sort their keys, so the order shows only in the request itself.
 */
final class PdataMap {
    private final List<String> keys = new ArrayList<>();
    private final List<AnyValue> values = new ArrayList<>();
    /** Where each key is in {@link #keys}: a span of many tags costs linear time, not quadratic. */
    private final Map<String, Integer> index = new HashMap<>();

    /** {@code Put*}: replaces the value of {@code key} in place, or appends it. */
    void put(String key, AnyValue value) {
        Integer i = index.get(key);
        if (i != null) {
            values.set(i, value);
        } else {
            index.put(key, keys.size());
            keys.add(key);
            values.add(value);
        }
    }

    /** {@code Get}: the value of {@code key}, or null. */
    AnyValue get(String key) {
        Integer i = index.get(key);
        return i == null ? null : values.get(i);
    }

    /** {@code Remove}: the last entry takes the removed one's place. */
    void remove(String key) {
        Integer i = index.remove(key);
        if (i == null) {
            return;
        }
        int last = keys.size() - 1;
        if (i != last) {
            String moved = keys.get(last);
            keys.set(i, moved);
            values.set(i, values.get(last));
            index.put(moved, i);
        }
        keys.remove(last);
        values.remove(last);
    }

    /** The attributes in the map's order. */
    List<KeyValue> toKeyValues() {
        List<KeyValue> out = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            out.add(KeyValue.newBuilder().setKey(keys.get(i)).setValue(values.get(i)).build());
        }
        return out;
    }

    /** pdata's {@code Value.Str()}: the string of a string value, "" for any other type. */
    static String str(AnyValue v) {
        return v.getValueCase() == AnyValue.ValueCase.STRING_VALUE ? v.getStringValue() : "";
    }
}
