package io.tributary.sink;

import io.tributary.kafka.KafkaConnection;

import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.clickhouse.body.Compression;
import io.tributary.schema.SchemaFlavor;
import io.tributary.schema.Sql;
import io.tributary.tables.EncodedRows;
import io.tributary.tables.OtelTable;

import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Everything the ClickHouse sink needs, validated before the job starts.
 *
 * @param endpoint server and credentials
 * @param database the tables' database
 * @param tables every table the job may write, by {@link OtelTable} ordinal ({@link EncodedRows#table})
 * @param flavor the tables' schema flavour (for the batches of 0.1 checkpoints, which were encoded in it)
 * @param delivery at-least-once (send as batches close) or exactly-once (send when checkpoints complete,
 *     with deduplication tokens)
 * @param insertSettings query settings every INSERT carries (e.g. {@code enable_json_type})
 * @param maxRows a batch is sent when it holds this many rows
 * @param maxBytes ... or this many uncompressed bytes
 * @param maxAge ... or when its first rows are this old
 * @param compression request body compression
 * @param format the INSERTs' format (a table whose columns Native is not written for gets RowBinary)
 * @param asyncInsert send with {@code async_insert=1, wait_for_async_insert=1}
 * @param maxInFlight at most this many INSERTs are outstanding per writer; then the writer blocks
 * @param retryMaxAttempts attempts per batch (the first included) on retryable errors
 * @param retryInitialBackoff first pause between attempts; doubles up to {@code retryMaxBackoff}
 * @param retryMaxBackoff longest pause between attempts
 * @param requestTimeout how long one INSERT may take before it counts as failed
 * @param tableRefusal what happens when a table refuses a batch as a whole (see {@link TableRefusalAction})
 * @param deadLetterTopic where records whose rows ClickHouse refuses for good go; "" to log and drop
 * @param sourceKafka the Kafka cluster the records come from (read back for dead letters)
 * @param deadLetterKafka the Kafka cluster of the dead-letter topic
 */
public record SinkSettings(
        ClickHouseEndpoint endpoint,
        String database,
        List<SinkTable> tables,
        SchemaFlavor flavor,
        Delivery delivery,
        Map<String, String> insertSettings,
        int maxRows,
        long maxBytes,
        Duration maxAge,
        Compression compression,
        InsertFormat format,
        boolean asyncInsert,
        int maxInFlight,
        int retryMaxAttempts,
        Duration retryInitialBackoff,
        Duration retryMaxBackoff,
        Duration requestTimeout,
        TableRefusalAction tableRefusal,
        String deadLetterTopic,
        KafkaConnection sourceKafka,
        KafkaConnection deadLetterKafka)
        implements Serializable {

    public SinkSettings {
        tables = List.copyOf(tables);
        insertSettings = Map.copyOf(insertSettings);
        for (int t = 0; t < tables.size(); t++) {
            if (tables.get(t).kind().ordinal() != t) {
                throw new IllegalArgumentException("tables must be in OtelTable order");
            }
        }
        if (tables.size() != OtelTable.values().length) {
            throw new IllegalArgumentException("one entry per OtelTable");
        }
    }

    /** {@code `db`.`table`}. */
    public String qualified(int table) {
        return Sql.qualified(database, tables.get(table).name());
    }

    /** The INSERT of batches in {@code format}: the columns and their types come with the data. */
    public String insertSql(int table, InsertFormat format) {
        return "INSERT INTO " + qualified(table) + " FORMAT " + format.clickHouseName();
    }

    /** The INSERT of a batch of a 0.1 checkpoint: plain RowBinary of the columns of a table as {@code schema create} made it. */
    public String legacyInsertSql(int table) {
        return tables.get(table).kind().schema(flavor).insertSql(database, tables.get(table).name());
    }

    /** The tables' names for metrics, "" for those whose signal does not run. */
    public List<String> metricTableNames() {
        List<String> out = new ArrayList<>(tables.size());
        tables.forEach(t -> out.add(t.running() ? t.name() : ""));
        return out;
    }
}
