-- ClickHouse queries over otel_profiles (and otel_traces), as docs/sql.md shows them; OtlpFunctionsITCase
-- runs them over the job's rows. Parameters in ClickHouse's {name:Type} form:
--   clickhouse-client --param_service=checkout --param_sample_type=cpu \
--     --param_from_time='2026-12-02 10:00:00' --param_to_time='2026-12-02 10:15:00' \
--     --param_min_duration_ms=500 --queries-file sql/queries/profiles.sql
-- A sample's value is the sum of its Values, or, with timestamps only, one per timestamp (the
-- OTLP Sample's shapes). FunctionNames is leaf first; a frame without a symbol has the name ''.

-- A flame graph of one service: folded stacks, root first, frames joined by ';', with their total
-- (flamegraph.pl, speedscope and Grafana's flame graph read this form).
SELECT
    arrayStringConcat(arrayReverse(arrayMap(f -> if(f = '', '[unknown]', f), FunctionNames)), ';') AS stack,
    sum(if(empty(`Values`), toInt64(length(TimestampsUnixNano)), arraySum(`Values`))) AS value
FROM otel.otel_profiles
WHERE ServiceName = {service:String}
  AND SampleType = {sample_type:String}
  AND Timestamp >= {from_time:DateTime64(9)} AND Timestamp < {to_time:DateTime64(9)}
GROUP BY stack
ORDER BY value DESC;

-- Where the slow spans' time went, down to the function: the samples the profiler linked to spans
-- of the service slower than the threshold, from profiles overlapping each span, by leaf function
-- (group by the stack above instead for their flame graph).
WITH slow AS (
    SELECT TraceId, SpanId, min(Timestamp) AS span_start,
           max(addNanoseconds(Timestamp, toInt64(Duration))) AS span_end
    FROM otel.otel_traces
    WHERE ServiceName = {service:String}
      AND Timestamp >= {from_time:DateTime64(9)} AND Timestamp < {to_time:DateTime64(9)}
      AND Duration > {min_duration_ms:UInt64} * 1000000
    GROUP BY TraceId, SpanId
)
SELECT
    p.FunctionNames[1] AS leaf,
    sum(if(empty(p.`Values`), toInt64(length(p.TimestampsUnixNano)), arraySum(p.`Values`))) AS value,
    count() AS samples,
    uniqExact(p.TraceId, p.SpanId) AS spans
FROM otel.otel_profiles AS p
INNER JOIN slow AS s ON p.TraceId = s.TraceId AND p.SpanId = s.SpanId
WHERE p.SampleType = {sample_type:String}
  AND p.Timestamp >= {from_time:DateTime64(9)} - INTERVAL 1 MINUTE  -- profiles last less than a minute
  AND p.Timestamp <= s.span_end AND addNanoseconds(p.Timestamp, toInt64(p.DurationNano)) >= s.span_start
GROUP BY leaf
ORDER BY value DESC
LIMIT 50;
