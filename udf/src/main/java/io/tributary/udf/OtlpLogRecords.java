package io.tributary.udf;

import io.tributary.otlp.Signal;

/**
 * {@code OTLP_LOG_RECORDS(record BYTES)}: the log records of one Kafka record of OTLP logs, one row
 * each, with the columns and values of the exporter's {@code otel_logs} ({@code Timestamp
 * TIMESTAMP_LTZ(9)}, {@code SeverityText}, {@code SeverityNumber SMALLINT}, {@code Body}, {@code
 * LogAttributes MAP<STRING, STRING>}, ...).
 *
 * <pre>{@code
 * CREATE TEMPORARY SYSTEM FUNCTION OTLP_LOG_RECORDS AS 'io.tributary.udf.OtlpLogRecords';
 * SELECT l.ServiceName, count(*) AS errors
 * FROM otlp_logs_topic, LATERAL TABLE(OTLP_LOG_RECORDS(`value`)) AS l
 * WHERE l.SeverityNumber >= 17
 * GROUP BY l.ServiceName;
 * }</pre>
 */
public final class OtlpLogRecords extends OtlpTableFunction {
    private static final long serialVersionUID = 1L;

    public OtlpLogRecords() {
        super(Signal.LOGS);
    }
}
