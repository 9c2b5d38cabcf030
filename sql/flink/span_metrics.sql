-- Span-derived RED metrics in event time: what the collector's spanmetrics connector makes of spans,
-- written where the connector + clickhouseexporter pipeline writes it, so Grafana and HyperDX chart
-- them as they chart the connector's.
--
--   bin/tributary sql sql/flink/span_metrics.sql [--kafka.topics.traces T] [--kafka.bounded true]
--       [--span-metrics.window-seconds 60] [--span-metrics.out-of-orderness-seconds 10]
--       [--span-metrics.idle-timeout-seconds 30] [--span-metrics.watermark-emit on-periodic|on-event] [job keys ...]
--
-- Kafka traces topic (raw OTLP records, protobuf or OTLP/JSON) -> one row per span (format 'otlp',
-- the rows OTLP_SPANS gives) -> tumbling event-time windows on the span start time, watermark with
-- bounded out-of-orderness -> per (service.name, span.name, span.kind, status.code):
--   otel_metrics_sum        traces.span.metrics.calls     monotonic Sum, delta temporality per window
--   otel_metrics_histogram  traces.span.metrics.duration  explicit histogram in ms, the connector's
--                                                         default buckets, delta temporality per window
-- Each row covers one window: StartTimeUnix its start, TimeUnix its end. Spans whose resource has no
-- service.name are left out, as the connector leaves them out; a span ending before it starts lasts 0 ms.
-- Spans later than the watermark are dropped by the window and counted by Flink
-- (numLateRecordsDropped of the window aggregate).
--
-- The spans come through the 'otlp' format rather than raw bytes and a LATERAL TABLE(OTLP_SPANS(...))
-- because Flink SQL declares watermarks only on a table's own columns, never on a table function's
-- output; the format gives the same rows, from the same code.

-- The connector's default explicit buckets in ms (registered already by bin/tributary sql; for Flink's
-- SQL client, add udf/target/tributary-udf.jar).
CREATE TEMPORARY SYSTEM FUNCTION IF NOT EXISTS HISTOGRAM_BUCKETS AS 'io.tributary.udf.HistogramBuckets';

-- windows on UTC wall clocks: the window bounds written as instants are exact whatever the JVM's zone
SET 'table.local-time-zone' = 'UTC';
SET 'table.exec.source.idle-timeout' = '${span-metrics.idle-timeout-seconds:-30} s';

CREATE TEMPORARY TABLE spans (
  `Timestamp` TIMESTAMP_LTZ(9),
  ServiceName STRING,
  ResourceAttributes MAP<STRING, STRING>,
  SpanName STRING,
  SpanKind STRING,
  StatusCode STRING,
  Duration BIGINT,
  event_time AS CAST(`Timestamp` AS TIMESTAMP_LTZ(3)),
  WATERMARK FOR event_time AS event_time - INTERVAL '${span-metrics.out-of-orderness-seconds:-10}' SECOND
) WITH (
  'connector' = 'kafka',
  ${kafka.topic-option.traces},
  'properties.bootstrap.servers' = '${kafka.bootstrap-servers}',
  'properties.group.id' = '${kafka.group-id}-span-metrics',
  'properties.auto.offset.reset' = 'earliest',
  'scan.startup.mode' = '${kafka.scan.startup.mode}',
  'scan.bounded.mode' = '${kafka.scan.bounded.mode}',
  'scan.watermark.emit.strategy' = '${span-metrics.watermark-emit:-on-periodic}',
  'format' = 'otlp',
  'otlp.signal' = 'traces'${kafka.client-options}
);

CREATE TEMPORARY TABLE metrics_sum (
  ResourceAttributes MAP<STRING, STRING>,
  ScopeName STRING,
  ServiceName STRING,
  MetricName STRING,
  MetricDescription STRING,
  MetricUnit STRING,
  Attributes MAP<STRING, STRING>,
  StartTimeUnix TIMESTAMP_LTZ(0),
  TimeUnix TIMESTAMP_LTZ(0),
  `Value` DOUBLE,
  Flags BIGINT,
  AggregationTemporality INT,
  IsMonotonic BOOLEAN
) WITH (
  'connector' = 'jdbc',
  'url' = '${clickhouse.jdbc-url}',
  'table-name' = '${clickhouse.tables.metrics.sum}',
  'sink.buffer-flush.max-rows' = '10000',
  'sink.buffer-flush.interval' = '5 s'
);

