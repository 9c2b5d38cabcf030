-- The first half of span_metrics.sql alone: the Kafka topic through the 'otlp' format, the same
-- columns, into a blackhole. What span_metrics.sql costs beyond it is its windows and its writes.
CREATE TEMPORARY TABLE spans (
  `Timestamp` TIMESTAMP_LTZ(9),
  ServiceName STRING,
  ResourceAttributes MAP<STRING, STRING>,
  SpanName STRING,
  SpanKind STRING,
  StatusCode STRING,
  Duration BIGINT
) WITH (
  'connector' = 'kafka',
  'topic' = '${kafka.topics.traces}',
  'properties.bootstrap.servers' = '${kafka.bootstrap-servers}',
  'properties.group.id' = '${kafka.group-id}-decode-only',
  'scan.startup.mode' = '${kafka.scan.startup.mode}',
  'scan.bounded.mode' = '${kafka.scan.bounded.mode}',
  'format' = 'otlp',
  'otlp.signal' = 'traces'
);

CREATE TEMPORARY TABLE sink (d BIGINT, s STRING) WITH ('connector' = 'blackhole');

INSERT INTO sink SELECT Duration, ServiceName FROM spans WHERE ResourceAttributes['service.name'] IS NOT NULL;
