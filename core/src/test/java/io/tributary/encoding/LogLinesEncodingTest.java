package io.tributary.encoding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.tributary.otlp.Signal;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

/**
 * raw, text and json log records as the collector's kafkareceiver builds them
 * ({@code receiver/kafkareceiver/internal/unmarshaler}: {@code raw_unmarshaler.go}, {@code
 * text_logs_unmarshaler.go}, {@code json_logs_unmarshaler.go}): the request each gives, field by
 * field, against one built with protobuf-java.
 */
class LogLinesEncodingTest {

    private static final long NOW = 1_764_000_000_123_456_789L;

    private static ExportLogsServiceRequest decode(String encoding, byte[] value) throws Exception {
        return ExportLogsServiceRequest.parseFrom(LogLinesEncoding.decoder(encoding, () -> NOW).decode(value, RecordHeaders.NONE));
    }

    /** One resource, one scope, one record: the only shape these encodings give. */
    private static ExportLogsServiceRequest one(LogRecord record) {
        return ExportLogsServiceRequest.newBuilder()
                .addResourceLogs(ResourceLogs.newBuilder().addScopeLogs(ScopeLogs.newBuilder().addLogRecords(record)))
                .build();
    }

    @Test
    void rawIsABytesBodyAndNothingElseNotEvenTheObservedTime() throws Exception {
        byte[] value = {0, (byte) 0xFF, 'a', '\n'};
        assertThat(decode("raw", value)).isEqualTo(one(LogRecord.newBuilder()
                .setBody(AnyValue.newBuilder().setBytesValue(ByteString.copyFrom(value))).build()));
        assertThat(decode("raw", new byte[0])).as("an empty value: an empty bytes body").isEqualTo(one(LogRecord.newBuilder()
                .setBody(AnyValue.newBuilder().setBytesValue(ByteString.EMPTY)).build()));
    }

    @Test
    void textIsAStringBodyWithTheObservedTimeNow() throws Exception {
        assertThat(decode("text", "GET /index.html 200".getBytes(StandardCharsets.UTF_8))).isEqualTo(one(LogRecord.newBuilder()
                .setObservedTimeUnixNano(NOW).setBody(AnyValue.newBuilder().setStringValue("GET /index.html 200")).build()));
    }

    @Test
    void charsetsAsTheReceiverNamesThem() throws Exception {
        assertThat(body("text_windows-1252", new byte[] {(byte) 0x80, 'x'})).isEqualTo("€x");
        assertThat(body("text_iso-8859-1", new byte[] {(byte) 0xE9})).isEqualTo("é");
        // utf-16 is little-endian and keeps a byte-order mark as U+FEFF (x/text's UTF-16 with IgnoreBOM)
        assertThat(body("text_utf-16", new byte[] {(byte) 0xFF, (byte) 0xFE, 'h', 0, 'i', 0})).isEqualTo("\uFEFFhi");
        assertThat(body("text_UTF16", new byte[] {'h', 0})).isEqualTo("h");
        // ascii and us-ascii are UTF-8 in the receiver's table
        assertThat(body("text_us-ascii", "ü".getBytes(StandardCharsets.UTF_8))).isEqualTo("ü");
        // invalid UTF-8: U+FFFD, never a failure
        assertThat(body("text", new byte[] {'a', (byte) 0xC3, 'b'})).isEqualTo("a\uFFFDb");
        // nop keeps the bytes
        // nop keeps the bytes: the body's string field (AnyValue field 1) ends the request
        byte[] nop = LogLinesEncoding.decoder("text_nop", () -> NOW).decode(new byte[] {'a', (byte) 0xC3}, RecordHeaders.NONE);
        assertThat(java.util.Arrays.copyOfRange(nop, nop.length - 4, nop.length)).containsExactly(0x0A, 2, 'a', (byte) 0xC3);
        assertThatThrownBy(() -> LogLinesEncoding.decoder("text_no-such-charset", () -> NOW))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no-such-charset");
    }

    private static String body(String encoding, byte[] value) throws Exception {
        return decode(encoding, value).getResourceLogs(0).getScopeLogs(0).getLogRecords(0).getBody().getStringValue();
    }