CREATE TEMPORARY TABLE metrics_histogram (
  ResourceAttributes MAP<STRING, STRING>,
  ScopeName STRING,
  ServiceName STRING,
  MetricName STRING,
  MetricDescription STRING,
  MetricUnit STRING,
  Attributes MAP<STRING, STRING>,
  StartTimeUnix TIMESTAMP_LTZ(0),
  TimeUnix TIMESTAMP_LTZ(0),
  `Count` BIGINT,
  `Sum` DOUBLE,
  BucketCounts ARRAY<BIGINT>,
  ExplicitBounds ARRAY<DOUBLE>,
  Flags BIGINT,
  `Min` DOUBLE,
  `Max` DOUBLE,
  AggregationTemporality INT
) WITH (
  'connector' = 'jdbc',
  'url' = '${clickhouse.jdbc-url}',
  'table-name' = '${clickhouse.tables.metrics.histogram}',
  'sink.buffer-flush.max-rows' = '10000',
  'sink.buffer-flush.interval' = '5 s'
);

-- The spans the connector counts, with their duration in milliseconds.
CREATE TEMPORARY VIEW counted_spans AS
SELECT *, CAST(GREATEST(Duration, 0) AS DOUBLE) / 1e6 AS ms
FROM spans
WHERE ResourceAttributes['service.name'] IS NOT NULL;

-- One row per window and series: calls, the duration's sum and its bucket counts.
CREATE TEMPORARY VIEW span_windows AS
SELECT
  window_start,
  window_end,
  ServiceName,
  SpanName,
  SpanKind,
  StatusCode,
  COUNT(*) AS calls,
  SUM(ms) AS sum_ms,
  HISTOGRAM_BUCKETS(ms) AS bucket_counts
FROM TABLE(TUMBLE(
  TABLE counted_spans,
  DESCRIPTOR(event_time),
  INTERVAL '${span-metrics.window-seconds:-60}' SECOND))
GROUP BY window_start, window_end, ServiceName, SpanName, SpanKind, StatusCode;

EXECUTE STATEMENT SET
BEGIN

INSERT INTO metrics_sum
SELECT
  MAP['service.name', ServiceName],
  'spanmetricsconnector',
  ServiceName,
  'traces.span.metrics.calls',
  '',
  '',
  MAP['service.name', ServiceName, 'span.name', SpanName,
      'span.kind', 'SPAN_KIND_' || UPPER(SpanKind), 'status.code', 'STATUS_CODE_' || UPPER(StatusCode)],
  CAST(window_start AS TIMESTAMP_LTZ(0)),
  CAST(window_end AS TIMESTAMP_LTZ(0)),
  CAST(calls AS DOUBLE),
  CAST(0 AS BIGINT),
  1, -- AGGREGATION_TEMPORALITY_DELTA
  TRUE
FROM span_windows;

INSERT INTO metrics_histogram
SELECT
  MAP['service.name', ServiceName],
  'spanmetricsconnector',
  ServiceName,
  'traces.span.metrics.duration',
  '',
  'ms',
  MAP['service.name', ServiceName, 'span.name', SpanName,
      'span.kind', 'SPAN_KIND_' || UPPER(SpanKind), 'status.code', 'STATUS_CODE_' || UPPER(StatusCode)],
  CAST(window_start AS TIMESTAMP_LTZ(0)),
  CAST(window_end AS TIMESTAMP_LTZ(0)),
  calls,
  sum_ms,
  bucket_counts,
  ARRAY[CAST(2 AS DOUBLE), CAST(4 AS DOUBLE), CAST(6 AS DOUBLE), CAST(8 AS DOUBLE), CAST(10 AS DOUBLE), CAST(50 AS DOUBLE), CAST(100 AS DOUBLE), CAST(200 AS DOUBLE), CAST(400 AS DOUBLE), CAST(800 AS DOUBLE), CAST(1000 AS DOUBLE), CAST(1400 AS DOUBLE), CAST(2000 AS DOUBLE), CAST(5000 AS DOUBLE), CAST(10000 AS DOUBLE), CAST(15000 AS DOUBLE)],
  CAST(0 AS BIGINT),
  CAST(0 AS DOUBLE), -- the connector sets no Min/Max on explicit histograms; the exporter writes 0
  CAST(0 AS DOUBLE),
  1
FROM span_windows;

END;
