package io.tributary.udf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.tributary.otlp.Signal;
import io.tributary.tables.OversizedRecordException;

import org.apache.flink.table.data.RowData;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The SQL functions bound a record as the job does (decode.max-bytes-per-record's default): the
 * record that would render 6.5 GB of rows, and as many Flink rows, fails as an undecodable one,
 * and the function goes on.
 */
class OtlpRecordsBoundsTest {

    private static byte[] spans(int n, int attributeBytes) {
        byte[] v = new byte[attributeBytes];
        Arrays.fill(v, (byte) 'r');
        ScopeSpans.Builder ss = ScopeSpans.newBuilder();
        for (int i = 0; i < n; i++) {
            ss.addSpans(Span.newBuilder().setName("s" + i));
        }
        return ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                .setResource(Resource.newBuilder().addAttributes(KeyValue.newBuilder().setKey("big")
                        .setValue(AnyValue.newBuilder().setStringValueBytes(ByteString.copyFrom(v)))))
                .addScopeSpans(ss)).build().toByteArray();
    }

    @Test
    void aRecordPastTheBoundFailsAndTheNextOneDecodes() throws Exception {
        OtlpRecords records = new OtlpRecords(Signal.TRACES);
        int[] all = IntStream.range(0, records.type().names().size()).toArray();
        assertThatThrownBy(() -> records.decode(spans(100_000, 64 << 10), all))
                .isInstanceOf(OversizedRecordException.class)
                .hasMessage("the record renders more than 67108864 bytes of rows, the most decode.max-bytes-per-record allows");
        List<RowData> rows = records.decode(spans(3, 10), all);
        assertThat(rows).hasSize(3);
        assertThat(rows.get(2).getString(records.type().names().indexOf("SpanName")).toString()).isEqualTo("s2");
    }
}
