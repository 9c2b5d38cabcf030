package io.tributary.schema;

import io.tributary.config.Option;
import io.tributary.config.Signal;
import io.tributary.config.TributaryConfig;
import io.tributary.config.TributaryOptions;

/**
 * Every table Tributary writes. The ordinal is the table's index in the sink ({@code
 * EncodedRows.table}); the sink keeps no state, so the order may change between releases.
 */
public enum OtelTable {
    TRACES(Signal.TRACES, TributaryOptions.CLICKHOUSE_TABLES_TRACES),
    LOGS(Signal.LOGS, TributaryOptions.CLICKHOUSE_TABLES_LOGS),
    METRICS_GAUGE(Signal.METRICS, TributaryOptions.CLICKHOUSE_TABLES_METRICS_GAUGE),
    METRICS_SUM(Signal.METRICS, TributaryOptions.CLICKHOUSE_TABLES_METRICS_SUM),
    METRICS_HISTOGRAM(Signal.METRICS, TributaryOptions.CLICKHOUSE_TABLES_METRICS_HISTOGRAM),
    METRICS_EXPONENTIAL_HISTOGRAM(
            Signal.METRICS, TributaryOptions.CLICKHOUSE_TABLES_METRICS_EXPONENTIAL_HISTOGRAM),
    METRICS_SUMMARY(Signal.METRICS, TributaryOptions.CLICKHOUSE_TABLES_METRICS_SUMMARY);

    private final Signal signal;
    private final Option<String> nameOption;

    OtelTable(Signal signal, Option<String> nameOption) {
        this.signal = signal;
        this.nameOption = nameOption;
    }

    public Signal signal() {
        return signal;
    }

    /** The option that names the table. */
    public Option<String> nameOption() {
        return nameOption;
    }

    /** The table's name under {@code config}. */
    public String name(TributaryConfig config) {
        return config.get(nameOption);
    }

    /** The columns and DDL of this table in {@code flavor}. */
    public TableSchema<?> schema(SchemaFlavor flavor) {
        switch (this) {
            case TRACES:
                return TracesSchema.table(flavor);
            case LOGS:
                return LogsSchema.table(flavor);
            case METRICS_GAUGE:
                return MetricsSchema.gauge(flavor);
            case METRICS_SUM:
                return MetricsSchema.sum(flavor);
            case METRICS_HISTOGRAM:
                return MetricsSchema.histogram(flavor);
            case METRICS_EXPONENTIAL_HISTOGRAM:
                return MetricsSchema.exponentialHistogram(flavor);
            default:
                return MetricsSchema.summary(flavor);
        }
    }
}
