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

    private String jsonBody(byte[] json) throws IOException {
        String s = decoder.decode(json).getResourceLogs(0).getScopeLogs(0).getLogRecords(0).getBody().getStringValue();
        // as the job's JSON path hands it on: encoded as protobuf, which must not change it
        assertThat(AnyValue.newBuilder().setStringValue(s).build().toByteString().isValidUtf8()).as("well-formed").isTrue();
        return s;
    }

    /**
     * Found by OtlpJsonFuzzTest: Jackson reads some invalid UTF-8 without complaint, as broken
     * UTF-16 (which protobuf-java then wrote as '?', logging a stack trace per record). Such a
     * sequence reads as other invalid UTF-8 reads here, in protobuf records too: U+FFFD for each
     * malformed part, as Java's decoder finds them.
     */
    @Test
    void invalidUtf8ThatJacksonLetsThroughBecomesReplacementCharactersToo() throws IOException {
        byte[][] bad = {
            {(byte) 0xF0, (byte) 0x8F, (byte) 0x98, (byte) 0x80}, // U+F600 overlong, in four bytes
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, // the surrogate U+D800 encoded as if a character
            {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // above U+10FFFF
        };
        String[] read = {"a\uFFFD\uFFFD\uFFFD\uFFFDb", "a\uFFFDb", "a\uFFFD\uFFFD\uFFFD\uFFFDb"};
        for (int i = 0; i < bad.length; i++) {
            byte[] json = ("{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"body\":{\"stringValue\":\"a" + "@".repeat(bad[i].length)
                    + "b\"}}]}]}]}").getBytes(StandardCharsets.US_ASCII);
            patch(json, "@".repeat(bad[i].length), bad[i]);
            assertThat(jsonBody(json)).as("case %d", i).isEqualTo(read[i]);
        }
    }

    /** Found by OtlpJsonFuzzTest: an escaped surrogate without its pair reads as U+FFFD, as the collector reads it. */
    @Test
    void anUnpairedSurrogateEscapeIsAReplacementCharacter() throws IOException {
        String[][] cases = {
            {"a\\ud800b", "a\uFFFDb"},
            {"a\\udc00", "a\uFFFD"},
            {"\\ud83d\\ude00", "\ud83d\ude00"}, // a pair is one character
            {"\\ude00\\ud83d", "\uFFFD\uFFFD"}, // the wrong way round is two broken halves
            {"\\ud83d\\ud83d\\ude00", "\uFFFD\ud83d\ude00"},
        };
        for (String[] c : cases) {
            byte[] json = ("{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"body\":{\"stringValue\":\"" + c[0]
                    + "\"}}]}]}]}").getBytes(StandardCharsets.US_ASCII);
            assertThat(jsonBody(json)).as(c[0]).isEqualTo(c[1]);
        }
    }
}
