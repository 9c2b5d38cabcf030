-- JSON flavour (clickhouse.schema = json) of otel_traces, as the clickhouseexporter creates it with
-- `json: true` (internal/sqltemplates/traces_json_table.sql with the ResourceAttributesKeys and
-- SpanAttributesKeys columns, v0.162), plus the same trace-id lookup table and view as the map flavour.
-- Generated from the job's table definitions (io.tributary.tables.traces|logs|metrics) by
--     bin/tributary schema print --signals traces --clickhouse.schema json > sql/json/otel_traces.sql   (then restore this header)
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
    ResourceAttributes JSON CODEC(ZSTD(1)),
    ResourceAttributesKeys Array(LowCardinality(String)) CODEC(ZSTD(1)),
    ScopeName String CODEC(ZSTD(1)),
    ScopeVersion String CODEC(ZSTD(1)),
    SpanAttributes JSON CODEC(ZSTD(1)),
    SpanAttributesKeys Array(LowCardinality(String)) CODEC(ZSTD(1)),
    Duration UInt64 CODEC(ZSTD(1)),
    StatusCode LowCardinality(String) CODEC(ZSTD(1)),
    StatusMessage String CODEC(ZSTD(1)),
    Events Nested (
        Timestamp DateTime64(9),
        Name LowCardinality(String),
        Attributes JSON
    ) CODEC(ZSTD(1)),
    Links Nested (
        TraceId String,
        SpanId String,
        TraceState String,
        Attributes JSON
    ) CODEC(ZSTD(1)),
    INDEX idx_res_attr_keys ResourceAttributesKeys TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_span_attr_keys SpanAttributesKeys TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_duration Duration TYPE minmax GRANULARITY 1
) ENGINE = MergeTree()
PARTITION BY toDate(Timestamp)
ORDER BY (ServiceName, SpanName, toDateTime(Timestamp), Timestamp)
SETTINGS index_granularity=8192, ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS `otel`.`otel_traces_trace_id_ts` (
    TraceId String CODEC(ZSTD(1)),
    Start SimpleAggregateFunction(min, DateTime) CODEC(ZSTD(1)),
    End SimpleAggregateFunction(max, DateTime) CODEC(ZSTD(1))
) ENGINE = AggregatingMergeTree()
PARTITION BY toStartOfWeek(Start)
ORDER BY (TraceId)
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS `otel`.`otel_traces_trace_id_ts_mv`
TO `otel`.`otel_traces_trace_id_ts`
AS SELECT
    TraceId,
    min(toDateTime(Timestamp)) AS Start,
    max(toDateTime(Timestamp)) AS End
FROM `otel`.`otel_traces`
WHERE TraceId != ''
GROUP BY TraceId;

