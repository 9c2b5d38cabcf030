package io.tributary.encoding.jaeger;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;

import java.util.ArrayList;
import java.util.List;

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

    /** {@code Put*}: replaces the value of {@code key} in place, or appends it. */
    void put(String key, AnyValue value) {
        int i = keys.indexOf(key);
        if (i >= 0) {
            values.set(i, value);
        } else {
            keys.add(key);
            values.add(value);
        }
    }

    /** {@code Get}: the value of {@code key}, or null. */
    AnyValue get(String key) {
        int i = keys.indexOf(key);
        return i < 0 ? null : values.get(i);
    }

    /** {@code Remove}: the last entry takes the removed one's place. */
    void remove(String key) {
        int i = keys.indexOf(key);
        if (i < 0) {
            return;
        }
        int last = keys.size() - 1;
        keys.set(i, keys.get(last));
        values.set(i, values.get(last));
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
