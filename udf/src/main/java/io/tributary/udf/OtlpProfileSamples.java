package io.tributary.udf;

import io.tributary.otlp.Signal;

/**
 * {@code OTLP_PROFILE_SAMPLES(record BYTES)}: the samples of one Kafka record of OTLP profiles
 * ({@code ExportProfilesServiceRequest} / {@code ProfilesData} of opentelemetry-proto v1.10/v1.11,
 * protobuf or OTLP/JSON), one row each, with the columns and values of the exporter's {@code
 * otel_profiles}: {@code Timestamp TIMESTAMP_LTZ(9)} (the profile's time), {@code ProfileId},
 * {@code SampleType}, {@code SampleUnit}, {@code ServiceName}, the attribute maps, {@code StackHash
 * BIGINT}, the stack leaf first with one frame per line of a location ({@code Addresses
 * ARRAY<BIGINT>}, {@code FunctionNames}, {@code FileNames}, {@code MappingFileNames}
 * {@code ARRAY<STRING>}, {@code LineNumbers ARRAY<INT>}), {@code Values ARRAY<BIGINT>}, {@code
 * TimestampsUnixNano ARRAY<BIGINT>}, {@code DurationNano}, {@code Period BIGINT}, {@code
 * PeriodType}, {@code PeriodUnit}, and the linked span's {@code TraceId} and {@code SpanId} ('' for
 * none). {@code UInt64} values are {@code BIGINT} of the same 64 bits: a {@code StackHash} or an
 * address of 2^63 or more reads as negative.
 *
 * <pre>{@code
 * CREATE TEMPORARY SYSTEM FUNCTION OTLP_PROFILE_SAMPLES AS 'io.tributary.udf.OtlpProfileSamples';
 * SELECT p.ServiceName, p.FunctionNames[1] AS leaf, COUNT(*) AS samples
 * FROM otlp_profiles_topic, LATERAL TABLE(OTLP_PROFILE_SAMPLES(`value`)) AS p
 * WHERE p.SampleType = 'cpu'
 * GROUP BY p.ServiceName, p.FunctionNames[1];
 * }</pre>
 */
public final class OtlpProfileSamples extends OtlpTableFunction {
    private static final long serialVersionUID = 1L;

    public OtlpProfileSamples() {
        super(Signal.PROFILES);
    }
}
