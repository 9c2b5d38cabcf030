package io.tributary.tables;

import static io.tributary.tables.Columns.attributes;
import static io.tributary.tables.Columns.dateTime64Nanos;
import static io.tributary.tables.Columns.lowCardinalityString;
import static io.tributary.tables.Columns.materialized;
import static io.tributary.tables.Columns.string;
import static io.tributary.tables.Columns.uint8;

/**
 * {@code otel_logs} as the collector contrib {@code clickhouseexporter} creates it: {@code
 * internal/sqltemplates/logs_table.sql} of v0.151+ (column comments, the eight MATERIALIZED
 * {@code __otel_materialized_*} columns, bloom-filter indexes, ordered by five-minute buckets) for
 * the map flavour, {@code logs_json_table.sql} with its attribute keys columns for the JSON flavour.
 */
public final class LogsSchema {

    /** Default name of the log records table. */
    public static final String DEFAULT_TABLE = "otel_logs";

    private static final String ZSTD = "CODEC(ZSTD(1))";

    /** The resource attributes the map table materializes into their own columns. */
    private static final String[] MATERIALIZED_RESOURCE_ATTRIBUTES = {
        "k8s.cluster.name",
        "k8s.container.name",
        "k8s.deployment.name",
        "k8s.namespace.name",
        "k8s.node.name",
        "k8s.pod.name",
        "k8s.pod.uid",
        "deployment.environment.name"
    };

    /** The log records table, map flavour. */
    public static final TableSchema<LogRow> MAP_TABLE = mapTable();

    /** The log records table, JSON flavour. */
    public static final TableSchema<LogRow> JSON_TABLE =
            TableSchema.<LogRow>builder()
                    .column(dateTime64Nanos("Timestamp", "CODEC(Delta(8), ZSTD(1))", LogRow::timestampNanos))
                    .column(string("TraceId", ZSTD, LogRow::traceId))
                    .column(string("SpanId", ZSTD, LogRow::spanId))
                    .column(uint8("TraceFlags", "", LogRow::traceFlags))
                    .column(lowCardinalityString("SeverityText", ZSTD, LogRow::severityText))
                    .column(uint8("SeverityNumber", "", LogRow::severityNumber))
                    .column(lowCardinalityString("ServiceName", ZSTD, LogRow::serviceName))
                    .column(string("Body", ZSTD, LogRow::body))
                    .column(lowCardinalityString("ResourceSchemaUrl", ZSTD, LogRow::resourceSchemaUrl).optional())
                    .columns(attributes("ResourceAttributes", ZSTD, SchemaFlavor.JSON, LogRow::resourceAttributes))
                    .column(lowCardinalityString("ScopeSchemaUrl", ZSTD, LogRow::scopeSchemaUrl).optional())
                    .column(string("ScopeName", ZSTD, LogRow::scopeName).optional())
                    .column(lowCardinalityString("ScopeVersion", ZSTD, LogRow::scopeVersion).optional())
                    .columns(attributes("ScopeAttributes", ZSTD, SchemaFlavor.JSON, LogRow::scopeAttributes))
                    .columns(attributes("LogAttributes", ZSTD, SchemaFlavor.JSON, LogRow::logAttributes))
                    .column(string("EventName", ZSTD, LogRow::eventName).optional())
                    .index("idx_res_attr_keys ResourceAttributesKeys TYPE bloom_filter(0.01) GRANULARITY 1")
                    .index("idx_scope_attr_keys ScopeAttributesKeys TYPE bloom_filter(0.01) GRANULARITY 1")
                    .index("idx_log_attr_keys LogAttributesKeys TYPE bloom_filter(0.01) GRANULARITY 1")
                    .index("idx_body Body TYPE tokenbf_v1(32768, 3, 0) GRANULARITY 8")
                    .partitionBy("toDate(Timestamp)")
                    .primaryKey("(ServiceName, toDateTime(Timestamp))")
                    .orderBy("(ServiceName, toDateTime(Timestamp), Timestamp)")
                    .ttlOn("toDateTime(Timestamp)")
                    .settings("index_granularity = 8192, ttl_only_drop_parts = 1")
                    .build();

    private LogsSchema() {}

