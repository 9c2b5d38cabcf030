package io.tributary.tables.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.otlp.Encoding;
import io.tributary.otlp.Signal;
import io.tributary.schema.SchemaFlavor;
import io.tributary.tables.RecordRows;
import io.tributary.tables.RecordTranscoder;
import io.tributary.tables.TableLayouts;
import io.tributary.tools.loadgen.LoadShape;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

/**
 * Metrics from protobuf are read where they lie: once its buffers have grown, the metrics
 * transcoder allocates nothing per data point in the map flavour (the object path it replaced
 * built protobuf-java messages, about 1.3 KB per point).
 */
class MetricsReaderAllocationTest {

    private static final int POINTS_PER_RECORD = 100;

    @Test
    void protobufRecordsInTheMapFlavourAllocateNothingPerPoint() throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertThat(threads.isThreadAllocatedMemorySupported()).isTrue();
        threads.setThreadAllocatedMemoryEnabled(true);
        LoadShape shape = new LoadShape(5, POINTS_PER_RECORD);
        byte[][] records = new byte[200][];
        for (int i = 0; i < records.length; i++) {
            records[i] = shape.nextMetrics(1_764_460_800_000_000_000L + i * 1_000_000_000L).toByteArray();
        }
        TableLayouts layouts = TableLayouts.canonical(SchemaFlavor.MAP);
        RecordTranscoder transcoder = RecordTranscoder.of(Signal.METRICS, Encoding.OTLP_PROTO, layouts);
        RecordRows rows = new RecordRows(layouts);
        for (byte[] r : records) { // buffers grow to their size
            transcoder.transcode(r, rows);
            rows.clear();
        }
        long points = 0;
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int pass = 0; pass < 3; pass++) {
            for (byte[] r : records) {
                transcoder.transcode(r, rows);
                points += rows.total();
                rows.clear();
            }
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(points).isEqualTo(3L * records.length * POINTS_PER_RECORD);
        assertThat((double) allocated / points).as("bytes allocated per point (%d bytes, %d points)", allocated, points)
                .isLessThan(1.0);
    }
}
