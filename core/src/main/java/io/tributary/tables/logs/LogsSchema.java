package io.tributary.tables.logs;

import io.tributary.schema.SchemaFlavor;
import io.tributary.schema.Sql;
import io.tributary.schema.TableSchema;

import static io.tributary.schema.Columns.attributes;
import static io.tributary.schema.Columns.dateTime64Nanos;
import static io.tributary.schema.Columns.lowCardinalityStringBytes;
import static io.tributary.schema.Columns.materialized;
import static io.tributary.schema.Columns.stringBytes;
import static io.tributary.schema.Columns.uint8;

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
    public static final TableSchema<LogView> MAP_TABLE = mapTable();

    /** The log records table, JSON flavour. */
    public static final TableSchema<LogView> JSON_TABLE =
            TableSchema.<LogView>builder()
                    .column(dateTime64Nanos("Timestamp", "CODEC(Delta(8), ZSTD(1))", LogView::timestampNanos))
                    .column(stringBytes("TraceId", ZSTD, LogView::writeTraceId))
                    .column(stringBytes("SpanId", ZSTD, LogView::writeSpanId))
                    .column(uint8("TraceFlags", "", LogView::traceFlags))
                    .column(lowCardinalityStringBytes("SeverityText", ZSTD, LogView::writeSeverityText))
                    .column(uint8("SeverityNumber", "", LogView::severityNumber))
                    .column(lowCardinalityStringBytes("ServiceName", ZSTD, LogView::writeServiceName))
                    .column(stringBytes("Body", ZSTD, LogView::writeBody))
                    .column(lowCardinalityStringBytes("ResourceSchemaUrl", ZSTD, LogView::writeResourceSchemaUrl).optional())
                    .columns(attributes("ResourceAttributes", ZSTD, SchemaFlavor.JSON, LogView::resourceAttributes))
                    .column(lowCardinalityStringBytes("ScopeSchemaUrl", ZSTD, LogView::writeScopeSchemaUrl).optional())
                    .column(stringBytes("ScopeName", ZSTD, LogView::writeScopeName).optional())
                    .column(lowCardinalityStringBytes("ScopeVersion", ZSTD, LogView::writeScopeVersion).optional())
                    .columns(attributes("ScopeAttributes", ZSTD, SchemaFlavor.JSON, LogView::scopeAttributes))
                    .columns(attributes("LogAttributes", ZSTD, SchemaFlavor.JSON, LogView::logAttributes))
                    .column(stringBytes("EventName", ZSTD, LogView::writeEventName).optional())
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
    public static TableSchema<LogView> table(SchemaFlavor flavor) {
        return flavor == SchemaFlavor.JSON ? JSON_TABLE : MAP_TABLE;
    }

    private static TableSchema<LogView> mapTable() {
        TableSchema.Builder<LogView> b =
                TableSchema.<LogView>builder()
                        .column(dateTime64Nanos("Timestamp", "CODEC(Delta(8), ZSTD(1))", LogView::timestampNanos)
                                .comment("Event timestamp with nanosecond precision"))
                        .column(stringBytes("TraceId", ZSTD, LogView::writeTraceId).comment("W3C trace identifier"))
                        .column(stringBytes("SpanId", ZSTD, LogView::writeSpanId).comment("W3C span identifier"))
                        .column(uint8("TraceFlags", "", LogView::traceFlags).comment("W3C trace flags"))
                        .column(lowCardinalityStringBytes("SeverityText", ZSTD, LogView::writeSeverityText)
                                .comment("Log severity as text"))
                        .column(uint8("SeverityNumber", "", LogView::severityNumber)
                                .comment("Log severity as number (1-24)"))
                        .column(lowCardinalityStringBytes("ServiceName", ZSTD, LogView::writeServiceName)
                                .comment("Service that emitted the log"))
                        .column(stringBytes("Body", ZSTD, LogView::writeBody).comment("Log message body"))
                        .column(lowCardinalityStringBytes("ResourceSchemaUrl", ZSTD, LogView::writeResourceSchemaUrl)
                                .comment("Schema URL for the resource").optional())
                        .column(attributes("ResourceAttributes", ZSTD, SchemaFlavor.MAP, LogView::resourceAttributes)
                                .get(0).comment("Resource attributes as key-value pairs"))
                        .column(lowCardinalityStringBytes("ScopeSchemaUrl", ZSTD, LogView::writeScopeSchemaUrl)
                                .comment("Schema URL for the instrumentation scope").optional())
                        .column(stringBytes("ScopeName", ZSTD, LogView::writeScopeName).comment("Instrumentation scope name")
                                .optional())
                        .column(lowCardinalityStringBytes("ScopeVersion", ZSTD, LogView::writeScopeVersion)
                                .comment("Instrumentation scope version").optional())
                        .column(attributes("ScopeAttributes", ZSTD, SchemaFlavor.MAP, LogView::scopeAttributes)
                                .get(0).comment("Instrumentation scope attributes").optional())
                        .column(attributes("LogAttributes", ZSTD, SchemaFlavor.MAP, LogView::logAttributes)
                                .get(0).comment("Log record attributes"))
                        .column(stringBytes("EventName", ZSTD, LogView::writeEventName)
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
