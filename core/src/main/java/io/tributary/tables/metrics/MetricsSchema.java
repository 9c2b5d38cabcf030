package io.tributary.tables.metrics;

import io.tributary.schema.Column;
import io.tributary.schema.SchemaFlavor;
import io.tributary.schema.TableSchema;

import static io.tributary.schema.Columns.attributes;
import static io.tributary.schema.Columns.bool;
import static io.tributary.schema.Columns.dateTimeFromNanos;
import static io.tributary.schema.Columns.float64;
import static io.tributary.schema.Columns.float64ArrayBytes;
import static io.tributary.schema.Columns.int32;
import static io.tributary.schema.Columns.lowCardinalityStringBytes;
import static io.tributary.schema.Columns.nested;
import static io.tributary.schema.Columns.nestedAttributes;
import static io.tributary.schema.Columns.nestedDateTimeFromNanos;
import static io.tributary.schema.Columns.nestedFloat64;
import static io.tributary.schema.Columns.nestedStringBytes;
import static io.tributary.schema.Columns.stringBytes;
import static io.tributary.schema.Columns.uint32;
import static io.tributary.schema.Columns.uint64;
import static io.tributary.schema.Columns.uint64ArrayBytes;

/**
 * The five {@code otel_metrics_*} tables as the collector contrib {@code clickhouseexporter}
 * creates them ({@code internal/sqltemplates/metrics_*_table.sql} of v0.157+: {@code DateTime}
 * times, {@code LowCardinality} metric names, a minmax time index, ordered by hour and attribute
 * hash). The exporter has no JSON flavour for metrics; ours applies its logs/traces JSON rules
 * (attributes as {@code JSON} plus {@code *AttributesKeys} with bloom-filter indexes, as proposed
 * in contrib PR #48145) to the same tables.
 */
public final class MetricsSchema {

    private static final String ZSTD = "CODEC(ZSTD(1))";
    private static final String DELTA_ZSTD = "CODEC(Delta, ZSTD(1))";
    private static final String SETTINGS = "index_granularity=8192, ttl_only_drop_parts = 1";

    private static final TableSchema<MetricView> GAUGE_MAP = gauge0(SchemaFlavor.MAP);
    private static final TableSchema<MetricView> GAUGE_JSON = gauge0(SchemaFlavor.JSON);
    private static final TableSchema<MetricView> SUM_MAP = sum0(SchemaFlavor.MAP);
    private static final TableSchema<MetricView> SUM_JSON = sum0(SchemaFlavor.JSON);
    private static final TableSchema<MetricView> HISTOGRAM_MAP = histogram0(SchemaFlavor.MAP);
    private static final TableSchema<MetricView> HISTOGRAM_JSON = histogram0(SchemaFlavor.JSON);
    private static final TableSchema<MetricView> EXP_HISTOGRAM_MAP = exponentialHistogram0(SchemaFlavor.MAP);
    private static final TableSchema<MetricView> EXP_HISTOGRAM_JSON = exponentialHistogram0(SchemaFlavor.JSON);
    private static final TableSchema<MetricView> SUMMARY_MAP = summary0(SchemaFlavor.MAP);
    private static final TableSchema<MetricView> SUMMARY_JSON = summary0(SchemaFlavor.JSON);

    private MetricsSchema() {}

    public static TableSchema<MetricView> gauge(SchemaFlavor f) {
        return f == SchemaFlavor.JSON ? GAUGE_JSON : GAUGE_MAP;
    }

    public static TableSchema<MetricView> sum(SchemaFlavor f) {
        return f == SchemaFlavor.JSON ? SUM_JSON : SUM_MAP;
    }

    public static TableSchema<MetricView> histogram(SchemaFlavor f) {
        return f == SchemaFlavor.JSON ? HISTOGRAM_JSON : HISTOGRAM_MAP;
    }

    public static TableSchema<MetricView> exponentialHistogram(SchemaFlavor f) {
        return f == SchemaFlavor.JSON ? EXP_HISTOGRAM_JSON : EXP_HISTOGRAM_MAP;
    }

    public static TableSchema<MetricView> summary(SchemaFlavor f) {
        return f == SchemaFlavor.JSON ? SUMMARY_JSON : SUMMARY_MAP;
    }

    private static TableSchema<MetricView> gauge0(SchemaFlavor f) {
        return finish(common(f)
                .column(float64("Value", ZSTD, MetricView::value))
                .column(uint32("Flags", ZSTD, MetricView::flags))
                .column(exemplars(f)), f);
    }

    private static TableSchema<MetricView> sum0(SchemaFlavor f) {
        return finish(common(f)
                .column(float64("Value", ZSTD, MetricView::value))
                .column(uint32("Flags", ZSTD, MetricView::flags))
                .column(exemplars(f))
                .column(int32("AggregationTemporality", ZSTD, MetricView::aggregationTemporality).formerly("AggTemp"))
                .column(bool("IsMonotonic", DELTA_ZSTD, MetricView::isMonotonic)), f);
    }

    private static TableSchema<MetricView> histogram0(SchemaFlavor f) {
        return finish(common(f)
                .column(uint64("Count", DELTA_ZSTD, MetricView::count))
                .column(float64("Sum", ZSTD, MetricView::sum))
                .column(uint64ArrayBytes("BucketCounts", ZSTD, MetricView::writeBucketCounts))
                .column(float64ArrayBytes("ExplicitBounds", ZSTD, MetricView::writeExplicitBounds))
                .column(exemplars(f))
                .column(uint32("Flags", ZSTD, MetricView::flags))
                .column(float64("Min", ZSTD, MetricView::min))
                .column(float64("Max", ZSTD, MetricView::max))
                .column(int32("AggregationTemporality", ZSTD, MetricView::aggregationTemporality).optional()), f);
    }

