package io.tributary.encoding;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.tributary.otlp.LenientUtf8;
import io.tributary.otlp.Signal;
import io.tributary.testing.Fuzzing;

import java.util.List;

/**
 * Coverage-guided fuzzing of the readers of the encodings that are not OTLP (Zipkin JSON, proto3
 * and thrift, Jaeger proto and JSON, log lines) and of header extraction: whatever the bytes, a
 * record is refused with a documented refusal or becomes a request protobuf reads as one of its
 * signal (strings that are not UTF-8 allowed, as the job reads them); a header rewrite of such a
 * request is one too, with the header's attribute on every resource.
 */
class EncodingsFuzzTest {

    private static final List<String> TRACES = List.of("zipkin_json", "zipkin_proto", "zipkin_thrift", "jaeger_proto", "jaeger_json");
    private static final List<String> LOGS = List.of("json", "text_windows-1252", "text_utf-16", "raw");
    private static final HeaderExtraction.Rewriter HEADERS = new HeaderExtraction(List.of("tenant")).rewriter();

    @FuzzTest(maxDuration = Fuzzing.SHORT)
    void everyRecordIsARequestOrARefusal(FuzzedDataProvider data) throws Exception {
        boolean traces = data.consumeBoolean();
        List<String> names = traces ? TRACES : LOGS;
        String name = names.get(data.consumeInt(0, names.size() - 1));
        byte[] tenant = data.consumeBytes(data.consumeInt(0, 20));
        byte[] record = data.consumeRemainingAsBytes();
        byte[] request;
        try {
            request = Encodings.decoder(name, traces ? Signal.TRACES : Signal.LOGS).decode(record, RecordHeaders.NONE);
        } catch (Exception | StackOverflowError e) {
            if (!Fuzzing.documented(e)) {
                throw Fuzzing.finding(e);
            }
            return;
        }
        byte[] withHeader = HEADERS.apply(request, new RecordHeaders(new String[] {"tenant"}, new byte[][] {tenant}));
        if (traces) {
            ExportTraceServiceRequest r = LenientUtf8.parse(withHeader, ExportTraceServiceRequest.getDefaultInstance());
            assertThat(LenientUtf8.parse(request, ExportTraceServiceRequest.getDefaultInstance()).getResourceSpansCount())
                    .isEqualTo(r.getResourceSpansCount());
            r.getResourceSpansList().forEach(rs -> assertThat(rs.getResource().getAttributesList())
                    .anyMatch(kv -> kv.getKey().equals("kafka.header.tenant")));
        } else {
            ExportLogsServiceRequest r = LenientUtf8.parse(withHeader, ExportLogsServiceRequest.getDefaultInstance());
            assertThat(r.getResourceLogsCount()).isEqualTo(1);
            assertThat(r.getResourceLogs(0).getResource().getAttributesList()).hasSize(1);
        }
    }
}
