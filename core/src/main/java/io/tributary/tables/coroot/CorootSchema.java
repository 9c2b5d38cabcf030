package io.tributary.tables.coroot;

import io.tributary.schema.Placement;
import io.tributary.schema.Sql;
import io.tributary.schema.TableEngine;
import io.tributary.schema.TableSchema;

import static io.tributary.schema.Columns.dateTime64Nanos;
import static io.tributary.schema.Columns.int32;
import static io.tributary.schema.Columns.int64;
import static io.tributary.schema.Columns.lowCardinalityStringBytes;
import static io.tributary.schema.Columns.nested;
import static io.tributary.schema.Columns.nestedDateTime64Nanos;
import static io.tributary.schema.Columns.nestedLowCardinalityStringBytes;
import static io.tributary.schema.Columns.nestedStringBytes;
import static io.tributary.schema.Columns.nestedStringMap;
import static io.tributary.schema.Columns.stringBytes;
import static io.tributary.schema.Columns.stringMap;
import static io.tributary.schema.Columns.uint32;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Coroot's tables ({@code clickhouse.schema = coroot}): {@code otel_traces} and {@code otel_logs}
 * and the tables and materialized views Coroot reads beside them, as Coroot's migration creates
 * them ({@code ch/client.go} in coroot/coroot at 370a33f): the traces' latency histogram ({@code
 * otel_traces_histogram}, from the {@code NetSockPeerAddr} column an ALTER adds), trace-id index
 * ({@code otel_traces_trace_id_ts}) and service names ({@code otel_traces_service_name}); the logs'
 * services and severities ({@code otel_logs_service_name_severity_text}). The tables beside take
 * the spans or logs table's name plus Coroot's suffix, so with the default names they are
 * Coroot's.
 *
 * <p>Engines as Coroot's migration chooses them: {@code MergeTree()}, {@code ReplacingMergeTree()},
 * {@code SummingMergeTree()} on one server, their {@code Replicated} forms on a cluster (with
 * {@code ON CLUSTER}).
 */
public final class CorootSchema {

    /**
     * The TTL of Coroot's tables when none is given: Coroot's default ({@code TracesTTL} and {@code
     * LogsTTL}, 7 days). Coroot's migration never adds one to a table that exists, so tables made
     * without one would keep every row.
     */
    public static final Duration DEFAULT_TTL = Duration.ofDays(7);

    /** Suffix of Coroot's Distributed tables ({@code otel_traces_distributed}). */
    public static final String DISTRIBUTED_SUFFIX = "_distributed";

    private static final String ZSTD = "CODEC(ZSTD(1))";
    private static final String DELTA = "CODEC(Delta, ZSTD(1))";
    private static final String REPLICA = "('/clickhouse/tables/{shard}/{database}/{table}', '{replica}')";

