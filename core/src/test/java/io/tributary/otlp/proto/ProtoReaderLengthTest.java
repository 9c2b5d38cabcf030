package io.tributary.otlp.proto;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.tributary.otlp.InvalidProtobufException;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

/**
 * {@link ProtoReader} reads the length of a length-delimited field as protobuf-java does: {@code
 * readRawVarint32}, the low 32 bits of a varint of up to ten bytes, whatever its length and its
 * high bits. A length padded to ten bytes ({@code 85 80 80 80 80 80 80 80 80 00} is 5) or carrying
 * bits above 32 is a length protobuf-java accepts, so the wire readers must too: their rows are
 * held to the object path's, and a record one path reads and the other refuses is lost or
 * dead-lettered by one of them only.
 */
class ProtoReaderLengthTest {

    /** The ten-byte varint of {@code 5} padded with zeros, the case the tenth-byte change of {@code varint()} broke. */
    @Test
    void aLengthPaddedToTenBytesIsItsLowBits() throws Exception {
        byte[] field = {0x0A, (byte) 0x85, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
            (byte) 0x80, (byte) 0x80, 0x00, 'h', 'e', 'l', 'l', 'o'};
        CodedInputStream in = CodedInputStream.newInstance(field);
        in.readTag();
        assertThat(in.readBytes().toStringUtf8()).isEqualTo("hello");
        ProtoReader r = new ProtoReader().reset(field, 0, field.length);
        assertThat(r.next()).isTrue();
        r.readBytes();
        assertThat(r.length()).isEqualTo(5);
        assertThat(r.start()).isEqualTo(11);
    }

    @Test
    void lengthsOfEveryVarintLengthReadAsProtobufJavaReadsThem() {
        SplittableRandom r = new SplittableRandom(32);
        for (int i = 0; i < 100_000; i++) {
            int payload = r.nextInt(6);
            int n = 1 + r.nextInt(10);
            long value = payload;
            if (n > 5 || r.nextBoolean()) {
                value |= r.nextLong() << 32; // bits readRawVarint32 drops
            }
            byte[] field = new byte[1 + n + payload + r.nextInt(3)];
            field[0] = 0x0A; // field 1, length-delimited
            for (int k = 0; k < n; k++) {
                int bits = k == 9 ? (int) (value >>> 63) | (r.nextBoolean() ? 0 : r.nextInt(128)) : (int) (value >>> (7 * k)) & 0x7F;
                field[1 + k] = (byte) (k < n - 1 ? 0x80 | bits : bits & 0x7F);
            }
            String expected = protobufJava(field);
            String actual = protoReader(field);
            assertThat(actual).as("length varint of %d bytes: %s", n, hex(field, 1, n)).isEqualTo(expected);
        }
    }

    private static String protobufJava(byte[] field) {
        try {
            CodedInputStream in = CodedInputStream.newInstance(field);
            in.readTag();
            ByteString b = in.readBytes();
            return "length " + b.size() + " ends at " + in.getTotalBytesRead();
        } catch (InvalidProtocolBufferException e) {
            return "refused";
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static String protoReader(byte[] field) {
        try {
            ProtoReader p = new ProtoReader().reset(field, 0, field.length);
            p.next();
            p.readBytes();
            return "length " + p.length() + " ends at " + (p.start() + p.length());
        } catch (InvalidProtobufException e) {
            return "refused";
        }
    }

    private static String hex(byte[] b, int from, int n) {
        StringBuilder s = new StringBuilder();
        for (int i = from; i < from + n; i++) {
            s.append(String.format("%02x ", b[i]));
        }
        return s.toString().trim();
    }
}
