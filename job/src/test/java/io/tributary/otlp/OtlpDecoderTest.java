package io.tributary.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** Records the collector accepts though protobuf-java or Jackson would refuse them: invalid UTF-8. */
class OtlpDecoderTest {

    private final OtlpDecoder<ExportLogsServiceRequest> decoder =
            new OtlpDecoder<>(Encoding.AUTO, ExportLogsServiceRequest.getDefaultInstance());

    private static ExportLogsServiceRequest logs(String body, String key) {
        return ExportLogsServiceRequest.newBuilder()
                .addResourceLogs(ResourceLogs.newBuilder().addScopeLogs(ScopeLogs.newBuilder()
                        .addLogRecords(LogRecord.newBuilder()
                                .setBody(AnyValue.newBuilder().setStringValue(body))
                                .addAttributes(KeyValue.newBuilder().setKey(key)
                                        .setValue(AnyValue.newBuilder().setStringValue("v"))))))
                .build();
    }

    /** Replaces the first occurrence of {@code marker} in {@code bytes} (same length). */
    private static byte[] patch(byte[] bytes, String marker, byte[] with) {
        byte[] m = marker.getBytes(StandardCharsets.US_ASCII);
        outer:
        for (int i = 0; i + m.length <= bytes.length; i++) {
            for (int j = 0; j < m.length; j++) {
                if (bytes[i + j] != m[j]) {
                    continue outer;
                }
            }
            System.arraycopy(with, 0, bytes, i, with.length);
            return bytes;
        }
        throw new AssertionError("marker not found");
    }

    @Test
    void invalidUtf8InProtobufStringsBecomesReplacementCharacters() throws IOException {
        byte[] wire = logs("a@@@@b", "k%%").toByteArray();
        patch(wire, "@@@@", new byte[] {'x', (byte) 0xFF, (byte) 0xC3, 'y'});
        patch(wire, "%%", new byte[] {(byte) 0xE2, (byte) 0x82});
        ExportLogsServiceRequest r = decoder.decode(wire);
        LogRecord lr = r.getResourceLogs(0).getScopeLogs(0).getLogRecords(0);
        assertThat(lr.getBody().getStringValue()).isEqualTo("ax\uFFFD\uFFFDyb");
        assertThat(lr.getAttributes(0).getKey()).isEqualTo("k\uFFFD");
        assertThat(lr.getAttributes(0).getValue().getStringValue()).isEqualTo("v");
    }

    @Test
    void invalidUtf8InJsonStringsBecomesReplacementCharacters() throws IOException {
        byte[] json = "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"body\":{\"stringValue\":\"a@b\"}}]}]}]}"
                .getBytes(StandardCharsets.US_ASCII);
        patch(json, "@", new byte[] {(byte) 0xFF});
        ExportLogsServiceRequest r = decoder.decode(json);
        assertThat(r.getResourceLogs(0).getScopeLogs(0).getLogRecords(0).getBody().getStringValue())
                .isEqualTo("a\uFFFDb");
    }

    @Test
    void brokenRecordsStillFailWithTheReason() {
        byte[] wire = logs("body", "key").toByteArray();
        byte[] truncated = java.util.Arrays.copyOf(wire, wire.length - 3);
        assertThatThrownBy(() -> decoder.decode(truncated))
                .isInstanceOf(IOException.class).hasMessageStartingWith("invalid OTLP protobuf: ");
        assertThatThrownBy(() -> decoder.decode("{\"resourceLogs\":[".getBytes(StandardCharsets.US_ASCII)))
                .isInstanceOf(IOException.class).hasMessageStartingWith("invalid OTLP/JSON: ");
    }
}