    /** Coroot's {@code otel_traces}, without the {@code NetSockPeerAddr} its ALTER adds (computed by ClickHouse). */
    public static final TableSchema<CorootSpan> TRACES = TableSchema.<CorootSpan>builder()
            .column(dateTime64Nanos("Timestamp", DELTA, s -> s.timestamp))
            .column(stringBytes("TraceId", ZSTD, (s, out) -> out.writeString(s.traceId)))
            .column(stringBytes("SpanId", ZSTD, (s, out) -> out.writeString(s.spanId)))
            .column(stringBytes("ParentSpanId", ZSTD, (s, out) -> out.writeString(s.parentSpanId)))
            .column(stringBytes("TraceState", ZSTD, (s, out) -> out.writeString(s.traceState)))
            .column(lowCardinalityStringBytes("SpanName", ZSTD, (s, out) -> out.writeString(s.name)))
            .column(lowCardinalityStringBytes("SpanKind", ZSTD, (s, out) -> out.writeString(s.kind)))
            .column(lowCardinalityStringBytes("ServiceName", ZSTD, (s, out) -> out.writeString(s.serviceName)))
            .column(stringMap("ResourceAttributes", ZSTD, (s, out) -> s.resourceAttributes.write(out)))
            .column(stringMap("SpanAttributes", ZSTD, (s, out) -> s.spanAttributes.write(out)))
            .column(int64("Duration", ZSTD, s -> s.duration))
            .column(lowCardinalityStringBytes("StatusCode", ZSTD, (s, out) -> out.writeString(s.statusCode)))
            .column(stringBytes("StatusMessage", ZSTD, (s, out) -> out.writeString(s.statusMessage)))
            .column(nested("Events", ZSTD, s -> s.eventTimes.length,
                    nestedDateTime64Nanos("Timestamp", (s, i) -> s.eventTimes[i]),
                    nestedLowCardinalityStringBytes("Name", (s, i, out) -> out.writeString(s.eventNames[i])),
                    nestedStringMap("Attributes", (s, i, out) -> s.eventAttributes[i].write(out))))
            .column(nested("Links", ZSTD, s -> s.linkTraceIds.length,
                    nestedStringBytes("TraceId", (s, i, out) -> out.writeString(s.linkTraceIds[i])),
                    nestedStringBytes("SpanId", (s, i, out) -> out.writeString(s.linkSpanIds[i])),
                    nestedStringBytes("TraceState", (s, i, out) -> out.writeString(s.linkTraceStates[i])),
                    nestedStringMap("Attributes", (s, i, out) -> s.linkAttributes[i].write(out))))
            .index("idx_trace_id TraceId TYPE bloom_filter(0.001) GRANULARITY 1")
            .index("idx_res_attr_key mapKeys(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1")
            .index("idx_res_attr_value mapValues(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1")
            .index("idx_span_attr_key mapKeys(SpanAttributes) TYPE bloom_filter(0.01) GRANULARITY 1")
            .index("idx_span_attr_value mapValues(SpanAttributes) TYPE bloom_filter(0.01) GRANULARITY 1")
            .index("idx_duration Duration TYPE minmax GRANULARITY 1")
            .partitionBy("toDate(Timestamp)")
            .orderBy("(ServiceName, SpanName, toUnixTimestamp(Timestamp), TraceId)")
            .ttlOn("toDateTime(Timestamp)")
            .settings("index_granularity=8192, ttl_only_drop_parts = 1")
            .build();

    /** Coroot's {@code otel_logs}. */
    public static final TableSchema<CorootLog> LOGS = TableSchema.<CorootLog>builder()
            .column(dateTime64Nanos("Timestamp", DELTA, l -> l.timestamp))
            .column(stringBytes("TraceId", ZSTD, (l, out) -> out.writeString(l.traceId)))
            .column(stringBytes("SpanId", ZSTD, (l, out) -> out.writeString(l.spanId)))
            .column(uint32("TraceFlags", ZSTD, l -> l.traceFlags))
            .column(lowCardinalityStringBytes("SeverityText", ZSTD, (l, out) -> out.writeString(l.severityText)))
            .column(int32("SeverityNumber", ZSTD, l -> l.severityNumber))
            .column(lowCardinalityStringBytes("ServiceName", ZSTD, (l, out) -> out.writeString(l.serviceName)))
            .column(stringBytes("Body", ZSTD, (l, out) -> out.writeString(l.body)))
            .column(stringMap("ResourceAttributes", ZSTD, (l, out) -> l.resourceAttributes.write(out)))
            .column(stringMap("LogAttributes", ZSTD, (l, out) -> l.logAttributes.write(out)))
            .index("idx_trace_id TraceId TYPE bloom_filter(0.001) GRANULARITY 1")
            .index("idx_res_attr_key mapKeys(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1")
            .index("idx_res_attr_value mapValues(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1")
            .index("idx_log_attr_key mapKeys(LogAttributes) TYPE bloom_filter(0.01) GRANULARITY 1")
            .index("idx_log_attr_value mapValues(LogAttributes) TYPE bloom_filter(0.01) GRANULARITY 1")
            .index("idx_body Body TYPE tokenbf_v1(32768, 3, 0) GRANULARITY 1")
            .partitionBy("toDate(Timestamp)")
            .orderBy("(ServiceName, SeverityText, toUnixTimestamp(Timestamp), TraceId)")
            .ttlOn("toDateTime(Timestamp)")
            .settings("index_granularity=8192, ttl_only_drop_parts = 1")
            .build();

    private CorootSchema() {}

    /** Coroot's engine for {@code kind} ({@code MergeTree}, ...): its Replicated form on a cluster. */
    private static String engine(Placement placement, String kind) {
        return placement.cluster() == null ? kind + "()" : "Replicated" + kind + REPLICA;
    }

