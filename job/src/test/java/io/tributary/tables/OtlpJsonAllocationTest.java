package io.tributary.tables;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.tributary.otlp.profiles.ExportProfilesServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.Signal;
import io.tributary.otlp.json.OtlpJsonToWire;
import io.tributary.otlp.json.OtlpJsonWriter;
import io.tributary.schema.SchemaFlavor;
import io.tributary.tools.loadgen.LoadShape;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.management.ManagementFactory;

/**
 * OTLP/JSON records of every signal are read without protobuf-java messages: once its buffers
 * have grown, the transcoder allocates at most 8 bytes per item (span, log record, data point or sample)
 * in the map flavour; the message path it replaced built a message tree, 2-3 KB per item.
 */
class OtlpJsonAllocationTest {

    private static final int ITEMS_PER_RECORD = 100;

    @ParameterizedTest
    @EnumSource(Signal.class)
    void otlpJsonRecordsAllocateAtMost8BytesPerItem(Signal signal) throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertThat(threads.isThreadAllocatedMemorySupported()).isTrue();
        threads.setThreadAllocatedMemoryEnabled(true);
        LoadShape shape = new LoadShape(5, ITEMS_PER_RECORD);
        byte[][] records = new byte[200][];
        Message type;
        for (int i = 0; i < records.length; i++) {
            long time = 1_764_460_800_000_000_000L + i * 1_000_000_000L;
            records[i] = OtlpJsonWriter.write(shape.next(signal, time));
        }
        type = signal == Signal.TRACES ? ExportTraceServiceRequest.getDefaultInstance()
                : signal == Signal.LOGS ? ExportLogsServiceRequest.getDefaultInstance()
                : signal == Signal.METRICS ? ExportMetricsServiceRequest.getDefaultInstance()
                : ExportProfilesServiceRequest.getDefaultInstance();
        OtlpJsonToWire wire = new OtlpJsonToWire(type.getDescriptorForType());
        for (byte[] r : records) {
            assertThat(wire.toWire(r)).as("read without the message path").isNotNull();
        }
        TableLayouts layouts = TableLayouts.canonical(SchemaFlavor.MAP);
        RecordTranscoder transcoder = RecordTranscoder.of(signal, Encoding.OTLP_JSON, layouts);
        RecordRows rows = new RecordRows(layouts);
        for (int pass = 0; pass < 3; pass++) { // buffers grow to their size, the code is compiled
            for (byte[] r : records) {
                transcoder.transcode(r, rows);
                rows.clear();
            }
        }
        long items = 0;
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int pass = 0; pass < 3; pass++) {
            for (byte[] r : records) {
                transcoder.transcode(r, rows);
                items += rows.total();
                rows.clear();
            }
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(items).isGreaterThanOrEqualTo(3L * records.length * ITEMS_PER_RECORD / 2);
        assertThat((double) allocated / items).as("bytes allocated per item (%d bytes, %d items)", allocated, items)
                .isLessThanOrEqualTo(8.0);
    }
}
