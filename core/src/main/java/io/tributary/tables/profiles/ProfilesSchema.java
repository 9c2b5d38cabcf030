package io.tributary.tables.profiles;

import io.tributary.schema.Sql;
import io.tributary.schema.TableSchema;

import static io.tributary.schema.Columns.attributes;
import static io.tributary.schema.Columns.dateTime64Nanos;
import static io.tributary.schema.Columns.int64;
import static io.tributary.schema.Columns.lowCardinalityStringBytes;
import static io.tributary.schema.Columns.materialized;
import static io.tributary.schema.Columns.stringBytes;
import static io.tributary.schema.Columns.uint64;
import static io.tributary.schema.Columns.written;

import io.tributary.schema.SchemaFlavor;

/**
 * {@code otel_profiles} as the collector contrib {@code clickhouseexporter} creates it ({@code
 * internal/sqltemplates/profiles_table.sql}, with text indexes: ClickHouse 26.2 or newer): one row
 * per sample, the ten MATERIALIZED {@code __otel_materialized_*} resource attribute columns,
 * ordered by service, sample type and second. The exporter has one flavour of this table (its
 * {@code json} option leaves profiles alone), so both of the job's flavours write it.
 */
public final class ProfilesSchema {

    /** Default name of the profiles table. */
    public static final String DEFAULT_TABLE = "otel_profiles";

    private static final String ZSTD = "CODEC(ZSTD(1))";

    private static final String[] MATERIALIZED_RESOURCE_ATTRIBUTES = {
        "k8s.cluster.name",
        "k8s.container.name",
        "k8s.deployment.name",
        "k8s.namespace.name",
        "k8s.node.name",
        "k8s.pod.name",
        "k8s.pod.uid",
        "deployment.environment.name",
        "service.namespace",
        "service.instance.id"
    };

    /** The profiles table, the same in both flavours. Column order is the exporter's. */
    public static final TableSchema<SampleView> TABLE = table();

    private ProfilesSchema() {}

    /** The profiles table in {@code flavor}: the exporter's only one. */
    public static TableSchema<SampleView> table(SchemaFlavor flavor) {
        return TABLE;
    }

    private static TableSchema<SampleView> table() {
        String strings = "Array(LowCardinality(String))";
        String map = "Map(LowCardinality(String), String)";
        TableSchema.Builder<SampleView> b =
                TableSchema.<SampleView>builder()
                        .column(dateTime64Nanos("Timestamp", "CODEC(Delta, ZSTD(1))", SampleView::timestampNanos))
                        .column(stringBytes("ProfileId", ZSTD, SampleView::writeProfileId))
                        .column(lowCardinalityStringBytes("SampleType", ZSTD, SampleView::writeSampleType))
                        .column(lowCardinalityStringBytes("SampleUnit", ZSTD, SampleView::writeSampleUnit))
                        .column(lowCardinalityStringBytes("ServiceName", ZSTD, SampleView::writeServiceName))
                        .columns(attributes("ResourceAttributes", ZSTD, SchemaFlavor.MAP, SampleView::resourceAttributes))
                        .column(stringBytes("ScopeName", ZSTD, SampleView::writeScopeName))
                        .column(stringBytes("ScopeVersion", ZSTD, SampleView::writeScopeVersion))
                        .column(written("ProfileAttributes", map, ZSTD, SampleView::writeProfileAttributes))
                        .column(written("SampleAttributes", map, ZSTD, SampleView::writeSampleAttributes))
                        .column(uint64("StackHash", ZSTD, SampleView::stackHash))
                        .column(written("Addresses", "Array(UInt64)", ZSTD, SampleView::writeAddresses))
                        .column(written("FunctionNames", strings, ZSTD, SampleView::writeFunctionNames))
                        .column(written("FileNames", strings, ZSTD, SampleView::writeFileNames))
                        .column(written("LineNumbers", "Array(Int32)", ZSTD, SampleView::writeLineNumbers))
                        .column(written("MappingFileNames", strings, ZSTD, SampleView::writeMappingFileNames))
                        .column(written("Values", "Array(Int64)", ZSTD, SampleView::writeValues))
                        .column(written("TimestampsUnixNano", "Array(UInt64)", ZSTD, SampleView::writeTimestamps))
                        .column(uint64("DurationNano", ZSTD, SampleView::durationNanos))
                        .column(int64("Period", ZSTD, SampleView::period))
                        .column(lowCardinalityStringBytes("PeriodType", ZSTD, SampleView::writePeriodType))
                        .column(lowCardinalityStringBytes("PeriodUnit", ZSTD, SampleView::writePeriodUnit))
                        .column(stringBytes("TraceId", ZSTD, SampleView::writeTraceId))
                        .column(stringBytes("SpanId", ZSTD, SampleView::writeSpanId));
        for (String attr : MATERIALIZED_RESOURCE_ATTRIBUTES) {
            b.column(materialized(
                    "__otel_materialized_" + attr,
                    "LowCardinality(String)",
                    ZSTD,
                    "ResourceAttributes[" + Sql.string(attr) + "]"));
        }
        return b.index("idx_profile_id ProfileId TYPE text(tokenizer = 'array')")
                .index("idx_trace_id TraceId TYPE text(tokenizer = 'array')")
                .index("idx_res_attr_key mapKeys(ResourceAttributes) TYPE text(tokenizer = 'array')")
                .index("idx_res_attr_value mapValues(ResourceAttributes) TYPE text(tokenizer = 'array')")
                .index("idx_sample_attr_key mapKeys(SampleAttributes) TYPE text(tokenizer = 'array')")
                .index("idx_sample_attr_value mapValues(SampleAttributes) TYPE text(tokenizer = 'array')")
                .index("idx_function_names FunctionNames TYPE text(tokenizer = 'splitByNonAlpha')")
                .partitionBy("toDate(Timestamp)")
                .orderBy("(ServiceName, SampleType, toDateTime(Timestamp))")
                .ttlOn("toDateTime(Timestamp)")
                .settings("index_granularity=8192, ttl_only_drop_parts = 1")
                .build();
    }
}