    /**
     * Every statement that makes Coroot's traces tables, in the order Coroot's migration runs
     * them: the spans table; the ALTERs that add {@code NetSockPeerAddr} and the trace-id index
     * (before the histogram view, which reads the column); the histogram, trace-id and
     * service-name tables, each followed by the view that fills it.
     *
     * @param extraSettings appended to the spans table's SETTINGS when not empty (a deduplication window)
     */
    public static List<String> traces(String database, String table, Placement placement, Duration ttl, String extraSettings) {
        String on = placement.onCluster();
        String spans = Sql.qualified(database, table);
        List<String> out = new ArrayList<>();
        out.add(TRACES.createTableSql(database, table,
                new Placement(TableEngine.parse(engine(placement, "MergeTree")), placement.cluster()), ttl, extraSettings));
        out.add("ALTER TABLE " + spans + on + " ADD COLUMN IF NOT EXISTS NetSockPeerAddr LowCardinality(String)"
                + " MATERIALIZED SpanAttributes['net.sock.peer.addr'] CODEC(ZSTD(1))");
        out.add("ALTER TABLE " + spans + on + " ADD INDEX IF NOT EXISTS idx_trace_id TraceId TYPE bloom_filter(0.001) GRANULARITY 1");
        String histogram = Sql.qualified(database, table + "_histogram");
        out.add("CREATE TABLE IF NOT EXISTS " + histogram + on + " (\n"
                + "    ServiceName LowCardinality(String) CODEC(ZSTD(1)),\n"
                + "    SpanName LowCardinality(String) CODEC(ZSTD(1)),\n"
                + "    SpanKind LowCardinality(String) CODEC(ZSTD(1)),\n"
                + "    Root UInt8 CODEC(ZSTD(1)),\n"
                + "    NetSockPeerAddr LowCardinality(String) CODEC(ZSTD(1)),\n"
                + "    NetPeerName LowCardinality(String) CODEC(ZSTD(1)),\n"
                + "    NetPeerPort LowCardinality(String) CODEC(ZSTD(1)),\n"
                + "    Timestamp DateTime CODEC(Delta, ZSTD(1)),\n"
                + "    Bucket Float64 CODEC(ZSTD(1)),\n"
                + "    Total UInt64 CODEC(ZSTD(1)),\n"
                + "    Failed UInt64 CODEC(ZSTD(1))\n"
                + ") ENGINE = " + engine(placement, "SummingMergeTree") + "\n"
                + ttl(ttl, "Timestamp")
                + "PARTITION BY toDate(Timestamp)\n"
                + "ORDER BY (ServiceName, SpanName, SpanKind, Root, Timestamp, NetSockPeerAddr, NetPeerName, NetPeerPort, Bucket)\n"
                + "SETTINGS index_granularity=8192, ttl_only_drop_parts = 1\n");
        out.add("CREATE MATERIALIZED VIEW IF NOT EXISTS " + Sql.qualified(database, table + "_histogram_mv") + on
                + " TO " + histogram + " AS\n"
                + "SELECT\n"
                + "    ServiceName, SpanName, SpanKind,\n"
                + "    ParentSpanId = '' AS Root,\n"
                + "    NetSockPeerAddr,\n"
                + "    SpanAttributes['net.peer.name'] AS NetPeerName,\n"
                + "    SpanAttributes['net.peer.port'] AS NetPeerPort,\n"
                + "    toDateTime(toStartOfMinute(Timestamp)) AS Timestamp,\n"
                + "    roundDown(Duration/1000000, [0,5,10,25,50,100,250,500,1000,2500,5000,10000]) AS Bucket,\n"
                + "    count(1) AS Total,\n"
                + "    countIf(StatusCode = 'STATUS_CODE_ERROR') AS Failed\n"
                + "FROM " + spans + "\n"
                + "GROUP BY ServiceName, SpanName, SpanKind, Root, NetSockPeerAddr, NetPeerName, NetPeerPort, Timestamp, Bucket\n");
        String traceIds = Sql.qualified(database, table + "_trace_id_ts");
        out.add("CREATE TABLE IF NOT EXISTS " + traceIds + on + " (\n"
                + "    TraceId String CODEC(ZSTD(1)),\n"
                + "    Start DateTime64(9) CODEC(Delta, ZSTD(1)),\n"
                + "    End DateTime64(9) CODEC(Delta, ZSTD(1)),\n"
                + "    INDEX idx_trace_id TraceId TYPE bloom_filter(0.01) GRANULARITY 1\n"
                + ") ENGINE = " + engine(placement, "MergeTree") + "\n"
                + ttl(ttl, "toDateTime(Start)")
                + "PARTITION BY toDate(Start)\n"
                + "ORDER BY (TraceId, toUnixTimestamp(Start))\n"
                + "SETTINGS index_granularity=8192, ttl_only_drop_parts = 1\n");
        out.add("CREATE MATERIALIZED VIEW IF NOT EXISTS " + Sql.qualified(database, table + "_trace_id_ts_mv") + on
                + " TO " + traceIds + " AS\n"
                + "SELECT\n"
                + "    TraceId,\n"
                + "    min(Timestamp) AS Start,\n"
                + "    max(Timestamp) AS End\n"
                + "FROM " + spans + "\n"
                + "WHERE TraceId != ''\n"
                + "GROUP BY TraceId\n");
        out.addAll(lastSeen(database, table, "_service_name", List.of("ServiceName"), placement, ttl));
        return out;
    }

