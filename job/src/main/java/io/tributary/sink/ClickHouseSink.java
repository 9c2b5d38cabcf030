package io.tributary.sink;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

import io.tributary.schema.OtelTable;
import io.tributary.schema.Sql;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes {@link EncodedRows} to ClickHouse in large batches over HTTP, in RowBinary.
 *
 * <p>At-least-once: the writer sends every open batch and waits for every outstanding INSERT in
 * {@link SinkWriter#flush}, which Flink calls before the checkpoint barrier passes the sink, so a
 * completed checkpoint (and the Kafka offsets in it) only covers rows that ClickHouse accepted.
 */
public final class ClickHouseSink implements Sink<EncodedRows> {
    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(ClickHouseSink.class);

    private final SinkSettings settings;

    public ClickHouseSink(SinkSettings settings) {
        this.settings = settings;
    }

    /**
     * Fails at start, naming the setting, when a table the job writes does not exist, instead of
     * at the first INSERT. A server that cannot be reached now is not an error here: the INSERTs
     * retry.
     */
    private void checkTablesExist(ClickHouseClient client) throws IOException {
        List<String> missing = new ArrayList<>();
        for (int t = 0; t < settings.tableNames().size(); t++) {
            String name = settings.tableNames().get(t);
            if (name.isEmpty()) {
                continue;
            }
            String exists;
            try {
                exists = client.query("EXISTS TABLE " + Sql.qualified(settings.database(), name) + " FORMAT TSV").strip();
            } catch (ClickHouseException e) {
                if (e.retryable()) {
                    LOG.warn("Cannot check that the tables exist: {}", e.getMessage());
                    return;
                }
                throw e;
            } catch (IOException e) {
                LOG.warn("Cannot check that the tables exist: {}", e.getMessage());
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
            if (!exists.equals("1")) {
                missing.add(OtelTable.values()[t].nameOption().key() + " = " + name);
            }
        }
        if (!missing.isEmpty()) {
            throw new IOException("ClickHouse database `" + settings.database() + "` has no table for "
                    + String.join(", ", missing) + ": create them with `bin/tributary schema create` (same"
                    + " settings) or --clickhouse.create-schema true, or turn the signal off with --signals");
        }
    }

    @Override
    public SinkWriter<EncodedRows> createWriter(WriterInitContext context) throws IOException {
        ClickHouseClient client = new ClickHouseClient(settings.endpoint(), settings.requestTimeout());
        checkTablesExist(client);
        return new ClickHouseSinkWriter(
                settings,
                client,
                context.getProcessingTimeService(),
                new io.tributary.metrics.SinkMetrics(context.metricGroup().addGroup("tributary"), settings.tableNames()),
                context.getTaskInfo().getIndexOfThisSubtask());
    }
}
