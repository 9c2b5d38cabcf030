package io.tributary.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.tributary.testing.Fuzzing;
import io.tributary.testing.oracle.RandomOtlp;
import io.tributary.tools.loadgen.LoadShape;


import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.HexFormat;
import java.util.List;

/**
 * Coverage-guided fuzzing of {@code kafka.encoding auto} ({@link Encoding#of}): bytes that
 * protobuf-java reads as an export request of any signal (invalid UTF-8 in strings allowed, as the
 * job reads it) are never taken for OTLP/JSON, whose reader would refuse them. The input is either
 * the record itself, or the recipe of a valid request: a generated one, its first top-level
 * message padded to a length the fuzzer picks, after top-level fields the request does not know
 * (which protobuf-java skips) of numbers, wire types and values the fuzzer picks.
 */
class EncodingFuzzTest {

    @SuppressWarnings("unchecked")
    private static final OtlpDecoder<? extends Message>[] PROTOBUF = new OtlpDecoder[] {
        new OtlpDecoder<>(Encoding.OTLP_PROTO, ExportTraceServiceRequest.getDefaultInstance()),
        new OtlpDecoder<>(Encoding.OTLP_PROTO, ExportLogsServiceRequest.getDefaultInstance()),
        new OtlpDecoder<>(Encoding.OTLP_PROTO, ExportMetricsServiceRequest.getDefaultInstance())};

    @FuzzTest(maxDuration = Fuzzing.SHORT)
    void protobufRequestsAreNeverTakenForJson(FuzzedDataProvider data) throws IOException {
        byte[] record = data.consumeBoolean() ? request(data) : data.consumeRemainingAsBytes();
        for (OtlpDecoder<? extends Message> protobuf : PROTOBUF) {
            try {
                protobuf.decode(record);
            } catch (IOException refused) {
                continue;
            }
            assertThat(Encoding.AUTO.of(record)).as("%s, a valid protobuf request", HexFormat.of().formatHex(record))
                    .isEqualTo(Encoding.OTLP_PROTO);
            return;
        }
    }

    /** A valid request of a signal the input picks, encoded as the input says. */
    private static byte[] request(FuzzedDataProvider data) throws IOException {
        int signal = data.consumeInt(0, 2);
        long seed = data.consumeLong();
        Message request = signal == 0 ? new RandomOtlp(seed).traces()
                : signal == 1 ? new RandomOtlp(seed).logs()
                : new LoadShape(seed, data.consumeInt(1, 3)).nextMetrics(1_764_460_800_000_000_000L);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        // unknown top-level fields first (1 is the resource messages' own number, with any other wire type unknown too)
        for (int n = data.consumeInt(0, 2); n > 0; n--) {
            int field = data.consumeInt(1, 40);
            switch (data.consumeInt(0, 3)) {
                case 0:
                    out.writeUInt64(field, data.consumeLong());
                    break;
                case 1:
                    out.writeFixed64(field, data.consumeLong());
                    break;
                case 2:
                    out.writeFixed32(field, data.consumeInt());
                    break;
                default:
                    out.writeByteArray(field == 1 ? 2 : field, data.consumeBytes(data.consumeInt(0, 300)));
                    break;
            }
        }
        // the top-level messages, the first padded with an unknown field to a length the fuzzer picks
        List<Message> resources = resources(request);
        for (int i = 0; i < resources.size(); i++) {
            byte[] r = resources.get(i).toByteArray();
            int pad = i == 0 ? data.consumeInt(-1, 300) : -1;
            int padded = pad < 0 ? r.length
                    : r.length + CodedOutputStream.computeTagSize(999) + CodedOutputStream.computeUInt32SizeNoTag(pad) + pad;
            out.writeTag(1, 2);
            out.writeUInt32NoTag(padded);
            out.writeRawBytes(r);
            if (pad >= 0) {
                out.writeByteArray(999, new byte[pad]);
            }
        }
        out.flush();
        return bytes.toByteArray();
    }

    @SuppressWarnings("unchecked")
    private static List<Message> resources(Message request) {
        return (List<Message>) request.getField(request.getDescriptorForType().findFieldByNumber(1));
    }
}