    private static TableSchema<MetricView> exponentialHistogram0(SchemaFlavor f) {
        return finish(common(f)
                .column(uint64("Count", DELTA_ZSTD, MetricView::count))
                .column(float64("Sum", ZSTD, MetricView::sum))
                .column(int32("Scale", ZSTD, MetricView::scale))
                .column(uint64("ZeroCount", ZSTD, MetricView::zeroCount))
                .column(int32("PositiveOffset", ZSTD, MetricView::positiveOffset))
                .column(uint64ArrayBytes("PositiveBucketCounts", ZSTD, MetricView::writePositiveBucketCounts))
                .column(int32("NegativeOffset", ZSTD, MetricView::negativeOffset))
                .column(uint64ArrayBytes("NegativeBucketCounts", ZSTD, MetricView::writeNegativeBucketCounts))
                .column(exemplars(f))
                .column(uint32("Flags", ZSTD, MetricView::flags))
                .column(float64("Min", ZSTD, MetricView::min))
                .column(float64("Max", ZSTD, MetricView::max))
                .column(int32("AggregationTemporality", ZSTD, MetricView::aggregationTemporality).optional()), f);
    }

    private static TableSchema<MetricView> summary0(SchemaFlavor f) {
        return finish(common(f)
                .column(uint64("Count", DELTA_ZSTD, MetricView::count))
                .column(float64("Sum", ZSTD, MetricView::sum))
                .column(nested(
                        "ValueAtQuantiles",
                        ZSTD,
                        MetricView::quantileCount,
                        nestedFloat64("Quantile", MetricView::quantile),
                        nestedFloat64("Value", MetricView::quantileValue)))
                .column(uint32("Flags", ZSTD, MetricView::flags)), f);
    }

    /** The columns every metrics table starts with. */
    private static TableSchema.Builder<MetricView> common(SchemaFlavor f) {
        return TableSchema.<MetricView>builder()
                .columns(attributes("ResourceAttributes", ZSTD, f, MetricView::resourceAttributes))
                .column(stringBytes("ResourceSchemaUrl", ZSTD, MetricView::writeResourceSchemaUrl))
                .column(stringBytes("ScopeName", ZSTD, MetricView::writeScopeName))
                .column(stringBytes("ScopeVersion", ZSTD, MetricView::writeScopeVersion))
                .columns(attributes("ScopeAttributes", ZSTD, f, MetricView::scopeAttributes))
                .column(uint32("ScopeDroppedAttrCount", ZSTD, MetricView::scopeDroppedAttrCount))
                .column(stringBytes("ScopeSchemaUrl", ZSTD, MetricView::writeScopeSchemaUrl))
                .column(lowCardinalityStringBytes("ServiceName", ZSTD, MetricView::writeServiceName).optional())
                .column(lowCardinalityStringBytes("MetricName", ZSTD, MetricView::writeMetricName))
                .column(stringBytes("MetricDescription", ZSTD, MetricView::writeMetricDescription))
                .column(stringBytes("MetricUnit", ZSTD, MetricView::writeMetricUnit))
                .columns(attributes("Attributes", ZSTD, f, MetricView::attributes))
                .column(dateTimeFromNanos("StartTimeUnix", DELTA_ZSTD, MetricView::startTimeNanos))
                .column(dateTimeFromNanos("TimeUnix", DELTA_ZSTD, MetricView::timeNanos));
    }

    private static Column<MetricView> exemplars(SchemaFlavor f) {
        return nested(
                "Exemplars",
                ZSTD,
                MetricView::exemplarCount,
                nestedAttributes("FilteredAttributes", f, MetricView::exemplarFilteredAttributes),
                nestedDateTimeFromNanos("TimeUnix", MetricView::exemplarTimeNanos),
                nestedFloat64("Value", MetricView::exemplarValue),
                nestedStringBytes("SpanId", MetricView::writeExemplarSpanId),
                nestedStringBytes("TraceId", MetricView::writeExemplarTraceId));
    }

    /** Indexes, partitioning, order, TTL and settings, the same for all five tables. */
    private static TableSchema<MetricView> finish(TableSchema.Builder<MetricView> b, SchemaFlavor f) {
        if (f == SchemaFlavor.MAP) {
            b.index("idx_res_attr_key mapKeys(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1")
                    .index("idx_res_attr_value mapValues(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1")
                    .index("idx_scope_attr_key mapKeys(ScopeAttributes) TYPE bloom_filter(0.01) GRANULARITY 1")
                    .index("idx_scope_attr_value mapValues(ScopeAttributes) TYPE bloom_filter(0.01) GRANULARITY 1")
                    .index("idx_attr_key mapKeys(Attributes) TYPE bloom_filter(0.01) GRANULARITY 1")
                    .index("idx_attr_value mapValues(Attributes) TYPE bloom_filter(0.01) GRANULARITY 1")
                    .orderBy("(ServiceName, MetricName, toStartOfHour(TimeUnix), cityHash64(Attributes), TimeUnix)");
        } else {
            b.index("idx_res_attr_keys ResourceAttributesKeys TYPE bloom_filter(0.01) GRANULARITY 1")
                    .index("idx_scope_attr_keys ScopeAttributesKeys TYPE bloom_filter(0.01) GRANULARITY 1")
                    .index("idx_attr_keys AttributesKeys TYPE bloom_filter(0.01) GRANULARITY 1")
                    .orderBy("(ServiceName, MetricName, toStartOfHour(TimeUnix), TimeUnix)");
        }
        return b.index("idx_time_minmax TimeUnix TYPE minmax GRANULARITY 1")
                .partitionBy("toDate(TimeUnix)")
                .ttlOn("toDateTime(TimeUnix)")
                .settings(SETTINGS)
                .build();
    }
}
