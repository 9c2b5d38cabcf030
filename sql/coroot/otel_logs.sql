-- Coroot flavour (clickhouse.schema = coroot) of otel_logs: the tables and materialized views Coroot's migration
-- creates for logs (ch/client.go in coroot/coroot at 370a33f), on one server, with Coroot's default TTL of 7 days.
-- Generated from the job's table definitions (io.tributary.tables.coroot) by
--     bin/tributary schema print --signals logs --clickhouse.schema coroot > sql/coroot/otel_logs.sql   (then restore this header)
-- SchemaDriftTest fails when this file and the code disagree.
CREATE DATABASE IF NOT EXISTS `otel`;

CREATE TABLE IF NOT EXISTS `otel`.`otel_logs` (
    Timestamp DateTime64(9) CODEC(Delta, ZSTD(1)),
    TraceId String CODEC(ZSTD(1)),
    SpanId String CODEC(ZSTD(1)),
    TraceFlags UInt32 CODEC(ZSTD(1)),
    SeverityText LowCardinality(String) CODEC(ZSTD(1)),
    SeverityNumber Int32 CODEC(ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Body String CODEC(ZSTD(1)),
    ResourceAttributes Map(LowCardinality(String), String) CODEC(ZSTD(1)),
    LogAttributes Map(LowCardinality(String), String) CODEC(ZSTD(1)),
    INDEX idx_trace_id TraceId TYPE bloom_filter(0.001) GRANULARITY 1,
    INDEX idx_res_attr_key mapKeys(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_res_attr_value mapValues(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_log_attr_key mapKeys(LogAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_log_attr_value mapValues(LogAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_body Body TYPE tokenbf_v1(32768, 3, 0) GRANULARITY 1
) ENGINE = MergeTree()
PARTITION BY toDate(Timestamp)
ORDER BY (ServiceName, SeverityText, toUnixTimestamp(Timestamp), TraceId)
TTL toDateTime(Timestamp) + toIntervalDay(7)
SETTINGS index_granularity=8192, ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS `otel`.`otel_logs_service_name_severity_text` (
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    SeverityText LowCardinality(String) CODEC(ZSTD(1)),
    LastSeen DateTime64(9) CODEC(Delta, ZSTD(1))
) ENGINE = ReplacingMergeTree()
PRIMARY KEY (ServiceName, SeverityText)
TTL toDateTime(LastSeen) + toIntervalDay(7)
PARTITION BY toDate(LastSeen);

CREATE MATERIALIZED VIEW IF NOT EXISTS `otel`.`otel_logs_service_name_severity_text_mv` TO `otel`.`otel_logs_service_name_severity_text` AS
SELECT ServiceName, SeverityText, max(Timestamp) AS LastSeen FROM `otel`.`otel_logs` GROUP BY ServiceName, SeverityText;

