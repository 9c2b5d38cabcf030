package io.tributary.encoding;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * kafkareceiver's {@code header_extraction} ({@code kafka_receiver.go}, {@code
 * getMessageHeaderResourceAttributes}): the first header of each configured name becomes {@code
 * kafka.header.<name>} on every resource, by pdata's {@code PutStr} (replacing), checked against
 * the same edit made with protobuf-java.
 */
class HeaderExtractionTest {

    private static final HeaderExtraction.Rewriter REWRITER = new HeaderExtraction(List.of("tenant", "env", "absent")).rewriter();

    private static RecordHeaders headers(Object... kv) {
        String[] keys = new String[kv.length / 2];
        byte[][] values = new byte[kv.length / 2][];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = (String) kv[2 * i];
            values[i] = (byte[]) kv[2 * i + 1];
        }
        return new RecordHeaders(keys, values);
    }

    private static KeyValue str(String k, ByteString v) {
        return KeyValue.newBuilder().setKey(k).setValue(AnyValue.newBuilder().setStringValueBytes(v)).build();
    }

    @Test
    void everyResourceGetsTheFirstValueOfEachHeaderReplacingAnAttributeOfItsKey() throws Exception {
        ExportTraceServiceRequest in = ExportTraceServiceRequest.newBuilder()
                .addResourceSpans(ResourceSpans.newBuilder()
                        .setResource(Resource.newBuilder()
                                .addAttributes(str("service.name", ByteString.copyFromUtf8("api")))
                                .addAttributes(str("kafka.header.env", ByteString.copyFromUtf8("old")))
                                .setDroppedAttributesCount(3))
                        .addScopeSpans(ScopeSpans.newBuilder().addSpans(Span.newBuilder().setName("a")))
                        .setSchemaUrl("s"))
                .addResourceSpans(ResourceSpans.newBuilder() // no resource at all
                        .addScopeSpans(ScopeSpans.newBuilder().addSpans(Span.newBuilder().setName("b"))))
                .build();
        byte[] notUtf8 = "x\u00e9".getBytes(StandardCharsets.UTF_8);
        byte[] out = REWRITER.apply(in.toByteArray(), headers("tenant", notUtf8, "env", "prod".getBytes(StandardCharsets.UTF_8),
                "tenant", "second".getBytes(StandardCharsets.UTF_8), "other", new byte[] {1}));
        ExportTraceServiceRequest got = ExportTraceServiceRequest.parseFrom(out);
        ExportTraceServiceRequest expected = in.toBuilder()
                .setResourceSpans(0, in.getResourceSpans(0).toBuilder().setResource(Resource.newBuilder()
                        .addAttributes(str("service.name", ByteString.copyFromUtf8("api")))
                        .setDroppedAttributesCount(3)
                        .addAttributes(str("kafka.header.tenant", ByteString.copyFrom(notUtf8)))
                        .addAttributes(str("kafka.header.env", ByteString.copyFromUtf8("prod")))))
                .setResourceSpans(1, in.getResourceSpans(1).toBuilder().setResource(Resource.newBuilder()
                        .addAttributes(str("kafka.header.tenant", ByteString.copyFrom(notUtf8)))
                        .addAttributes(str("kafka.header.env", ByteString.copyFromUtf8("prod")))))
                .build();
        assertThat(got).isEqualTo(expected);
    }

    @Test
    void aValueThatIsNotUtf8IsCarriedAsItsBytes() throws Exception {
        byte[] in = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.getDefaultInstance()).build().toByteArray();
        byte[] out = REWRITER.apply(in, headers("env", new byte[] {'x', (byte) 0xFF}));
        // KeyValue { key, value: AnyValue { string_value: 78 FF } } closes the request
        assertThat(java.util.Arrays.copyOfRange(out, out.length - 6, out.length)).containsExactly(0x12, 4, 0x0A, 2, 'x', (byte) 0xFF);
    }

    @Test
    void aRecordWithoutTheHeadersIsLeftAsItIsAndAHeaderWithoutValueIsEmpty() throws Exception {
        byte[] in = ExportMetricsServiceRequest.newBuilder().addResourceMetrics(ResourceMetrics.getDefaultInstance()).build().toByteArray();
        assertThat(REWRITER.apply(in, headers("other", new byte[] {1}))).isSameAs(in);
        ExportMetricsServiceRequest got = ExportMetricsServiceRequest.parseFrom(REWRITER.apply(in, headers("env", null)));
        assertThat(got.getResourceMetrics(0).getResource().getAttributesList())
                .containsExactly(str("kafka.header.env", ByteString.EMPTY));
    }
}
