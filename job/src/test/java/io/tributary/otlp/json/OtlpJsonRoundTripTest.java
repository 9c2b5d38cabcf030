package io.tributary.otlp.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.tributary.otlp.json.OtlpJsonParser;
import io.tributary.otlp.json.OtlpJsonWriter;
import io.tributary.tools.loadgen.LoadShape;

import org.junit.jupiter.api.Test;

/** The load generator's records, written as OTLP/JSON and parsed back by the job, are the records. */
class OtlpJsonRoundTripTest {

    private static final long NOW = 1_700_000_000_000_000_000L;

    private static <M extends Message> void roundTrip(M m, M defaultInstance) throws Exception {
        assertThat(OtlpJsonParser.parse(OtlpJsonWriter.write(m), defaultInstance)).isEqualTo(m);
    }

    @Test
    void traces() throws Exception {
        LoadShape s = new LoadShape(11, 100);
        for (int i = 0; i < 5; i++) {
            roundTrip(s.next(NOW + i), ExportTraceServiceRequest.getDefaultInstance());
        }
    }

    @Test
    void logs() throws Exception {
        LoadShape s = new LoadShape(12, 100);
        for (int i = 0; i < 5; i++) {
            roundTrip(s.nextLogs(NOW + i), ExportLogsServiceRequest.getDefaultInstance());
        }
    }

    @Test
    void metrics() throws Exception {
        LoadShape s = new LoadShape(13, 100);
        for (int i = 0; i < 5; i++) {
            roundTrip(s.nextMetrics(NOW + i), ExportMetricsServiceRequest.getDefaultInstance());
        }
    }
}
