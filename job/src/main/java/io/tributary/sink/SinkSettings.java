package io.tributary.sink;

import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Everything the ClickHouse sink needs, validated before the job starts.
 *
 * @param endpoint server and credentials
 * @param database the tables' database
 * @param insertSql one INSERT statement per target table; {@link EncodedRows#table} indexes it
 * @param tableNames the tables' names, for metrics and messages (same order); "" for a table
 *     that receives no rows (its signal does not run)
 * @param delivery at-least-once (send as batches close) or exactly-once (send when checkpoints complete,
 *     with deduplication tokens)
 * @param insertSettings query settings every INSERT carries (e.g. {@code enable_json_type})
 * @param maxRows a batch is sent when it holds this many rows
 * @param maxBytes ... or this many uncompressed bytes
 * @param maxAge ... or when its first rows are this old
 * @param compression request body compression
 * @param asyncInsert send with {@code async_insert=1, wait_for_async_insert=1}
 * @param maxInFlight at most this many INSERTs are outstanding per writer; then the writer blocks
 * @param retryMaxAttempts attempts per batch (the first included) on retryable errors
 * @param retryInitialBackoff first pause between attempts; doubles up to {@code retryMaxBackoff}
 * @param retryMaxBackoff longest pause between attempts
 * @param requestTimeout how long one INSERT may take before it counts as failed
 * @param deadLetterTopic where records whose rows ClickHouse refuses for good go; "" to log and drop
 * @param kafkaBootstrap the Kafka cluster of the source and the dead-letter topic
 * @param kafkaProperties the Kafka client properties ({@code kafka.properties.*})
 */
public record SinkSettings(
        ClickHouseEndpoint endpoint,
        String database,
        List<String> insertSql,
        List<String> tableNames,
        Delivery delivery,
        Map<String, String> insertSettings,
        int maxRows,
        long maxBytes,
        Duration maxAge,
        Compression compression,
        boolean asyncInsert,
        int maxInFlight,
        int retryMaxAttempts,
        Duration retryInitialBackoff,
        Duration retryMaxBackoff,
        Duration requestTimeout,
        String deadLetterTopic,
        String kafkaBootstrap,
        Map<String, String> kafkaProperties)
        implements Serializable {

    public SinkSettings {
        insertSql = List.copyOf(insertSql);
        tableNames = List.copyOf(tableNames);
        insertSettings = Map.copyOf(insertSettings);
        kafkaProperties = Map.copyOf(kafkaProperties);
        if (insertSql.size() != tableNames.size()) {
            throw new IllegalArgumentException("one INSERT per table");
        }
    }
}
