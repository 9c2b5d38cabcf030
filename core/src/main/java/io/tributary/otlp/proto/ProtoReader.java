package io.tributary.otlp.proto;

import io.tributary.otlp.InvalidProtobufException;

/**
 * A pull reader of the protobuf wire format (https://protobuf.dev/programming-guides/encoding/)
 * over a byte array: tag by tag, without building messages. A field's value is read with the
 * method of its wire type; a length-delimited value is given as a range of the array ({@link
 * #start}, {@link #length}), so strings and embedded messages are read where they lie.
 *
 * <p>Readers come in a chain, one per nesting depth ({@link #child}), reused from message to
 * message: reading an embedded message never allocates. Errors follow protobuf-java's, whose
 * parser is the reference: a truncated message, a malformed varint, tag 0, wire types 6 and 7, an
 * unmatched end-group tag and more than {@value #MAX_DEPTH} levels of nesting are refused with an
 * {@link InvalidProtobufException}; fields of unknown numbers, and known numbers with another wire
 * type, are skipped as protobuf-java skips unknown fields.
 */
public final class ProtoReader {

    /** protobuf-java's default recursion limit. */
    public static final int MAX_DEPTH = 100;

    public static final int VARINT = 0;
    public static final int I64 = 1;
    public static final int LEN = 2;
    public static final int SGROUP = 3;
    public static final int EGROUP = 4;
    public static final int I32 = 5;

    private final int depth;
    private ProtoReader child;
    private byte[] buf;
    private int pos;
    private int end;
    private int tag;
    private long longValue;
    private int start;
    private int length;

    /** A reader for top-level messages (depth 0). */
    public ProtoReader() {
        this(0);
    }

    private ProtoReader(int depth) {
        this.depth = depth;
    }

    /** Reads the message in {@code buf[off, off + len)} from its start. */
    public ProtoReader reset(byte[] buf, int off, int len) {
        if (this.buf != buf) {
            // a reference store costs a GC write barrier; nested readers see one array per record
            this.buf = buf;
        }
        this.pos = off;
        this.end = off + len;
        this.tag = 0;
        return this;
    }

    /**
     * The reader of an embedded message at {@code [start, start + length)} of the same array, one
     * level deeper; valid until the next call of {@code child} on this reader.
     */
    public ProtoReader child(int start, int length) throws InvalidProtobufException {
        if (depth + 1 > MAX_DEPTH) {
            throw new InvalidProtobufException("Protocol message had too many levels of nesting (more than " + MAX_DEPTH + ")");
        }
        ProtoReader c = child;
        if (c == null) {
            c = new ProtoReader(depth + 1);
            child = c;
        }
        return c.reset(buf, start, length);
    }

    /** The reader of the message of the length-delimited field just read. */
    public ProtoReader child() throws InvalidProtobufException {
        return child(start, length);
    }

    public byte[] buffer() {
        return buf;
    }

    public int depth() {
        return depth;
    }

    /** Moves to the next field; false at the message's end. */
    public boolean next() throws InvalidProtobufException {
        if (pos >= end) {
            return false;
        }
        tag = (int) varint(); // as protobuf-java's readRawVarint32: the low 32 bits
        if (tag >>> 3 == 0) {
            throw new InvalidProtobufException("Protocol message contained an invalid tag (zero).");
        }
        int wt = tag & 7;
        if (wt == 6 || wt == 7) {
            throw new InvalidProtobufException("Protocol message tag had invalid wire type.");
        }
        if (wt == EGROUP) {
            throw new InvalidProtobufException("Protocol message end-group tag did not match expected tag.");
        }
        return true;
    }

    public int field() {
        return tag >>> 3;
    }

    public int wireType() {
        return tag & 7;
    }

    /** True when the field just read has this number and wire type. */
    public boolean is(int field, int wireType) {
        return tag == (field << 3 | wireType);
    }

    /**
     * Reads the current field's varint value as protobuf-java's {@code readRawVarint64} reads it
     * from an array: a varint of ten bytes has bit 63 set whatever the tenth byte's value bits
     * (only its continuation bit is looked at), so {@code ff ff ff ff ff ff ff ff ff 00} is -1.
     */
    public long readVarint() throws InvalidProtobufException {
        int from = pos;
        long v = varint();
        if (pos - from == 10) {
            v |= Long.MIN_VALUE;
        }
        return longValue = v;
    }

