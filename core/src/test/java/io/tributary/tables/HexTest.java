package io.tributary.tables;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.tributary.otlp.InvalidOtlpException;

import org.junit.jupiter.api.Test;

/** Ids as the exporter writes them: lowercase hex, '' when empty or all zero; other lengths rejected. */
class HexTest {

    @Test
    void idsAreLowercaseHexOrEmpty() {
        byte[] trace = new byte[16];
        for (int i = 0; i < 16; i++) {
            trace[i] = (byte) (0xf0 + i - 8 * i);
        }
        assertThat(Hex.idOrEmpty(ByteString.copyFrom(trace), 16, "traceId"))
                .isEqualTo(java.util.HexFormat.of().formatHex(trace))
                .matches("[0-9a-f]{32}");
        assertThat(Hex.idOrEmpty(ByteString.copyFrom(new byte[] {0, 0, 0, 0, 0, 0, 0, 1}), 8, "spanId"))
                .isEqualTo("0000000000000001");
        assertThat(Hex.idOrEmpty(ByteString.EMPTY, 16, "traceId")).isEmpty();
        assertThat(Hex.idOrEmpty(ByteString.copyFrom(new byte[16]), 16, "traceId")).isEmpty();
        assertThat(Hex.idOrEmpty(ByteString.copyFrom(new byte[8]), 8, "spanId")).isEmpty();
    }

    @Test
    void wrongLengthIsInvalidOtlp() {
        assertThatThrownBy(() -> Hex.idOrEmpty(ByteString.copyFrom(new byte[5]), 8, "spanId"))
                .isInstanceOf(InvalidOtlpException.class)
                .hasMessage("spanId must be 8 bytes, got 5");
    }

}
