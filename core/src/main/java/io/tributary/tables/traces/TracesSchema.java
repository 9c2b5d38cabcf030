package io.tributary.tables.traces;

import io.tributary.schema.Column;
import io.tributary.schema.Placement;
import io.tributary.schema.SchemaFlavor;
import io.tributary.schema.Sql;
import io.tributary.schema.TableEngine;
import io.tributary.schema.TableSchema;

import static io.tributary.schema.Columns.alias;
import static io.tributary.schema.Columns.attributes;
import static io.tributary.schema.Columns.dateTime64Nanos;
import static io.tributary.schema.Columns.lowCardinalityStringBytes;
import static io.tributary.schema.Columns.nested;
import static io.tributary.schema.Columns.nestedAttributes;
import static io.tributary.schema.Columns.nestedDateTime64Nanos;
import static io.tributary.schema.Columns.nestedLowCardinalityStringBytes;
import static io.tributary.schema.Columns.nestedStringBytes;
import static io.tributary.schema.Columns.stringBytes;
import static io.tributary.schema.Columns.uint64;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code otel_traces} and its trace-id lookup table and view, as the OpenTelemetry Collector
 * contrib {@code clickhouseexporter} creates them ({@code internal/sqltemplates/traces_table.sql},
 * {@code traces_id_ts_lookup_table.sql}, {@code traces_id_ts_lookup_mv.sql}, bloom-filter
 * indexes; {@code traces_json_table.sql} with the attribute keys columns for the JSON flavour).
 */
public final class TracesSchema {

    /** Default name of the spans table. */
    public static final String DEFAULT_TABLE = "otel_traces";

    private static final String ZSTD = "CODEC(ZSTD(1))";

    /** The spans table, map flavour. Column order is the exporter's. */
    public static final TableSchema<SpanView> MAP_TABLE = spans(SchemaFlavor.MAP);

    /**
     * The spans table, JSON flavour: attributes in {@code JSON} columns plus {@code
     * ResourceAttributesKeys} and {@code SpanAttributesKeys}; no ALIAS columns.
     */
    public static final TableSchema<SpanView> JSON_TABLE = spans(SchemaFlavor.JSON);

    private TracesSchema() {}

    /** The spans table in {@code flavor}. */
    public static TableSchema<SpanView> table(SchemaFlavor flavor) {
        return flavor == SchemaFlavor.JSON ? JSON_TABLE : MAP_TABLE;
    }

    /**
     * The spans table in {@code f}. The two exporter templates differ beyond the attribute columns:
     * in the Timestamp and Duration codecs, the map table's ALIAS {@code *AttributeItems} columns,
     * the indexes, the map table's PRIMARY KEY, and the spacing of the settings.
     */
    private static TableSchema<SpanView> spans(SchemaFlavor f) {
        boolean map = f == SchemaFlavor.MAP;
        TableSchema.Builder<SpanView> b =
                TableSchema.<SpanView>builder()
                        .column(dateTime64Nanos(
                                "Timestamp",
                                map ? "CODEC(Delta(8), ZSTD(1))" : "CODEC(Delta, ZSTD(1))",
                                SpanView::timestampNanos))
                        .column(stringBytes("TraceId", ZSTD, SpanView::writeTraceId))
                        .column(stringBytes("SpanId", ZSTD, SpanView::writeSpanId))
                        .column(stringBytes("ParentSpanId", ZSTD, SpanView::writeParentSpanId))
                        .column(stringBytes("TraceState", ZSTD, SpanView::writeTraceState))
                        .column(lowCardinalityStringBytes("SpanName", ZSTD, SpanView::writeName))
                        .column(lowCardinalityStringBytes("SpanKind", ZSTD, SpanView::writeKind))
                        .column(lowCardinalityStringBytes("ServiceName", ZSTD, SpanView::writeServiceName))
                        .columns(attributes("ResourceAttributes", ZSTD, f, SpanView::resourceAttributes))
                        .column(stringBytes("ScopeName", ZSTD, SpanView::writeScopeName).optional())
                        .column(stringBytes("ScopeVersion", ZSTD, SpanView::writeScopeVersion).optional())
                        .columns(attributes("SpanAttributes", ZSTD, f, SpanView::spanAttributes))
                        .column(uint64("Duration", map ? "CODEC(T64, ZSTD(1))" : ZSTD, SpanView::durationNanos))
                        .column(lowCardinalityStringBytes("StatusCode", ZSTD, SpanView::writeStatusCode))
                        .column(stringBytes("StatusMessage", ZSTD, SpanView::writeStatusMessage))
                        .column(
                                nested(
                                        "Events",
                                        ZSTD,
                                        SpanView::eventCount,
                                        nestedDateTime64Nanos("Timestamp", SpanView::eventTimestampNanos),
                                        nestedLowCardinalityStringBytes("Name", SpanView::writeEventName),
                                        nestedAttributes("Attributes", f, SpanView::eventAttributes)))
                        .column(
                                nested(
                                        "Links",
                                        ZSTD,
                                        SpanView::linkCount,
                                        nestedStringBytes("TraceId", SpanView::writeLinkTraceId),
                                        nestedStringBytes("SpanId", SpanView::writeLinkSpanId),
                                        nestedStringBytes("TraceState", SpanView::writeLinkTraceState),
                                        nestedAttributes("Attributes", f, SpanView::linkAttributes)));
        if (map) {
            b.column(attributeItems("ResourceAttributeItems", "ResourceAttributes"))
                    .column(attributeItems("SpanAttributeItems", "SpanAttributes"))
                    .index("idx_trace_id TraceId TYPE bloom_filter(0.001) GRANULARITY 1")
                    .index("idx_res_attr_key mapKeys(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1")
                    .index("idx_res_attr_value mapValues(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1")
                    .index("idx_span_attr_key mapKeys(SpanAttributes) TYPE bloom_filter(0.01) GRANULARITY 1")
                    .index("idx_span_attr_value mapValues(SpanAttributes) TYPE bloom_filter(0.01) GRANULARITY 1")
                    .index("idx_duration Duration TYPE minmax GRANULARITY 1")
                    .index("idx_lower_span_name lower(SpanName) TYPE tokenbf_v1(32768, 3, 0) GRANULARITY 8")
                    .primaryKey("(ServiceName, SpanName, toDateTime(Timestamp))")
                    .settings("index_granularity = 8192, ttl_only_drop_parts = 1");
        } else {
            b.index("idx_res_attr_keys ResourceAttributesKeys TYPE bloom_filter(0.01) GRANULARITY 1")
                    .index("idx_span_attr_keys SpanAttributesKeys TYPE bloom_filter(0.01) GRANULARITY 1")
                    .index("idx_duration Duration TYPE minmax GRANULARITY 1")
                    .settings("index_granularity=8192, ttl_only_drop_parts = 1");
        }
        return b.partitionBy("toDate(Timestamp)")
                .orderBy("(ServiceName, SpanName, toDateTime(Timestamp), Timestamp)")
                .ttlOn("toDateTime(Timestamp)")
                .build();
    }