    /**
     * Every statement that makes Coroot's logs tables, in the order of Coroot's migration: the
     * records table, then the services-and-severities table and the view that fills it.
     */
    public static List<String> logs(String database, String table, Placement placement, Duration ttl, String extraSettings) {
        List<String> out = new ArrayList<>();
        out.add(LOGS.createTableSql(database, table,
                new Placement(TableEngine.parse(engine(placement, "MergeTree")), placement.cluster()), ttl, extraSettings));
        out.addAll(lastSeen(database, table, "_service_name_severity_text", List.of("ServiceName", "SeverityText"), placement,
                ttl));
        return out;
    }

    /**
     * One of Coroot's "last seen" tables beside {@code source} ({@code <source><suffix>}, a
     * ReplacingMergeTree keyed by {@code keys}) and the view that fills it with each key's latest
     * {@code Timestamp}.
     */
    private static List<String> lastSeen(String database, String source, String suffix, List<String> keys, Placement placement,
            Duration ttl) {
        String on = placement.onCluster();
        String table = Sql.qualified(database, source + suffix);
        StringBuilder t = new StringBuilder("CREATE TABLE IF NOT EXISTS ").append(table).append(on).append(" (\n");
        keys.forEach(k -> t.append("    ").append(k).append(" LowCardinality(String) CODEC(ZSTD(1)),\n"));
        t.append("    LastSeen DateTime64(9) CODEC(Delta, ZSTD(1))\n")
                .append(") ENGINE = ").append(engine(placement, "ReplacingMergeTree")).append('\n')
                .append("PRIMARY KEY (").append(String.join(", ", keys)).append(")\n")
                .append(ttl(ttl, "toDateTime(LastSeen)"))
                .append("PARTITION BY toDate(LastSeen)\n");
        String k = String.join(", ", keys);
        return List.of(t.toString(), "CREATE MATERIALIZED VIEW IF NOT EXISTS " + Sql.qualified(database, source + suffix + "_mv") + on
                + " TO " + table + " AS\n"
                + "SELECT " + k + ", max(Timestamp) AS LastSeen FROM " + Sql.qualified(database, source) + " GROUP BY " + k + "\n");
    }

    /**
     * Coroot's {@code _distributed} tables over these (on a cluster): the spans by trace id as
     * Coroot has them; the log records by service and time where Coroot has {@code rand()}, so
     * that a batch sent again splits over the shards as it did the first time.
     */
    public static List<String> distributed(String database, String traces, String logs, Placement placement) {
        List<String> out = new ArrayList<>();
        if (logs != null) {
            out.add(distributed(database, logs, placement, "cityHash64(ServiceName, Timestamp)"));
            out.add(distributed(database, logs + "_service_name_severity_text", placement, null));
        }
        if (traces != null) {
            out.add(distributed(database, traces, placement, "cityHash64(TraceId)"));
            out.add(distributed(database, traces + "_trace_id_ts", placement, null));
            out.add(distributed(database, traces + "_histogram", placement, "rand()"));
            out.add(distributed(database, traces + "_service_name", placement, null));
        }
        return out;
    }

    private static String distributed(String database, String local, Placement placement, String shardingKey) {
        return "CREATE TABLE IF NOT EXISTS " + Sql.qualified(database, local + DISTRIBUTED_SUFFIX) + placement.onCluster()
                + " AS " + Sql.qualified(database, local) + "\n"
                + "ENGINE = Distributed(" + Sql.string(placement.cluster()) + ", " + Sql.string(database) + ", "
                + Sql.string(local) + (shardingKey == null ? "" : ", " + shardingKey) + ")\n";
    }

    private static String ttl(Duration ttl, String expression) {
        String t = Sql.ttl(ttl, expression);
        return t.isEmpty() ? "" : t + "\n";
    }
}
