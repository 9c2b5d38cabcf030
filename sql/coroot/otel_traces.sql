-- Coroot flavour (clickhouse.schema = coroot) of otel_traces: the tables and materialized views Coroot's migration
-- creates for traces (ch/client.go in coroot/coroot at 370a33f), on one server, with Coroot's default TTL of 7 days.
-- Generated from the job's table definitions (io.tributary.tables.coroot) by
--     bin/tributary schema print --signals traces --clickhouse.schema coroot > sql/coroot/otel_traces.sql   (then restore this header)
-- SchemaDriftTest fails when this file and the code disagree.
CREATE DATABASE IF NOT EXISTS `otel`;

CREATE TABLE IF NOT EXISTS `otel`.`otel_traces` (
    Timestamp DateTime64(9) CODEC(Delta, ZSTD(1)),
    TraceId String CODEC(ZSTD(1)),
    SpanId String CODEC(ZSTD(1)),
    ParentSpanId String CODEC(ZSTD(1)),
    TraceState String CODEC(ZSTD(1)),
    SpanName LowCardinality(String) CODEC(ZSTD(1)),
    SpanKind LowCardinality(String) CODEC(ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    ResourceAttributes Map(LowCardinality(String), String) CODEC(ZSTD(1)),
    SpanAttributes Map(LowCardinality(String), String) CODEC(ZSTD(1)),
    Duration Int64 CODEC(ZSTD(1)),
    StatusCode LowCardinality(String) CODEC(ZSTD(1)),
    StatusMessage String CODEC(ZSTD(1)),
    Events Nested (
        Timestamp DateTime64(9),
        Name LowCardinality(String),
        Attributes Map(LowCardinality(String), String)
    ) CODEC(ZSTD(1)),
    Links Nested (
        TraceId String,
        SpanId String,
        TraceState String,
        Attributes Map(LowCardinality(String), String)
    ) CODEC(ZSTD(1)),
    INDEX idx_trace_id TraceId TYPE bloom_filter(0.001) GRANULARITY 1,
    INDEX idx_res_attr_key mapKeys(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_res_attr_value mapValues(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_span_attr_key mapKeys(SpanAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_span_attr_value mapValues(SpanAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_duration Duration TYPE minmax GRANULARITY 1
) ENGINE = MergeTree()
PARTITION BY toDate(Timestamp)
ORDER BY (ServiceName, SpanName, toUnixTimestamp(Timestamp), TraceId)
TTL toDateTime(Timestamp) + toIntervalDay(7)
SETTINGS index_granularity=8192, ttl_only_drop_parts = 1;

ALTER TABLE `otel`.`otel_traces` ADD COLUMN IF NOT EXISTS NetSockPeerAddr LowCardinality(String) MATERIALIZED SpanAttributes['net.sock.peer.addr'] CODEC(ZSTD(1));

ALTER TABLE `otel`.`otel_traces` ADD INDEX IF NOT EXISTS idx_trace_id TraceId TYPE bloom_filter(0.001) GRANULARITY 1;

CREATE TABLE IF NOT EXISTS `otel`.`otel_traces_histogram` (
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    SpanName LowCardinality(String) CODEC(ZSTD(1)),
    SpanKind LowCardinality(String) CODEC(ZSTD(1)),
    Root UInt8 CODEC(ZSTD(1)),
    NetSockPeerAddr LowCardinality(String) CODEC(ZSTD(1)),
    NetPeerName LowCardinality(String) CODEC(ZSTD(1)),
    NetPeerPort LowCardinality(String) CODEC(ZSTD(1)),
    Timestamp DateTime CODEC(Delta, ZSTD(1)),
    Bucket Float64 CODEC(ZSTD(1)),
    Total UInt64 CODEC(ZSTD(1)),
    Failed UInt64 CODEC(ZSTD(1))
) ENGINE = SummingMergeTree()
TTL Timestamp + toIntervalDay(7)
PARTITION BY toDate(Timestamp)
ORDER BY (ServiceName, SpanName, SpanKind, Root, Timestamp, NetSockPeerAddr, NetPeerName, NetPeerPort, Bucket)
SETTINGS index_granularity=8192, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS `otel`.`otel_traces_histogram_mv` TO `otel`.`otel_traces_histogram` AS
SELECT
    ServiceName, SpanName, SpanKind,
    ParentSpanId = '' AS Root,
    NetSockPeerAddr,
    SpanAttributes['net.peer.name'] AS NetPeerName,
    SpanAttributes['net.peer.port'] AS NetPeerPort,
    toDateTime(toStartOfMinute(Timestamp)) AS Timestamp,
    roundDown(Duration/1000000, [0,5,10,25,50,100,250,500,1000,2500,5000,10000]) AS Bucket,
    count(1) AS Total,
    countIf(StatusCode = 'STATUS_CODE_ERROR') AS Failed
FROM `otel`.`otel_traces`
GROUP BY ServiceName, SpanName, SpanKind, Root, NetSockPeerAddr, NetPeerName, NetPeerPort, Timestamp, Bucket;

CREATE TABLE IF NOT EXISTS `otel`.`otel_traces_trace_id_ts` (
    TraceId String CODEC(ZSTD(1)),
    Start DateTime64(9) CODEC(Delta, ZSTD(1)),
    End DateTime64(9) CODEC(Delta, ZSTD(1)),
    INDEX idx_trace_id TraceId TYPE bloom_filter(0.01) GRANULARITY 1
) ENGINE = MergeTree()
TTL toDateTime(Start) + toIntervalDay(7)
PARTITION BY toDate(Start)
ORDER BY (TraceId, toUnixTimestamp(Start))
SETTINGS index_granularity=8192, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS `otel`.`otel_traces_trace_id_ts_mv` TO `otel`.`otel_traces_trace_id_ts` AS
SELECT
    TraceId,
    min(Timestamp) AS Start,
    max(Timestamp) AS End
FROM `otel`.`otel_traces`
WHERE TraceId != ''
GROUP BY TraceId;

CREATE TABLE IF NOT EXISTS `otel`.`otel_traces_service_name` (
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    LastSeen DateTime64(9) CODEC(Delta, ZSTD(1))
) ENGINE = ReplacingMergeTree()
PRIMARY KEY (ServiceName)
TTL toDateTime(LastSeen) + toIntervalDay(7)
PARTITION BY toDate(LastSeen);

CREATE MATERIALIZED VIEW IF NOT EXISTS `otel`.`otel_traces_service_name_mv` TO `otel`.`otel_traces_service_name` AS
SELECT ServiceName, max(Timestamp) AS LastSeen FROM `otel`.`otel_traces` GROUP BY ServiceName;