    /** The log records table in {@code flavor}. */
    public static TableSchema<LogRow> table(SchemaFlavor flavor) {
        return flavor == SchemaFlavor.JSON ? JSON_TABLE : MAP_TABLE;
    }

    private static TableSchema<LogRow> mapTable() {
        TableSchema.Builder<LogRow> b =
                TableSchema.<LogRow>builder()
                        .column(dateTime64Nanos("Timestamp", "CODEC(Delta(8), ZSTD(1))", LogRow::timestampNanos)
                                .comment("Event timestamp with nanosecond precision"))
                        .column(string("TraceId", ZSTD, LogRow::traceId).comment("W3C trace identifier"))
                        .column(string("SpanId", ZSTD, LogRow::spanId).comment("W3C span identifier"))
                        .column(uint8("TraceFlags", "", LogRow::traceFlags).comment("W3C trace flags"))
                        .column(lowCardinalityString("SeverityText", ZSTD, LogRow::severityText)
                                .comment("Log severity as text"))
                        .column(uint8("SeverityNumber", "", LogRow::severityNumber)
                                .comment("Log severity as number (1-24)"))
                        .column(lowCardinalityString("ServiceName", ZSTD, LogRow::serviceName)
                                .comment("Service that emitted the log"))
                        .column(string("Body", ZSTD, LogRow::body).comment("Log message body"))
                        .column(lowCardinalityString("ResourceSchemaUrl", ZSTD, LogRow::resourceSchemaUrl)
                                .comment("Schema URL for the resource").optional())
                        .column(attributes("ResourceAttributes", ZSTD, SchemaFlavor.MAP, LogRow::resourceAttributes)
                                .get(0).comment("Resource attributes as key-value pairs"))
                        .column(lowCardinalityString("ScopeSchemaUrl", ZSTD, LogRow::scopeSchemaUrl)
                                .comment("Schema URL for the instrumentation scope").optional())
                        .column(string("ScopeName", ZSTD, LogRow::scopeName).comment("Instrumentation scope name")
                                .optional())
                        .column(lowCardinalityString("ScopeVersion", ZSTD, LogRow::scopeVersion)
                                .comment("Instrumentation scope version").optional())
                        .column(attributes("ScopeAttributes", ZSTD, SchemaFlavor.MAP, LogRow::scopeAttributes)
                                .get(0).comment("Instrumentation scope attributes").optional())
                        .column(attributes("LogAttributes", ZSTD, SchemaFlavor.MAP, LogRow::logAttributes)
                                .get(0).comment("Log record attributes"))
                        .column(string("EventName", ZSTD, LogRow::eventName)
                                .comment("Event name for log records representing events").optional());
        for (String attr : MATERIALIZED_RESOURCE_ATTRIBUTES) {
            b.column(materialized(
                    "__otel_materialized_" + attr,
                    "LowCardinality(String)",
                    ZSTD,
                    "ResourceAttributes[" + Sql.string(attr) + "]"));
        }
        return b.index("idx_trace_id TraceId TYPE bloom_filter(0.001) GRANULARITY 1")
                .index("idx_res_attr_key mapKeys(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1")
                .index("idx_res_attr_value mapValues(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1")
                .index("idx_scope_attr_key mapKeys(ScopeAttributes) TYPE bloom_filter(0.01) GRANULARITY 1")
                .index("idx_scope_attr_value mapValues(ScopeAttributes) TYPE bloom_filter(0.01) GRANULARITY 1")
                .index("idx_log_attr_key mapKeys(LogAttributes) TYPE bloom_filter(0.01) GRANULARITY 1")
                .index("idx_log_attr_value mapValues(LogAttributes) TYPE bloom_filter(0.01) GRANULARITY 1")
                .index("idx_lower_body lower(Body) TYPE tokenbf_v1(32768, 3, 0) GRANULARITY 8")
                .partitionBy("toDate(Timestamp)")
                .orderBy("(toStartOfFiveMinutes(Timestamp), ServiceName, Timestamp)")
                .ttlOn("toDateTime(Timestamp)")
                .settings("index_granularity = 8192, ttl_only_drop_parts = 1")
                .build();
    }
}
