-- The same spans through raw bytes and OTLP_SPANS into a blackhole: the table function's cost,
-- beside the 'otlp' format's (span_decode_only.sql).
CREATE TEMPORARY TABLE records (`value` BYTES) WITH (
  'connector' = 'kafka',
  'topic' = '${kafka.topics.traces}',
  'properties.bootstrap.servers' = '${kafka.bootstrap-servers}',
  'properties.group.id' = '${kafka.group-id}-function-only',
  'scan.startup.mode' = '${kafka.scan.startup.mode}',
  'scan.bounded.mode' = '${kafka.scan.bounded.mode}',
  'format' = 'raw'
);

CREATE TEMPORARY TABLE sink (d BIGINT, s STRING) WITH ('connector' = 'blackhole');

INSERT INTO sink
SELECT s.Duration, s.ServiceName FROM records, LATERAL TABLE(OTLP_SPANS(`value`)) AS s
WHERE s.ResourceAttributes['service.name'] IS NOT NULL;
