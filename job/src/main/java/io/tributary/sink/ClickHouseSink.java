package io.tributary.sink;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

import java.io.IOException;

/**
 * Writes {@link EncodedRows} to ClickHouse in large batches over HTTP, in RowBinary.
 *
 * <p>At-least-once: the writer sends every open batch and waits for every outstanding INSERT in
 * {@link SinkWriter#flush}, which Flink calls before the checkpoint barrier passes the sink, so a
 * completed checkpoint (and the Kafka offsets in it) only covers rows that ClickHouse accepted.
 */
public final class ClickHouseSink implements Sink<EncodedRows> {
    private static final long serialVersionUID = 1L;

    private final SinkSettings settings;

    public ClickHouseSink(SinkSettings settings) {
        this.settings = settings;
    }

    @Override
    public SinkWriter<EncodedRows> createWriter(WriterInitContext context) throws IOException {
        return new ClickHouseSinkWriter(
                settings,
                new ClickHouseClient(settings.endpoint(), settings.requestTimeout()),
                context.getProcessingTimeService(),
                new io.tributary.metrics.SinkMetrics(context.metricGroup().addGroup("tributary"), settings.tableNames()),
                context.getTaskInfo().getIndexOfThisSubtask());
    }
}
