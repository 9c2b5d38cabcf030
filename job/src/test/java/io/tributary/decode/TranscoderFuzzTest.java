package io.tributary.decode;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.tributary.deadletter.DeadLetter;
import io.tributary.deadletter.DeadLetterSerializer;
import io.tributary.decode.DecodeFunction;
import io.tributary.kafka.SourceRecord;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.OtlpDecoder;
import io.tributary.otlp.Signal;
import io.tributary.schema.SchemaFlavor;
import io.tributary.tables.RecordRows;
import io.tributary.tables.RecordTranscoder;
import io.tributary.tables.TableLayouts;
import io.tributary.testing.Fuzzing;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * Coverage-guided fuzzing of what the job and the udf module run on every Kafka record: {@link
 * RecordTranscoder#of} with {@code kafka.encoding auto}, for each signal (the first byte picks
 * it, the rest is the record). A record either becomes rows, as many as protobuf-java or the
 * OTLP/JSON reader finds spans, log records or points in it, or is refused with a documented
 * exception and becomes the dead letter {@link DecodeFunction} makes of it: the record's value,
 * key and headers as they were (or the value left out, saying so, when too large for the topic),
 * with the reason.
 */
class TranscoderFuzzTest {

    private static final Signal[] SIGNALS = {Signal.TRACES, Signal.LOGS, Signal.METRICS};
    private static final TableLayouts LAYOUTS = TableLayouts.canonical(SchemaFlavor.MAP);
    private static final RecordRows ROWS = new RecordRows(LAYOUTS);
    private static final RecordTranscoder[] TRANSCODERS = {
        RecordTranscoder.of(Signal.TRACES, Encoding.AUTO, LAYOUTS),
        RecordTranscoder.of(Signal.LOGS, Encoding.AUTO, LAYOUTS),
        RecordTranscoder.of(Signal.METRICS, Encoding.AUTO, LAYOUTS)};
    @SuppressWarnings("unchecked")
    private static final OtlpDecoder<? extends Message>[] OBJECTS = new OtlpDecoder[] {
        new OtlpDecoder<>(Encoding.AUTO, ExportTraceServiceRequest.getDefaultInstance()),
        new OtlpDecoder<>(Encoding.AUTO, ExportLogsServiceRequest.getDefaultInstance()),
        new OtlpDecoder<>(Encoding.AUTO, ExportMetricsServiceRequest.getDefaultInstance())};
    /** Letters to a topic that takes values up to 1 KiB: larger ones are sent without theirs. */
    private static final DeadLetterSerializer LETTERS = new DeadLetterSerializer("dead-letters", "localhost:9",
            Map.of("max.request.size", Integer.toString((64 << 10) + 1024)));
    private static final byte[] KEY = "key".getBytes(StandardCharsets.UTF_8);
    private static final byte[] TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01".getBytes(StandardCharsets.UTF_8);

    @FuzzTest(maxDuration = Fuzzing.LONG)
    void anyRecordOfAnySignalBecomesItsRowsOrADeadLetter(byte[] input) {
        if (input.length == 0) {
            return;
        }
        int s = (input[0] & 0xFF) % SIGNALS.length;
        byte[] value = Arrays.copyOfRange(input, 1, input.length);
        Message request = null;
        try {
            request = OBJECTS[s].decode(value);
        } catch (Throwable e) {
            if (!Fuzzing.documented(e)) {
                throw Fuzzing.finding(e);
            }
        }
        Throwable refused = null;
        int rows = 0;
        try {
            TRANSCODERS[s].transcode(value, ROWS);
            rows = ROWS.total();
        } catch (Throwable e) {
            refused = e;
        } finally {
            ROWS.clear();
        }
        if (refused == null) {
            assertThat(request).as("what the job reads, the object path reads").isNotNull();
            assertThat(rows).as("rows of the %s record", SIGNALS[s].id()).isEqualTo(Fuzzing.rows(request));
            return;
        }
        if (!Fuzzing.documented(refused)) {
            throw Fuzzing.finding(refused);
        }
        deadLetter(value, refused);
    }

    /** The letter DecodeFunction sends for a record it refused, as the dead-letter topic gets it. */
    private static void deadLetter(byte[] value, Throwable refused) {
        SourceRecord record = new SourceRecord("otlp_spans", 3, 42L, 1_764_460_800_000L, value);
        record.key = KEY;
        record.headerKeys = new String[] {"traceparent", "empty"};
        record.headerValues = new byte[][] {TRACEPARENT, null};
        DeadLetter letter = new DeadLetter(record, refused, 1_764_460_800_123L);
        assertThat(DecodeFunction.reason(refused)).isNotBlank();
        ProducerRecord<byte[], byte[]> sent = LETTERS.serialize(letter);
        assertThat(sent.topic()).isEqualTo("dead-letters");
        assertThat(sent.key()).isEqualTo(KEY);
        Header[] headers = sent.headers().toArray();
        assertThat(headers[0].key()).isEqualTo("traceparent");
        assertThat(headers[0].value()).isEqualTo(TRACEPARENT);
        assertThat(headers[1].key()).isEqualTo("empty");
        assertThat(headers[1].value()).isNull();
        if (sent.value().length != value.length) {
            assertThat(sent.value()).as("a value left out").isEmpty();
            assertThat(sent.headers().lastHeader(DeadLetterSerializer.VALUE_OMITTED)).as("says it was left out").isNotNull();
        } else {
            assertThat(sent.value()).isEqualTo(value);
        }
        assertThat(new String(sent.headers().lastHeader(DeadLetterSerializer.ERROR_CLASS).value(), StandardCharsets.UTF_8))
                .isEqualTo(letter.errorClass);
        assertThat(sent.headers().lastHeader(DeadLetterSerializer.ERROR_MESSAGE).value()).isNotEmpty();
        assertThat(new String(sent.headers().lastHeader(DeadLetterSerializer.SOURCE_OFFSET).value(), StandardCharsets.UTF_8))
                .isEqualTo("42");
    }
}
