package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.tributary.testing.Fuzzing;


import java.io.IOException;
import java.util.Arrays;

/**
 * Coverage-guided fuzzing of {@link SealedBatchSerializer#deserialize}, which reads the
 * exactly-once committables back from a checkpoint (the first byte picks the version, 0 to 3, the
 * rest is the state): whatever the bytes, a batch comes back or an {@link IOException} says why
 * not; never another exception, and never an allocation the bytes do not hold (the fuzz JVM's
 * heap is small, so one fails as a finding). A version 2 batch serialized again reads back as the
 * same batch.
 */
class SealedBatchSerializerFuzzTest {

    private static final SealedBatchSerializer SERIALIZER = new SealedBatchSerializer();

    @FuzzTest(maxDuration = Fuzzing.SHORT)
    void aCheckpointedBatchReadsBackOrIsRefusedWithAnIOException(byte[] input) throws IOException {
        if (input.length == 0) {
            return;
        }
        int version = input[0] & 3;
        byte[] state = Arrays.copyOfRange(input, 1, input.length);
        SealedBatch batch;
        try {
            batch = SERIALIZER.deserialize(version, state);
        } catch (IOException refused) {
            return;
        } catch (Throwable e) {
            throw Fuzzing.finding(e);
        }
        if (version == SealedBatchSerializer.VERSION) {
            // strings read leniently (a NUL as one byte) are written canonically: compare written forms
            byte[] written = SERIALIZER.serialize(batch);
            assertThat(SERIALIZER.serialize(SERIALIZER.deserialize(version, written))).isEqualTo(written);
        }
    }
}