    /** An ALIAS column listing a map column's entries as {@code key=value} strings. */
    private static Column<SpanView> attributeItems(String name, String mapColumn) {
        return alias(
                name,
                "Array(String)",
                "arrayMap(kv -> concat(kv.1, '=', kv.2), CAST(" + mapColumn + ", 'Array(Tuple(String, String))'))");
    }

    /**
     * Every statement that creates the traces tables for {@code table} in {@code database}, in
     * order: the spans table, then (MergeTree only) the {@code <table>_trace_id_ts} lookup table
     * and the {@code <table>_trace_id_ts_mv} materialized view that fills it.
     */
    public static List<String> createStatements(
            String database, String table, SchemaFlavor flavor, TableEngine engine, Duration ttl) {
        return createStatements(database, table, flavor, engine, ttl, "");
    }

    /** As {@link #createStatements(String, String, SchemaFlavor, TableEngine, Duration)}, with extra table settings. */
    public static List<String> createStatements(
            String database, String table, SchemaFlavor flavor, TableEngine engine, Duration ttl, String extraSettings) {
        return createStatements(database, table, flavor, Placement.of(engine), ttl, extraSettings);
    }

    /**
     * As {@link #createStatements(String, String, SchemaFlavor, TableEngine, Duration, String)},
     * {@code ON CLUSTER} when placed on one; the lookup table's engine is derived as the
     * exporter does ({@link TableEngine#lookupSql()}).
     */
    public static List<String> createStatements(
            String database, String table, SchemaFlavor flavor, Placement placement, Duration ttl, String extraSettings) {
        List<String> out = new ArrayList<>();
        out.add(table(flavor).createTableSql(database, table, placement, ttl, extraSettings));
        if (placement.engine().stores()) {
            String lookup = table + "_trace_id_ts";
            StringBuilder t = new StringBuilder();
            t.append("CREATE TABLE IF NOT EXISTS ").append(Sql.qualified(database, lookup)).append(placement.onCluster())
                    .append(" (\n")
                    .append("    TraceId String CODEC(ZSTD(1)),\n")
                    .append("    Start SimpleAggregateFunction(min, DateTime) CODEC(ZSTD(1)),\n")
                    .append("    End SimpleAggregateFunction(max, DateTime) CODEC(ZSTD(1))\n")
                    .append(") ENGINE = ").append(placement.engine().lookupSql()).append("\n")
                    .append("PARTITION BY toStartOfWeek(Start)\n")
                    .append("ORDER BY (TraceId)\n");
            String ttlSql = Sql.ttl(ttl, "toDateTime(Start)");
            if (!ttlSql.isEmpty()) {
                t.append(ttlSql).append('\n');
            }
            t.append("SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1");
            if (!extraSettings.isEmpty()) {
                t.append(", ").append(extraSettings);
            }
            t.append('\n');
            out.add(t.toString());
            out.add("CREATE MATERIALIZED VIEW IF NOT EXISTS "
                    + Sql.qualified(database, table + "_trace_id_ts_mv") + placement.onCluster() + "\n"
                    + "TO " + Sql.qualified(database, lookup) + "\n"
                    + "AS SELECT\n"
                    + "    TraceId,\n"
                    + "    min(toDateTime(Timestamp)) AS Start,\n"
                    + "    max(toDateTime(Timestamp)) AS End\n"
                    + "FROM " + Sql.qualified(database, table) + "\n"
                    + "WHERE TraceId != ''\n"
                    + "GROUP BY TraceId\n");
        }
        return out;
    }
}