    @Test
    void jsonIsAMapBodyNumbersAsDoublesTheLastOfARepeatedKey() throws Exception {
        String doc = "{\"msg\":\"hi\",\"n\":42,\"f\":1.5,\"ok\":true,\"nil\":null,\"a\":[1,\"x\",{\"k\":false}],"
                + "\"o\":{\"d\":1,\"d\":2},\"s\":\"\\ud800\"}";
        AnyValue expected = AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder()
                .addValues(kv("msg", AnyValue.newBuilder().setStringValue("hi")))
                .addValues(kv("n", AnyValue.newBuilder().setDoubleValue(42)))
                .addValues(kv("f", AnyValue.newBuilder().setDoubleValue(1.5)))
                .addValues(kv("ok", AnyValue.newBuilder().setBoolValue(true)))
                .addValues(kv("nil", AnyValue.newBuilder()))
                .addValues(kv("a", AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder()
                        .addValues(AnyValue.newBuilder().setDoubleValue(1))
                        .addValues(AnyValue.newBuilder().setStringValue("x"))
                        .addValues(AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder()
                                .addValues(kv("k", AnyValue.newBuilder().setBoolValue(false))))))))
                .addValues(kv("o", AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder()
                        .addValues(kv("d", AnyValue.newBuilder().setDoubleValue(2))))))
                .addValues(kv("s", AnyValue.newBuilder().setStringValue("\uFFFD"))))
                .build();
        assertThat(decode("json", doc.getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(one(LogRecord.newBuilder().setObservedTimeUnixNano(NOW).setBody(expected).build()));
        assertThat(decode("json", " null ".getBytes(StandardCharsets.UTF_8))).as("null: an empty map")
                .isEqualTo(one(LogRecord.newBuilder().setObservedTimeUnixNano(NOW)
                        .setBody(AnyValue.newBuilder().setKvlistValue(KeyValueList.getDefaultInstance())).build()));
    }

    @Test
    void minusZeroKeepsItsSignAndDeepNestingIsWrittenOnce() throws Exception {
        ExportLogsServiceRequest r = decode("json", "{\"a\":-0}".getBytes(StandardCharsets.UTF_8));
        double a = r.getResourceLogs(0).getScopeLogs(0).getLogRecords(0).getBody().getKvlistValue().getValues(0).getValue().getDoubleValue();
        assertThat(Double.doubleToRawLongBits(a)).as("Go parses -0 as the float -0").isEqualTo(Double.doubleToRawLongBits(-0.0));
        String deep = "{\"a\":" + "[".repeat(40) + "\"x\"" + "]".repeat(40) + "}";
        AnyValue v = decode("json", deep.getBytes(StandardCharsets.UTF_8)).getResourceLogs(0).getScopeLogs(0).getLogRecords(0)
                .getBody().getKvlistValue().getValues(0).getValue();
        for (int i = 0; i < 40; i++) {
            v = v.getArrayValue().getValues(0);
        }
        assertThat(v.getStringValue()).isEqualTo("x");
    }

    @Test
    void cjkCharsetsAreTheWhatwgSupersetsTheCollectorDecodesWith() throws Exception {
        // x/text's Shift_JIS, EUC-KR and GBK are the WHATWG tables: Windows-31J's, UHC's and GB18030's
        assertThat(body("text_shift_jis", new byte[] {(byte) 0x87, 0x40})).isEqualTo("\u2460");
        assertThat(body("text_euc-kr", new byte[] {(byte) 0x81, 0x41})).isEqualTo("\uAC02");
        assertThat(body("text_gbk", new byte[] {(byte) 0x81, 0x30, (byte) 0x81, 0x30})).as("GB18030's four-byte forms")
                .isEqualTo("\u0080");
    }

    @Test
    void jsonThatIsNotOneObjectIsRefusedWithItsReason() {
        for (String doc : new String[] {"[1]", "\"s\"", "1", "true", "", "{\"a\":1} x", "{\"a\":1e400}", "{\"a\":"}) {
            assertThatThrownBy(() -> decode("json", doc.getBytes(StandardCharsets.UTF_8))).as(doc)
                    .hasMessageContaining("invalid JSON log record");
        }
    }

    @Test
    void theRegistryFindsThemForLogsOnlyAndNamesWhatEachSignalTakes() {
        assertThat(Encodings.decoder("text_utf-8", Signal.LOGS)).isNotNull();
        assertThat(Encodings.decoder(" JSON ", Signal.LOGS)).isNotNull();
        assertThatThrownBy(() -> Encodings.decoder("raw", Signal.TRACES)).hasMessage(
                "'raw' is an encoding of logs, not of traces (traces: auto, otlp_proto, otlp_json, zipkin_proto, zipkin_json, zipkin_thrift, jaeger_proto, jaeger_json)");
        assertThatThrownBy(() -> Encodings.decoder("avro", Signal.LOGS)).hasMessage(
                "'avro' is not an encoding of logs (auto, otlp_proto, otlp_json, raw, text, text_<charset>, json)");
    }

    private static KeyValue kv(String k, AnyValue.Builder v) {
        return KeyValue.newBuilder().setKey(k).setValue(v).build();
    }
}
