package io.tributary.tables;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Random {@code AnyValue}s and {@code KeyValue}s encoded straight as protobuf bytes, in the ways the
 * wire format allows and protobuf-java reads as one message: a case replaced by a later one, lists
 * split over several occurrences that merge, a key or value given twice, unknown fields (but never a
 * message case, another case, then the first again, which protobuf-java and pdata read
 * differently: {@code WireValuesTest} pins that on its own); strings
 * with escapes, U+2028, non-ASCII and invalid UTF-8; doubles at the layout's edges, NaN and the
 * infinities; keys repeated. The tests read the bytes with protobuf-java as the oracle.
 */
final class WireAnyValueGen {

    private static final String[] KEYS = {
        "a", "b", "A", "z", "dup", "k.with.dots", "x", "", "ünï", "\uD83D\uDE00", "\uFF21", "\uE000", "a.b", "a.b.c"
    };
    private static final double[] DOUBLES = {
        0.0, -0.0, 1.5, 42, 1e21, 1e20, 1e-7, 1e-6, 123456.789, 0.1, Double.MIN_VALUE, Double.MAX_VALUE, -3,
        0x1p63, 0x1p64, 9.2e18, 1e300, 7.0e22, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY
    };

    private final SplittableRandom random;
    /** Chance in 100 of a NaN or an infinity where a double is made. */
    private final int nonFinite;

    WireAnyValueGen(long seed, int nonFinitePercent) {
        this.random = new SplittableRandom(seed);
        this.nonFinite = nonFinitePercent;
    }

    /** An AnyValue's fields (its message body). */
    byte[] anyValue(int depth) {
        Out o = new Out();
        if (random.nextInt(6) == 0) {
            decoy(o); // a case the real one replaces
        }
        int kind = random.nextInt(depth > 3 ? 7 : 10);
        switch (kind) {
            case 0:
                break; // no value
            case 1:
                o.varint(2, random.nextBoolean() ? 1 : 0);
                break;
            case 2: {
                long[] ints = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 42, 1L << 53, -123456789012L};
                o.varint(3, ints[random.nextInt(ints.length)]);
                break;
            }
            case 3:
                o.fixed64(4, Double.doubleToRawLongBits(dbl()));
                break;
            case 4: {
                byte[] b = new byte[random.nextInt(7)];
                random.nextBytes(b);
                o.bytes(7, b);
                break;
            }
            case 7:
            case 8: {
                int field = kind == 7 ? 5 : 6;
                // the list split over one to three occurrences that merge
                for (int parts = 1 + random.nextInt(3); parts > 0; parts--) {
                    o.bytes(field, list(field, depth));
                }
                break;
            }
            default:
                o.bytes(1, string());
        }
        if (random.nextInt(10) == 0) {
            o.varint(99, 7); // unknown
        }
        return o.toByteArray();
    }

    /** An ArrayValue's or KeyValueList's fields: a few values or key/values. */
    private byte[] list(int field, int depth) {
        Out o = new Out();
        for (int i = random.nextInt(4); i > 0; i--) {
            o.bytes(1, field == 5 ? anyValue(depth + 1) : keyValue(depth + 1));
        }
        return o.toByteArray();
    }

    /** A KeyValue's fields; now and then the key twice (the last wins) or the value in two occurrences that merge. */
    byte[] keyValue(int depth) {
        Out o = new Out();
        if (random.nextInt(10) == 0) {
            o.bytes(1, key());
        }
        o.bytes(1, key());
        switch (random.nextInt(10)) {
            case 0:
                break; // no value
            case 1: {
                Out scalar = new Out();
                scalar.varint(3, 5);
                o.bytes(2, scalar.toByteArray());
                o.bytes(2, anyValue(depth)); // merges into the first: its case replaces the int
                break;
            }
            case 2: {
                int field = 5 + random.nextInt(2);
                for (int parts = 2; parts > 0; parts--) { // a list split over two values that merge
                    Out part = new Out();
                    part.bytes(field, list(field, depth));
                    o.bytes(2, part.toByteArray());
                }
                break;
            }
            default:
                o.bytes(2, anyValue(depth));
        }
        return o.toByteArray();
    }

    byte[] key() {
        if (random.nextInt(12) == 0) {
            return new byte[] {'k', (byte) 0xFF, (byte) (0x80 + random.nextInt(2))}; // invalid UTF-8
        }
        return KEYS[random.nextInt(KEYS.length)].getBytes(StandardCharsets.UTF_8);
    }

    private double dbl() {
        if (random.nextInt(100) < nonFinite) {
            return DOUBLES[DOUBLES.length - 1 - random.nextInt(3)];
        }
        switch (random.nextInt(3)) {
            case 0:
                return DOUBLES[random.nextInt(DOUBLES.length - 3)];
            case 1:
                return random.nextInt(1_000_000) / Math.pow(10, random.nextInt(8)) * (random.nextBoolean() ? 1 : -1);
            default:
                double d = Double.longBitsToDouble(random.nextLong());
                return Double.isNaN(d) || Double.isInfinite(d) ? 2.5 : d;
        }
    }

    private byte[] string() {
        String[] parts = {
            "plain", "quote\" back\\slash", "\n\t\r\b\f", "\u0000\u0001\u001f\u007f", "\u2028\u2029", "€ é 日本",
            "\uD83D\uDE00", "<a href='x'>&amp;</a>", "", "x".repeat(150)
        };
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int i = random.nextInt(4); i > 0; i--) {
            b.writeBytes(parts[random.nextInt(parts.length)].getBytes(StandardCharsets.UTF_8));
            if (random.nextInt(15) == 0) {
                byte[][] bad = {{(byte) 0xFF}, {(byte) 0xC0, (byte) 0xAF}, {(byte) 0xE2, (byte) 0x80}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80}};
                b.writeBytes(bad[random.nextInt(bad.length)]);
            }
        }
        return b.toByteArray();
    }

    private void decoy(Out o) {
        switch (random.nextInt(4)) {
            case 0:
                o.bytes(1, "decoy".getBytes(StandardCharsets.UTF_8));
                break;
            case 1:
                o.varint(3, 7);
                break;
            case 2:
                o.fixed64(4, Double.doubleToRawLongBits(Double.NaN)); // replaced: does not spoil the value
                break;
            default:
                o.bytes(6, keyValueList());
        }
    }

    private byte[] keyValueList() {
        Out o = new Out();
        Out kv = new Out();
        kv.bytes(1, "gone".getBytes(StandardCharsets.UTF_8));
        o.bytes(1, kv.toByteArray());
        return o.toByteArray();
    }

    /** Protobuf fields into bytes. */
    static final class Out {
        private final ByteArrayOutputStream b = new ByteArrayOutputStream();

        void tag(int field, int wireType) {
            raw(((long) field << 3) | wireType);
        }

        void raw(long v) {
            while ((v & ~0x7FL) != 0) {
                b.write((int) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            b.write((int) v);
        }

        void varint(int field, long v) {
            tag(field, 0);
            raw(v);
        }

        void fixed64(int field, long v) {
            tag(field, 1);
            for (int i = 0; i < 8; i++) {
                b.write((int) (v >>> (8 * i)));
            }
        }

        void bytes(int field, byte[] v) {
            tag(field, 2);
            raw(v.length);
            b.writeBytes(v);
        }

        byte[] toByteArray() {
            return b.toByteArray();
        }
    }
}
