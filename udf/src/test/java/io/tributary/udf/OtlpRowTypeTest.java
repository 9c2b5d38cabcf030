package io.tributary.udf;

import io.tributary.otlp.Signal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The SQL columns of the table functions, spelled out: the exporter's tables' columns in Flink types. */
class OtlpRowTypeTest {

    @Test
    void spans() {
        assertThat(OtlpRowType.of(Signal.TRACES).dataType().getLogicalType().asSerializableString()).isEqualTo("ROW<"
                + "`Timestamp` TIMESTAMP(9) WITH LOCAL TIME ZONE, `TraceId` VARCHAR(2147483647), `SpanId` VARCHAR(2147483647), "
                + "`ParentSpanId` VARCHAR(2147483647), `TraceState` VARCHAR(2147483647), `SpanName` VARCHAR(2147483647), "
                + "`SpanKind` VARCHAR(2147483647), `ServiceName` VARCHAR(2147483647), "
                + "`ResourceAttributes` MAP<VARCHAR(2147483647), VARCHAR(2147483647)>, `ScopeName` VARCHAR(2147483647), "
                + "`ScopeVersion` VARCHAR(2147483647), `SpanAttributes` MAP<VARCHAR(2147483647), VARCHAR(2147483647)>, "
                + "`Duration` BIGINT, `StatusCode` VARCHAR(2147483647), `StatusMessage` VARCHAR(2147483647), "
                + "`Events` ARRAY<ROW<`Timestamp` TIMESTAMP(9) WITH LOCAL TIME ZONE, `Name` VARCHAR(2147483647), "
                + "`Attributes` MAP<VARCHAR(2147483647), VARCHAR(2147483647)>>>, "
                + "`Links` ARRAY<ROW<`TraceId` VARCHAR(2147483647), `SpanId` VARCHAR(2147483647), `TraceState` VARCHAR(2147483647), "
                + "`Attributes` MAP<VARCHAR(2147483647), VARCHAR(2147483647)>>>>");
    }

    @Test
    void logs() {
        assertThat(OtlpRowType.of(Signal.LOGS).names()).containsExactly("Timestamp", "TraceId", "SpanId", "TraceFlags",
                "SeverityText", "SeverityNumber", "ServiceName", "Body", "ResourceSchemaUrl", "ResourceAttributes",
                "ScopeSchemaUrl", "ScopeName", "ScopeVersion", "ScopeAttributes", "LogAttributes", "EventName");
        assertThat(OtlpRowType.of(Signal.LOGS).dataType().getChildren().get(5).toString()).isEqualTo("SMALLINT");
    }

    @Test
    void metricPointsAreTheUnionOfTheFiveTables() {
        OtlpRowType t = OtlpRowType.of(Signal.METRICS);
        assertThat(t.names()).containsExactly("MetricType", "ResourceAttributes", "ResourceSchemaUrl", "ScopeName",
                "ScopeVersion", "ScopeAttributes", "ScopeDroppedAttrCount", "ScopeSchemaUrl", "ServiceName", "MetricName",
                "MetricDescription", "MetricUnit", "Attributes", "StartTimeUnix", "TimeUnix", "Value", "Flags", "Exemplars",
                "AggregationTemporality", "IsMonotonic", "Count", "Sum", "BucketCounts", "ExplicitBounds", "Min", "Max",
                "Scale", "ZeroCount", "PositiveOffset", "PositiveBucketCounts", "NegativeOffset", "NegativeBucketCounts",
                "ValueAtQuantiles");
        String s = t.dataType().getLogicalType().asSerializableString();
        assertThat(s).contains("`StartTimeUnix` TIMESTAMP(0) WITH LOCAL TIME ZONE", "`Value` DOUBLE", "`IsMonotonic` BOOLEAN",
                "`BucketCounts` ARRAY<BIGINT>", "`ValueAtQuantiles` ARRAY<ROW<`Quantile` DOUBLE, `Value` DOUBLE>>",
                "`Exemplars` ARRAY<ROW<`FilteredAttributes` MAP<VARCHAR(2147483647), VARCHAR(2147483647)>, "
                        + "`TimeUnix` TIMESTAMP(0) WITH LOCAL TIME ZONE, `Value` DOUBLE, `SpanId` VARCHAR(2147483647), "
                        + "`TraceId` VARCHAR(2147483647)>>",
                "`AggregationTemporality` INT", "`ScopeDroppedAttrCount` BIGINT");
    }

    @Test
    void profileSamples() {
        assertThat(OtlpRowType.of(Signal.PROFILES).dataType().getLogicalType().asSerializableString()).isEqualTo("ROW<"
                + "`Timestamp` TIMESTAMP(9) WITH LOCAL TIME ZONE, `ProfileId` VARCHAR(2147483647), `SampleType` VARCHAR(2147483647), "
                + "`SampleUnit` VARCHAR(2147483647), `ServiceName` VARCHAR(2147483647), "
                + "`ResourceAttributes` MAP<VARCHAR(2147483647), VARCHAR(2147483647)>, `ScopeName` VARCHAR(2147483647), "
                + "`ScopeVersion` VARCHAR(2147483647), `ProfileAttributes` MAP<VARCHAR(2147483647), VARCHAR(2147483647)>, "
                + "`SampleAttributes` MAP<VARCHAR(2147483647), VARCHAR(2147483647)>, `StackHash` BIGINT, `Addresses` ARRAY<BIGINT>, "
                + "`FunctionNames` ARRAY<VARCHAR(2147483647)>, `FileNames` ARRAY<VARCHAR(2147483647)>, `LineNumbers` ARRAY<INT>, "
                + "`MappingFileNames` ARRAY<VARCHAR(2147483647)>, `Values` ARRAY<BIGINT>, `TimestampsUnixNano` ARRAY<BIGINT>, "
                + "`DurationNano` BIGINT, `Period` BIGINT, `PeriodType` VARCHAR(2147483647), `PeriodUnit` VARCHAR(2147483647), "
                + "`TraceId` VARCHAR(2147483647), `SpanId` VARCHAR(2147483647)>");
    }
}
