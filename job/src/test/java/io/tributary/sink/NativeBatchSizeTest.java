package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.clickhouse.InsertClient;
import io.tributary.clickhouse.body.Body;
import io.tributary.clickhouse.body.Compression;
import io.tributary.kafka.KafkaConnection;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.schema.SchemaFlavor;
import io.tributary.schema.TableName;
import io.tributary.tables.EncodedRows;
import io.tributary.tables.OtelTable;

import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;

/**
 * A Native batch is held to {@code sink.batch.max-bytes} as a RowBinary one is. The writer closes a
 * batch by the RowBinary bytes of its rows, and that bound is what keeps a batch's body below the 2
 * GB {@code Batch.seal} refuses ("sink.batch.max-bytes keeps them below 2 GB") and its memory near
 * the budget docs/configuration.md#memory states ("about as many bytes as their RowBinary"). A
 * Native block is not near its rows' RowBinary when they hold empty arrays and maps: each is one
 * byte in RowBinary and an 8-byte offset in Native. A span with 1,000 empty links (the collector
 * writes them; a producer can send them) gives 4 KB of RowBinary and an 11 KB block, 2.75 times
 * (4.5 times in the column buffers held while the batch fills). So at the default 64 MiB a batch
 * holds some 290 MiB; and from {@code sink.batch.max-bytes 745 mb}, which the setting allows, such
 * spans make a block past 2 GB, which {@code seal} refuses, again after every restart.
 */
class NativeBatchSizeTest {

    private static final ProcessingTimeService NO_TIMERS = new ProcessingTimeService() {
        @Override
        public long getCurrentProcessingTime() {
            return 0;
        }

        @Override
        public ScheduledFuture<?> registerTimer(long timestamp, ProcessingTimeCallback target) {
            return null;
        }
    };

    private static final InsertClient NO_INSERTS = new InsertClient() {
        @Override
        public long insert(String sql, Map<String, String> settings, Body body, Compression compression) {
            throw new AssertionError("exactly once, the writer inserts nothing");
        }

        @Override
        public void close() {}
    };

    @Test
    void aNativeBatchClosesWithinTheByteBudget() throws Exception {
        long maxBytes = 256 << 10;
        ClickHouseSinkWriter writer = new ClickHouseSinkWriter(settings(maxBytes), NO_INSERTS, NO_TIMERS,
                new SinkMetrics(new UnregisteredMetricsGroup(), names()), 0, ClickHouseSinkWriterTest.FACTS,
                ClickHouseSinkWriterTest.NO_LIVE_TABLES);
        byte[] header = header();
        byte[] span = spanWithEmptyLinks(1000);
        for (int i = 0; i < 200; i++) {
            writer.write(new EncodedRows(OtelTable.TRACES.ordinal(), 1, span, header, "spans", 0, i), null);
        }
        writer.flush(false);
        Collection<SealedBatch> batches = writer.prepareCommit();
        writer.close();
        assertThat(batches).isNotEmpty();
        long rowBinary = 0;
        for (SealedBatch b : batches) {
            assertThat(b.format).isEqualTo(InsertFormat.NATIVE);
            rowBinary += b.bytes(0, b.records());
            // one record past the budget at most, as in RowBinary (a record is never split)
            assertThat((long) b.rawBytes).as("a Native batch of %d records of %d RowBinary bytes", b.records(),
                    b.bytes(0, b.records())).isLessThanOrEqualTo(maxBytes + 3 * span.length);
        }
        assertThat(rowBinary).isEqualTo(200L * span.length);
    }

    /** The links columns of {@code otel_traces}, after its Timestamp. */
    private static byte[] header() {
        String[] names = {"Timestamp", "Links.TraceId", "Links.SpanId", "Links.TraceState", "Links.Attributes"};
        String[] types = {"DateTime64(9)", "Array(String)", "Array(String)", "Array(String)",
            "Array(Map(LowCardinality(String), String))"};
        RowBinaryWriter w = new RowBinaryWriter(256);
        w.writeVarUInt(names.length);
        for (String n : names) {
            w.writeString(n);
        }
        for (String t : types) {
            w.writeString(t);
        }
        return w.toByteArray();
    }

    private static byte[] spanWithEmptyLinks(int links) {
        RowBinaryWriter w = new RowBinaryWriter(8 * links);
        w.writeInt64(1_700_000_000_000_000_000L);
        for (int c = 0; c < 3; c++) {
            w.writeArrayLength(links);
            for (int i = 0; i < links; i++) {
                w.writeString("");
            }
        }
        w.writeArrayLength(links);
        for (int i = 0; i < links; i++) {
            w.writeMapSize(0);
        }
        return w.toByteArray();
    }

    private static List<String> names() {
        List<String> n = new ArrayList<>();
        for (OtelTable t : OtelTable.values()) {
            n.add("t" + t.ordinal());
        }
        return n;
    }

    private static SinkSettings settings(long maxBytes) {
        List<SinkTable> tables = new ArrayList<>();
        for (OtelTable t : OtelTable.values()) {
            tables.add(new SinkTable(t, new TableName("t" + t.ordinal(), "clickhouse.tables." + t), true));
        }
        return new SinkSettings(
                ClickHouseEndpoint.of("http://localhost:1"), "db", tables, SchemaFlavor.MAP, Delivery.EXACTLY_ONCE,
                Map.of(), 1_000_000, maxBytes, Duration.ofHours(1), Compression.NONE, InsertFormat.NATIVE, false, 2, 3,
                Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofSeconds(5), TableRefusalAction.FAIL, "",
                KafkaConnection.plain("localhost:1", Map.of()), KafkaConnection.plain("localhost:1", Map.of()));
    }
}
