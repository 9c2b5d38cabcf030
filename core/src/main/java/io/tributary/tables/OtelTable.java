package io.tributary.tables;

import io.tributary.otlp.Signal;
import io.tributary.schema.SchemaFlavor;
import io.tributary.schema.TableSchema;
import io.tributary.tables.coroot.CorootSchema;
import io.tributary.tables.logs.LogsSchema;
import io.tributary.tables.metrics.MetricsSchema;
import io.tributary.tables.profiles.ProfilesSchema;
import io.tributary.tables.traces.TracesSchema;

/**
 * Every table Tributary writes. The ordinal is the table's index in the sink ({@code
 * EncodedRows.table}); checkpointed batches name their table by the constant's name, never its
 * ordinal, so the order may change between releases but a name may not.
 */
public enum OtelTable {
    TRACES(Signal.TRACES),
    LOGS(Signal.LOGS),
    METRICS_GAUGE(Signal.METRICS),
    METRICS_SUM(Signal.METRICS),
    METRICS_HISTOGRAM(Signal.METRICS),
    METRICS_EXPONENTIAL_HISTOGRAM(Signal.METRICS),
    METRICS_SUMMARY(Signal.METRICS),
    PROFILES(Signal.PROFILES);

    private final Signal signal;

    OtelTable(Signal signal) {
        this.signal = signal;
    }

    public Signal signal() {
        return signal;
    }

    /**
     * The columns and DDL of this table in {@code flavor}. Coroot's flavour has tables for traces
     * and logs only (the configuration refuses the other signals with it); their tables are the
     * map flavour's there, never written.
     */
    public TableSchema<?> schema(SchemaFlavor flavor) {
        if (flavor == SchemaFlavor.COROOT && (this == TRACES || this == LOGS)) {
            return this == TRACES ? CorootSchema.TRACES : CorootSchema.LOGS;
        }
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
            case METRICS_SUMMARY:
                return MetricsSchema.summary(flavor);
            default:
                return ProfilesSchema.table(flavor);
        }
    }
}
