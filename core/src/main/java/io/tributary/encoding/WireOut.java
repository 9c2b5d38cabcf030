package io.tributary.encoding;

import java.util.Arrays;

/** A growable buffer of protobuf wire bytes, for the requests the encodings write. */
final class WireOut {
    byte[] data = new byte[256];
    int size;

    WireOut clear() {
        size = 0;
        return this;
    }

    /** The tag of a length-delimited field. */
    WireOut tag(int field) {
        return varint(field << 3 | 2);
    }

    WireOut varint(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            data[size++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        data[size++] = (byte) v;
        return this;
    }

    WireOut fixed64(long v) {
        ensure(8);
        for (int i = 0; i < 8; i++) {
            data[size++] = (byte) (v >>> (8 * i));
        }
        return this;
    }

    /** A fixed64 field. */
    WireOut fixed64Field(int field, long v) {
        return varint(field << 3 | 1).fixed64(v);
    }

    WireOut bytes(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, data, size, len);
        size += len;
        return this;
    }

    /** A length-delimited field holding what {@code content} holds. */
    WireOut message(int field, WireOut content) {
        return tag(field).varint(content.size).bytes(content.data, 0, content.size);
    }

    /** A length-delimited field of {@code len} bytes of {@code b}. */
    WireOut field(int field, byte[] b, int off, int len) {
        return tag(field).varint(len).bytes(b, off, len);
    }

    /**
     * Opens a length-delimited field whose length is not known yet: its tag, then five bytes that
     * {@link #close} fills with the length as a five-byte varint (protobuf readers take a varint of
     * any length up to ten bytes), so nested messages are written once, front to back.
     *
     * @return where the content starts, for {@link #close}
     */
    int open(int field) {
        tag(field);
        ensure(5);
        size += 5;
        return size;
    }

    /** Closes the field {@link #open} opened at {@code start}. */
    void close(int start) {
        int len = size - start;
        int at = start - 5;
        for (int i = 0; i < 4; i++) {
            data[at + i] = (byte) ((len >>> (7 * i)) & 0x7F | 0x80);
        }
        data[at + 4] = (byte) (len >>> 28);
    }

    /** The bytes written, as an array of their length. */
    byte[] toArray() {
        return Arrays.copyOf(data, size);
    }

    static int varintSize(long v) {
        int n = 1;
        while ((v & ~0x7FL) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    private void ensure(int more) {
        if (data.length - size < more) {
            data = Arrays.copyOf(data, Math.max(data.length * 2, size + more));
        }
    }
}
