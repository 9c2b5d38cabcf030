package io.tributary.encoding;

/**
 * A Kafka record's headers as the decoders see them: keys in order (a key may repeat) and their
 * values (an element may be null). Lent for one call.
 */
public final class RecordHeaders {

    /** No headers. */
    public static final RecordHeaders NONE = new RecordHeaders(new String[0], new byte[0][]);

    private final String[] keys;
    private final byte[][] values;

    public RecordHeaders(String[] keys, byte[][] values) {
        if (keys.length != values.length) {
            throw new IllegalArgumentException(keys.length + " header keys, " + values.length + " values");
        }
        this.keys = keys;
        this.values = values;
    }

    public int size() {
        return keys.length;
    }

    public String key(int i) {
        return keys[i];
    }

    /** The value of header {@code i}, or null (a header without a value). */
    public byte[] value(int i) {
        return values[i];
    }

    /** The index of the first header named {@code key}, or -1. */
    public int first(String key) {
        for (int i = 0; i < keys.length; i++) {
            if (keys[i].equals(key)) {
                return i;
            }
        }
        return -1;
    }
}
