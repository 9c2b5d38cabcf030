package io.tributary.bench.baseline;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.connector.jdbc.JdbcConnectionOptions;
import org.apache.flink.connector.jdbc.JdbcExecutionOptions;
import org.apache.flink.connector.jdbc.core.datastream.sink.JdbcSink;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Baseline (a): the sink a Flink user builds the usual way, flink-connector-jdbc's {@code JdbcSink}
 * with ClickHouse's JDBC driver: a prepared INSERT of the columns, one {@code addBatch} per span,
 * executed every {@code batchRows} rows (or {@code batchIntervalMs}, and at every checkpoint), the
 * request compressed (the driver's LZ4).
 */
public final class JdbcSpans {

    private JdbcSpans() {}

    public static Sink<SpanRecord> sink(String clickHouseUrl, String database, String table, int batchRows,
            long batchIntervalMs) {
        String columns = SpanRecord.COLUMNS.stream().map(c -> "`" + c + "`").collect(Collectors.joining(", "));
        String marks = SpanRecord.COLUMNS.stream().map(c -> "?").collect(Collectors.joining(", "));
        String sql = "INSERT INTO `" + database + "`.`" + table + "` (" + columns + ") VALUES (" + marks + ")";
        String url = clickHouseUrl.replaceFirst("^http", "jdbc:clickhouse:http") + "/" + database
                + "?decompress=true"; // client-v2's key for "compress the request" (the server decompresses it)
        return JdbcSink.<SpanRecord>builder()
                .withQueryStatement(sql, (ps, s) -> {
                    Object[] v = s.values();
                    for (int i = 0; i < v.length; i++) {
                        ps.setObject(i + 1, jdbc(v[i]));
                    }
                })
                .withExecutionOptions(JdbcExecutionOptions.builder()
                        .withBatchSize(batchRows)
                        .withBatchIntervalMs(batchIntervalMs)
                        .withMaxRetries(3)
                        .build())
                .buildAtLeastOnce(new JdbcConnectionOptions.JdbcConnectionOptionsBuilder()
                        .withUrl(url)
                        .withDriverName("com.clickhouse.jdbc.Driver")
                        .withUsername("default")
                        .build());
    }

    /** Instants as {@code Timestamp}s (nanoseconds kept), lists of them likewise. */
    private static Object jdbc(Object v) {
        if (v instanceof Instant) {
            return Timestamp.from((Instant) v);
        }
        if (v instanceof List && !((List<?>) v).isEmpty() && ((List<?>) v).get(0) instanceof Instant) {
            List<Timestamp> out = new ArrayList<>();
            for (Object o : (List<?>) v) {
                out.add(Timestamp.from((Instant) o));
            }
            return out;
        }
        return v;
    }
}
