package io.tributary.otlp.proto;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.CodedInputStream;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

/**
 * {@link ProtoReader} reads varints as protobuf-java does, the wire readers' reference: every
 * length, minimal or not, and a tenth byte of any value (protobuf-java takes it as the top bit set).
 */
class ProtoReaderVarintTest {

    @Test
    void varintsOfEveryLengthReadAsProtobufJavaReadsThem() throws Exception {
        SplittableRandom r = new SplittableRandom(10);
        for (int i = 0; i < 200_000; i++) {
            int n = 1 + r.nextInt(10);
            byte[] field = new byte[1 + n + r.nextInt(12)]; // tag, varint, then room or not for a fast path
            field[0] = 0x08; // field 1, varint
            for (int k = 1; k < n; k++) {
                field[k] = (byte) (0x80 | r.nextInt(128));
            }
            field[n] = (byte) (n == 10 && r.nextBoolean() ? r.nextInt(2) : r.nextInt(128));
            int length = 1 + n + (r.nextBoolean() ? field.length - 1 - n : 0);
            CodedInputStream in = CodedInputStream.newInstance(field, 0, length);
            in.readTag();
            long expected = in.readInt64();
            ProtoReader reader = new ProtoReader().reset(field, 0, length);
            assertThat(reader.next()).isTrue();
            assertThat(reader.readVarint()).as("varint of %d bytes, last %02x", n, field[n]).isEqualTo(expected);
        }
    }
}
