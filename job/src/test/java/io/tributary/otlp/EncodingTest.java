package io.tributary.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.tributary.otlp.json.JsonSyntax;
import io.tributary.otlp.json.OtlpJsonWriter;
import io.tributary.schema.SchemaFlavor;
import io.tributary.tables.OtelTable;
import io.tributary.tables.RecordRows;
import io.tributary.tables.RecordTranscoder;
import io.tributary.tables.TableLayouts;
import io.tributary.testing.SizedRequests;
import io.tributary.testing.oracle.RandomOtlp;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * {@link Encoding#AUTO}'s choice per record: a valid protobuf request is never taken for JSON,
 * whatever the length of its first resource block (the length byte after the leading {@code 0x0A}
 * may be '{' or JSON whitespace), and OTLP/JSON is JSON whatever whitespace leads it. Each choice
 * is also checked where it matters, in the rows the job's transcoder writes.
 */
class EncodingTest {

    private static final byte[] JSON_WHITESPACE = {' ', '\t', '\n', '\r'};
    private static final TableLayouts LAYOUTS = TableLayouts.canonical(SchemaFlavor.MAP);

    @Test
    void protobufRequestsAreProtobufWhateverTheLengthOfTheirFirstBlock() throws Exception {
        for (SizedRequests.Kind kind : SizedRequests.Kind.values()) {
            RecordTranscoder auto = RecordTranscoder.of(kind.signal, Encoding.AUTO, LAYOUTS);
            RecordTranscoder proto = RecordTranscoder.of(kind.signal, Encoding.OTLP_PROTO, LAYOUTS);
            for (int length = 0; length <= 300; length++) {
                if (length == 1) {
                    continue; // no message is one byte long: a field takes two at least
                }
                Message first = SizedRequests.block(kind, length);
                for (boolean more : new boolean[] {false, true}) {
                    Message.Builder req = kind.request.newBuilderForType();
                    FieldDescriptor blocks = req.getDescriptorForType().findFieldByNumber(1);
                    req.addRepeatedField(blocks, first);
                    if (more) {
                        req.addRepeatedField(blocks, SizedRequests.block(kind, 200));
                    }
                    byte[] bytes = req.build().toByteArray();
                    String what = kind + ", first block of " + length + " bytes" + (more ? " and another" : "");
                    assertThat(bytes[0]).as(what).isEqualTo((byte) 0x0A);
                    assertThat(Encoding.AUTO.of(bytes)).as(what).isEqualTo(Encoding.OTLP_PROTO);
                    assertThat(rows(auto, bytes)).as(what).containsExactlyElementsOf(rows(proto, bytes));
                }
            }
        }
    }

    @Test
    void theReportedCaseARecordWhoseFirstBlockIs123BytesLong() throws Exception {
        byte[] bytes = ExportTraceServiceRequest.newBuilder().addResourceSpans((ResourceSpans) SizedRequests.block(SizedRequests.Kind.TRACES, 123))
                .build().toByteArray();
        assertThat(Arrays.copyOf(bytes, 2)).isEqualTo(new byte[] {'\n', '{'});
        assertThat(Encoding.AUTO.of(bytes)).isEqualTo(Encoding.OTLP_PROTO);
        assertThat(rowCount(RecordTranscoder.of(Signal.TRACES, Encoding.AUTO, LAYOUTS), bytes)).isEqualTo(1);
    }

    @Test
    void jsonIsJsonWhateverWhitespaceLeadsAndTrailsIt() throws Exception {
        List<byte[]> prefixes = new ArrayList<>();
        collectWhitespace(new byte[0], 4, prefixes); // every sequence of up to 4: 341 prefixes
        SplittableRandom random = new SplittableRandom(17);
        for (int i = 0; i < 200; i++) {
            byte[] p = new byte[5 + random.nextInt(300)];
            for (int j = 0; j < p.length; j++) {
                p[j] = JSON_WHITESPACE[random.nextInt(4)];
            }
            prefixes.add(p);
        }
        for (SizedRequests.Kind kind : SizedRequests.Kind.values()) {
            RecordTranscoder auto = RecordTranscoder.of(kind.signal, Encoding.AUTO, LAYOUTS);
            List<byte[]> docs = new ArrayList<>();
            for (int length : new int[] {0, 10, 121, 122, 123, 124, 125, 250}) {
                Message.Builder req = kind.request.newBuilderForType();
                req.addRepeatedField(req.getDescriptorForType().findFieldByNumber(1), SizedRequests.block(kind, length));
                docs.add(OtlpJsonWriter.write(req.build()));
            }
            docs.add("{}".getBytes(StandardCharsets.UTF_8));
            for (byte[] doc : docs) {
                List<byte[]> expected = rows(auto, doc);
                for (byte[] prefix : prefixes) {
                    for (byte[] suffix : new byte[][] {{}, {'\n'}, {' ', '\r', '\n'}}) {
                        byte[] value = concat(prefix, doc, suffix);
                        String what = kind + " " + new String(doc, StandardCharsets.UTF_8) + " after "
                                + Arrays.toString(prefix);
                        assertThat(Encoding.AUTO.of(value)).as(what).isEqualTo(Encoding.OTLP_JSON);
                        assertThat(rows(auto, value)).as(what).containsExactlyElementsOf(expected);
                    }
                }
            }
        }
    }

    @Test
    void jsonShapedLikeTheProtobufCaseStaysJson() {
        // a line feed, then '{' and exactly 123 more bytes: the top level frames as one field 1 of
        // 123 bytes, but its value, JSON text, does not frame as a message
        StringBuilder doc = new StringBuilder("{\"resourceSpans\":[]");
        while (doc.length() < 123) {
            doc.append(' ');
        }
        doc.append('}');
        byte[] value = ("\n" + doc).getBytes(StandardCharsets.UTF_8);
        assertThat(value).hasSize(1 + 1 + 123);
        assertThat(Encoding.AUTO.of(value)).isEqualTo(Encoding.OTLP_JSON);
    }

    @Test
    void jsonSyntaxTellsACompleteObjectFromEverythingElse() {
        for (String ok : List.of("{}", " {} ", "{\"a\":[1,-2.5e+3,true,false,null,{\"b\":\"\\u00e9\\n\"}]}",
                "\t\r\n{\"k\" : \"v\" }\n")) {
            assertThat(JsonSyntax.isObject(ok.getBytes(StandardCharsets.UTF_8))).as(ok).isTrue();
        }
        for (String bad : List.of("", "[]", "{", "{}}", "{\"a\"}", "{\"a\":}", "{\"a\":01}", "{\"a\":1,}", "{\"a\":\"\n\"}",
                "{\"a\":tru}", "{\"a\":\"\\x\"}", "{} x", "{\"a\":1.}", "{\"a\":-}")) {
            assertThat(JsonSyntax.isObject(bad.getBytes(StandardCharsets.UTF_8))).as(bad).isFalse();
        }
        assertThat(JsonSyntax.isObject(("{\"a\":" + "[".repeat(2000) + "]".repeat(2000) + "}").getBytes(StandardCharsets.UTF_8)))
                .as("deeper than the limit").isFalse();
        assertThat(JsonSyntax.isObject(OtlpJsonWriter.write(new RandomOtlp(3).traces()))).isTrue();
    }

    @Test
    void aTinyJsonDocumentThatFramesAsProtobufIsStillJson() {
        byte[] value = "  \r {}\n".getBytes(StandardCharsets.UTF_8);
        assertThat(Encoding.framesAsRequest(value)).as("it does frame").isTrue();
        assertThat(Encoding.AUTO.of(value)).isEqualTo(Encoding.OTLP_JSON);
    }

    @Test
    void generatedAndScrambledRequestsAreProtobuf() {
        RandomOtlp gen = new RandomOtlp(42);
        for (int i = 0; i < 2000; i++) {
            Message m = i % 2 == 0 ? gen.traces() : gen.logs();
            // scrambled: fields out of order, repeated, split, unknown fields of every wire type
            for (byte[] bytes : List.of(gen.encode(m), gen.scramble(m))) {
                assertThat(Encoding.AUTO.of(bytes)).as("request %d", i).isEqualTo(Encoding.OTLP_PROTO);
            }
        }
    }

    @Test
    void whatProtobufRefusesAndDoesNotLookLikeJsonIsProtobufSoItsErrorSaysWhy() {
        assertThat(Encoding.AUTO.of(new byte[] {0x0A, 0x05, 1})).isEqualTo(Encoding.OTLP_PROTO); // cut off
        assertThat(Encoding.AUTO.of("hello".getBytes(StandardCharsets.UTF_8))).isEqualTo(Encoding.OTLP_PROTO);
        assertThat(Encoding.AUTO.of(new byte[0])).isEqualTo(Encoding.OTLP_PROTO);
        assertThat(Encoding.AUTO.of(" \n".getBytes(StandardCharsets.UTF_8))).isEqualTo(Encoding.OTLP_PROTO);
        assertThat(Encoding.AUTO.of("{".getBytes(StandardCharsets.UTF_8))).isEqualTo(Encoding.OTLP_JSON);
        assertThat(Encoding.OTLP_JSON.of(new byte[] {0x0A, 0})).isEqualTo(Encoding.OTLP_JSON);
        assertThat(Encoding.OTLP_PROTO.of("{}".getBytes(StandardCharsets.UTF_8))).isEqualTo(Encoding.OTLP_PROTO);
    }

    @Test
    void framingFollowsProtobufsRules() {
        assertThat(Encoding.framesAsRequest(new byte[0])).isTrue();
        assertThat(Encoding.framesAsRequest(new byte[] {0x0A, 0})).isTrue();
        // field 1 whose value is not a message: not a request
        assertThat(Encoding.framesAsRequest(new byte[] {0x0A, 1, 0})).isFalse();
        // unknown top-level fields of every wire type, and a group, frame
        assertThat(Encoding.framesAsRequest(new byte[] {0x20, 1, 0x29, 1, 2, 3, 4, 5, 6, 7, 8, 0x2D, 1, 2, 3, 4,
            0x32, 1, 'x', 0x3B, 0x08, 1, 0x3C})).isTrue();
        assertThat(Encoding.framesAsRequest(new byte[] {0x3B, 0x08, 1})).as("unclosed group").isFalse();
        assertThat(Encoding.framesAsRequest(new byte[] {0x3B, 0x44})).as("another group's end").isFalse();
        assertThat(Encoding.framesAsRequest(new byte[] {0x0E})).as("wire type 6").isFalse();
        assertThat(Encoding.framesAsRequest(new byte[] {0x02, 0})).as("field 0").isFalse();
        // a length whose varint is negative as protobuf-java reads it (low 32 bits)
        assertThat(Encoding.framesAsRequest(new byte[] {0x12, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F}))
                .isFalse();
        // ten-byte varints are fine, eleven are not
        byte[] ten = {0x20, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
            (byte) 0x80, (byte) 0x80, 0x01};
        assertThat(Encoding.framesAsRequest(ten)).isTrue();
        byte[] eleven = Arrays.copyOf(ten, 12);
        eleven[10] = (byte) 0x80;
        eleven[11] = 0x01;
        assertThat(Encoding.framesAsRequest(eleven)).isFalse();
    }

    private static void collectWhitespace(byte[] prefix, int depth, List<byte[]> out) {
        out.add(prefix);
        if (depth == 0) {
            return;
        }
        for (byte w : JSON_WHITESPACE) {
            byte[] next = Arrays.copyOf(prefix, prefix.length + 1);
            next[prefix.length] = w;
            collectWhitespace(next, depth - 1, out);
        }
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** The rows a transcoder writes for a record, per table, as one byte string each. */
    private static List<byte[]> rows(RecordTranscoder t, byte[] record) throws Exception {
        RecordRows rows = new RecordRows(LAYOUTS);
        t.transcode(record, rows);
        List<byte[]> out = new ArrayList<>();
        for (OtelTable table : OtelTable.values()) {
            out.add(rows.writer(table).toByteArray());
        }
        return out;
    }

    private static int rowCount(RecordTranscoder t, byte[] record) throws Exception {
        RecordRows rows = new RecordRows(LAYOUTS);
        t.transcode(record, rows);
        return rows.total();
    }
}
