package io.tributary.tables;

import static io.tributary.tables.Columns.attributes;
import static io.tributary.tables.Columns.bool;
import static io.tributary.tables.Columns.dateTimeFromNanos;
import static io.tributary.tables.Columns.float64;
import static io.tributary.tables.Columns.float64Array;
import static io.tributary.tables.Columns.int32;
import static io.tributary.tables.Columns.lowCardinalityString;
import static io.tributary.tables.Columns.nested;
import static io.tributary.tables.Columns.nestedAttributes;
import static io.tributary.tables.Columns.nestedDateTimeFromNanos;
import static io.tributary.tables.Columns.nestedFloat64;
import static io.tributary.tables.Columns.nestedString;
import static io.tributary.tables.Columns.string;
import static io.tributary.tables.Columns.uint32;
import static io.tributary.tables.Columns.uint64;
import static io.tributary.tables.Columns.uint64Array;

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

    private static final TableSchema<MetricRow> GAUGE_MAP = gauge0(SchemaFlavor.MAP);
    private static final TableSchema<MetricRow> GAUGE_JSON = gauge0(SchemaFlavor.JSON);
    private static final TableSchema<MetricRow> SUM_MAP = sum0(SchemaFlavor.MAP);
    private static final TableSchema<MetricRow> SUM_JSON = sum0(SchemaFlavor.JSON);
    private static final TableSchema<MetricRow> HISTOGRAM_MAP = histogram0(SchemaFlavor.MAP);
    private static final TableSchema<MetricRow> HISTOGRAM_JSON = histogram0(SchemaFlavor.JSON);
    private static final TableSchema<MetricRow> EXP_HISTOGRAM_MAP = exponentialHistogram0(SchemaFlavor.MAP);
    private static final TableSchema<MetricRow> EXP_HISTOGRAM_JSON = exponentialHistogram0(SchemaFlavor.JSON);
    private static final TableSchema<MetricRow> SUMMARY_MAP = summary0(SchemaFlavor.MAP);
    private static final TableSchema<MetricRow> SUMMARY_JSON = summary0(SchemaFlavor.JSON);

    private MetricsSchema() {}

    public static TableSchema<MetricRow> gauge(SchemaFlavor f) {
        return f == SchemaFlavor.JSON ? GAUGE_JSON : GAUGE_MAP;
    }

    public static TableSchema<MetricRow> sum(SchemaFlavor f) {
        return f == SchemaFlavor.JSON ? SUM_JSON : SUM_MAP;
    }

    public static TableSchema<MetricRow> histogram(SchemaFlavor f) {
        return f == SchemaFlavor.JSON ? HISTOGRAM_JSON : HISTOGRAM_MAP;
    }

    public static TableSchema<MetricRow> exponentialHistogram(SchemaFlavor f) {
        return f == SchemaFlavor.JSON ? EXP_HISTOGRAM_JSON : EXP_HISTOGRAM_MAP;
    }

    public static TableSchema<MetricRow> summary(SchemaFlavor f) {
        return f == SchemaFlavor.JSON ? SUMMARY_JSON : SUMMARY_MAP;
    }

    private static TableSchema<MetricRow> gauge0(SchemaFlavor f) {
        return finish(common(f)
                .column(float64("Value", ZSTD, MetricRow::value))
                .column(uint32("Flags", ZSTD, MetricRow::flags))
                .column(exemplars(f)), f);
    }

    private static TableSchema<MetricRow> sum0(SchemaFlavor f) {
        return finish(common(f)
                .column(float64("Value", ZSTD, MetricRow::value))
                .column(uint32("Flags", ZSTD, MetricRow::flags))
                .column(exemplars(f))
                .column(int32("AggregationTemporality", ZSTD, MetricRow::aggregationTemporality).formerly("AggTemp"))
                .column(bool("IsMonotonic", DELTA_ZSTD, MetricRow::isMonotonic)), f);
    }

    private static TableSchema<MetricRow> histogram0(SchemaFlavor f) {
        return finish(common(f)
                .column(uint64("Count", DELTA_ZSTD, MetricRow::histogramCount))
                .column(float64("Sum", ZSTD, MetricRow::histogramSum))
                .column(uint64Array("BucketCounts", ZSTD, MetricRow::bucketCounts))
                .column(float64Array("ExplicitBounds", ZSTD, MetricRow::explicitBounds))
                .column(exemplars(f))
                .column(uint32("Flags", ZSTD, MetricRow::flags))
                .column(float64("Min", ZSTD, MetricRow::histogramMin))
                .column(float64("Max", ZSTD, MetricRow::histogramMax))
                .column(int32("AggregationTemporality", ZSTD, MetricRow::aggregationTemporality).optional()), f);
    }

    private static TableSchema<MetricRow> exponentialHistogram0(SchemaFlavor f) {
        return finish(common(f)
                .column(uint64("Count", DELTA_ZSTD, MetricRow::exponentialCount))
                .column(float64("Sum", ZSTD, MetricRow::exponentialSum))
                .column(int32("Scale", ZSTD, MetricRow::scale))
                .column(uint64("ZeroCount", ZSTD, MetricRow::zeroCount))
                .column(int32("PositiveOffset", ZSTD, MetricRow::positiveOffset))
                .column(uint64Array("PositiveBucketCounts", ZSTD, MetricRow::positiveBucketCounts))
                .column(int32("NegativeOffset", ZSTD, MetricRow::negativeOffset))
                .column(uint64Array("NegativeBucketCounts", ZSTD, MetricRow::negativeBucketCounts))
                .column(exemplars(f))
                .column(uint32("Flags", ZSTD, MetricRow::flags))
                .column(float64("Min", ZSTD, MetricRow::exponentialMin))
                .column(float64("Max", ZSTD, MetricRow::exponentialMax))
                .column(int32("AggregationTemporality", ZSTD, MetricRow::aggregationTemporality).optional()), f);
    }

    private static TableSchema<MetricRow> summary0(SchemaFlavor f) {
        return finish(common(f)
                .column(uint64("Count", DELTA_ZSTD, MetricRow::summaryCount))
                .column(float64("Sum", ZSTD, MetricRow::summarySum))
                .column(nested(
                        "ValueAtQuantiles",
                        ZSTD,
                        MetricRow::quantileCount,
                        nestedFloat64("Quantile", MetricRow::quantile),
                        nestedFloat64("Value", MetricRow::quantileValue)))
                .column(uint32("Flags", ZSTD, MetricRow::flags)), f);
    }

    /** The columns every metrics table starts with. */
    private static TableSchema.Builder<MetricRow> common(SchemaFlavor f) {
        return TableSchema.<MetricRow>builder()
                .columns(attributes("ResourceAttributes", ZSTD, f, MetricRow::resourceAttributes))
                .column(string("ResourceSchemaUrl", ZSTD, MetricRow::resourceSchemaUrl))
                .column(string("ScopeName", ZSTD, MetricRow::scopeName))
                .column(string("ScopeVersion", ZSTD, MetricRow::scopeVersion))
                .columns(attributes("ScopeAttributes", ZSTD, f, MetricRow::scopeAttributes))
                .column(uint32("ScopeDroppedAttrCount", ZSTD, MetricRow::scopeDroppedAttrCount))
                .column(string("ScopeSchemaUrl", ZSTD, MetricRow::scopeSchemaUrl))
                .column(lowCardinalityString("ServiceName", ZSTD, MetricRow::serviceName).optional())
                .column(lowCardinalityString("MetricName", ZSTD, MetricRow::metricName))
                .column(string("MetricDescription", ZSTD, MetricRow::metricDescription))
                .column(string("MetricUnit", ZSTD, MetricRow::metricUnit))
                .columns(attributes("Attributes", ZSTD, f, MetricRow::attributes))
                .column(dateTimeFromNanos("StartTimeUnix", DELTA_ZSTD, MetricRow::startTimeNanos))
                .column(dateTimeFromNanos("TimeUnix", DELTA_ZSTD, MetricRow::timeNanos));
    }

    private static Column<MetricRow> exemplars(SchemaFlavor f) {
        return nested(
                "Exemplars",
                ZSTD,
                MetricRow::exemplarCount,
                nestedAttributes("FilteredAttributes", f, MetricRow::exemplarFilteredAttributes),
                nestedDateTimeFromNanos("TimeUnix", MetricRow::exemplarTimeNanos),
                nestedFloat64("Value", MetricRow::exemplarValue),
                nestedString("SpanId", MetricRow::exemplarSpanId),
                nestedString("TraceId", MetricRow::exemplarTraceId));
    }

    /** Indexes, partitioning, order, TTL and settings, the same for all five tables. */
    private static TableSchema<MetricRow> finish(TableSchema.Builder<MetricRow> b, SchemaFlavor f) {
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
