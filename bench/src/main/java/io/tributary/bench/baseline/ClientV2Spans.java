package io.tributary.bench.baseline;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.data_formats.RowBinaryFormatWriter;
import com.clickhouse.client.api.insert.InsertSettings;
import com.clickhouse.client.api.metadata.TableSchema;
import com.clickhouse.data.ClickHouseFormat;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Baseline (b): the same rows through client-v2's RowBinary API, what ClickHouse's own Flink
 * connector is built on: spans gathered up to {@code batchRows} (and at every checkpoint), each
 * batch written by a {@link RowBinaryFormatWriter} (one {@code setValue} per column, {@code
 * commitRow} per span) into an INSERT the client compresses (its LZ4), up to {@code maxInFlight}
 * INSERTs outstanding, as the job's sink allows.
 */
public final class ClientV2Spans implements Sink<SpanRecord> {

    private final String url;
    private final String database;
    private final String table;
    private final int batchRows;
    private final int maxInFlight;

    public ClientV2Spans(String url, String database, String table, int batchRows, int maxInFlight) {
        this.url = url;
        this.database = database;
        this.table = table;
        this.batchRows = batchRows;
        this.maxInFlight = maxInFlight;
    }

    @Override
    public SinkWriter<SpanRecord> createWriter(WriterInitContext context) {
        return new Writer();
    }

    private final class Writer implements SinkWriter<SpanRecord> {
        private final Client client = new Client.Builder()
                .addEndpoint(url)
                .setUsername("default")
                .setPassword("")
                .setDefaultDatabase(database)
                .compressClientRequest(true)
                .build();
        private final TableSchema schema = client.getTableSchema(table);
        private final List<CompletableFuture<?>> inFlight = new ArrayList<>();
        private List<SpanRecord> buffer = new ArrayList<>(batchRows);

        @Override
        public void write(SpanRecord s, Context context) throws IOException, InterruptedException {
            buffer.add(s);
            if (buffer.size() >= batchRows) {
                send();
            }
        }

        private void send() throws IOException, InterruptedException {
            if (buffer.isEmpty()) {
                return;
            }
            while (inFlight.size() >= maxInFlight) {
                await(inFlight.remove(0));
            }
            List<SpanRecord> batch = buffer;
            buffer = new ArrayList<>(batchRows);
            inFlight.add(client.insert(table, out -> {
                RowBinaryFormatWriter w = new RowBinaryFormatWriter(out, schema, ClickHouseFormat.RowBinary);
                for (SpanRecord s : batch) {
                    Object[] v = s.values();
                    for (int i = 0; i < v.length; i++) {
                        w.setValue(SpanRecord.COLUMNS.get(i), v[i]);
                    }
                    w.commitRow();
                }
            }, ClickHouseFormat.RowBinary, new InsertSettings()));
        }

        private void await(CompletableFuture<?> f) throws IOException, InterruptedException {
            try {
                f.get(5, TimeUnit.MINUTES);
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                throw new IOException("client-v2 INSERT failed", e);
            }
        }

        @Override
        public void flush(boolean endOfInput) throws IOException, InterruptedException {
            send();
            while (!inFlight.isEmpty()) {
                await(inFlight.remove(0));
            }
        }

        @Override
        public void close() throws Exception {
            client.close();
        }
    }
}