    /** Reads the current field's 8 bytes, little-endian. */
    public long readFixed64() throws InvalidProtobufException {
        if (end - pos < 8) {
            throw truncated();
        }
        byte[] b = buf;
        int p = pos;
        long v = (b[p] & 0xFFL) | (b[p + 1] & 0xFFL) << 8 | (b[p + 2] & 0xFFL) << 16 | (b[p + 3] & 0xFFL) << 24
                | (b[p + 4] & 0xFFL) << 32 | (b[p + 5] & 0xFFL) << 40 | (b[p + 6] & 0xFFL) << 48 | (b[p + 7] & 0xFFL) << 56;
        pos = p + 8;
        return longValue = v;
    }

    /** Reads the current field's 4 bytes, little-endian. */
    public int readFixed32() throws InvalidProtobufException {
        if (end - pos < 4) {
            throw truncated();
        }
        byte[] b = buf;
        int p = pos;
        int v = (b[p] & 0xFF) | (b[p + 1] & 0xFF) << 8 | (b[p + 2] & 0xFF) << 16 | (b[p + 3] & 0xFF) << 24;
        pos = p + 4;
        longValue = v;
        return v;
    }

    /** Reads the current length-delimited field: its bytes are {@link #start} .. + {@link #length}. */
    public void readBytes() throws InvalidProtobufException {
        // as protobuf-java's readRawVarint32: the low 32 bits, whatever the varint's length and high bits
        int n = (int) varint();
        if (n < 0 || n > end - pos) {
            throw n < 0 ? new InvalidProtobufException("CodedInputStream encountered an embedded string or message which"
                    + " claimed to have negative size.") : truncated();
        }
        start = pos;
        length = n;
        pos += length;
    }

    /** Where the next field starts (after {@link #next} and the value's read or skip: where the field ends). */
    public int position() {
        return pos;
    }

    /** Start of the length-delimited value just read. */
    public int start() {
        return start;
    }

    /** Length of the length-delimited value just read. */
    public int length() {
        return length;
    }

    /** Skips the current field's value, whatever its wire type (groups included). */
    public void skip() throws InvalidProtobufException {
        switch (tag & 7) {
            case VARINT:
                varint();
                return;
            case I64:
                if (end - pos < 8) {
                    throw truncated();
                }
                pos += 8;
                return;
            case LEN:
                readBytes();
                return;
            case I32:
                if (end - pos < 4) {
                    throw truncated();
                }
                pos += 4;
                return;
            case SGROUP:
                skipGroup(tag >>> 3, depth + 1);
                return;
            default:
                throw new InvalidProtobufException("Protocol message tag had invalid wire type.");
        }
    }

    private void skipGroup(int field, int level) throws InvalidProtobufException {
        if (level > MAX_DEPTH) {
            throw new InvalidProtobufException("Protocol message had too many levels of nesting (more than " + MAX_DEPTH + ")");
        }
        while (true) {
            if (pos >= end) {
                throw truncated();
            }
            int t = (int) varint();
            if (t >>> 3 == 0) {
                throw new InvalidProtobufException("Protocol message contained an invalid tag (zero).");
            }
            int wt = t & 7;
            int f = t >>> 3;
            switch (wt) {
                case VARINT:
                    varint();
                    break;
                case I64:
                    if (end - pos < 8) {
                        throw truncated();
                    }
                    pos += 8;
                    break;
                case LEN:
                    readBytes();
                    break;
                case I32:
                    if (end - pos < 4) {
                        throw truncated();
                    }
                    pos += 4;
                    break;
                case SGROUP:
                    skipGroup(f, level + 1);
                    break;
                case EGROUP:
                    if (f != field) {
                        throw new InvalidProtobufException("Protocol message end-group tag did not match expected tag.");
                    }
                    return;
                default:
                    throw new InvalidProtobufException("Protocol message tag had invalid wire type.");
            }
        }
    }

    private long varint() throws InvalidProtobufException {
        byte[] b = buf;
        int p = pos;
        if (p < end) {
            // tags, lengths and small numbers: one or two bytes
            byte x0 = b[p];
            if (x0 >= 0) {
                pos = p + 1;
                return x0;
            }
            if (p + 1 < end && b[p + 1] >= 0) {
                pos = p + 2;
                return (x0 & 0x7F) | (long) b[p + 1] << 7;
            }
        }
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (p >= end) {
                throw truncated();
            }
            byte x = b[p++];
            // protobuf-java reads any tenth byte as the top bit set, whatever its value; so must we
            v |= shift == 63 ? Long.MIN_VALUE : (long) (x & 0x7F) << shift;
            if (x >= 0) {
                pos = p;
                return v;
            }
        }
        throw new InvalidProtobufException("CodedInputStream encountered a malformed varint.");
    }

    private static InvalidProtobufException truncated() {
        return new InvalidProtobufException("While parsing a protocol message, the input ended unexpectedly in the middle"
                + " of a field.  This could mean either that the input has been truncated or that an embedded message"
                + " misreported its own length.");
    }
}
