package io.tributary.udf;

import io.tributary.otlp.Signal;

import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.format.DecodingFormat;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.DeserializationFormatFactory;
import org.apache.flink.table.factories.DynamicTableFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeCasts;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The {@code otlp} format: each Kafka record of OTLP (protobuf or OTLP/JSON, detected per record)
 * becomes the rows {@code OTLP_SPANS}, {@code OTLP_LOG_RECORDS}, {@code OTLP_METRIC_POINTS} or
 * {@code OTLP_PROFILE_SAMPLES} give for it ({@code 'otlp.signal'} = {@code traces}, {@code logs},
 * {@code metrics} or {@code profiles}), so a table's rows are spans, log records, points or profile
 * samples and can carry an event-time attribute and a watermark of their own (a watermark cannot be
 * declared on the output of a table function):
 *
 * <pre>{@code
 * CREATE TABLE spans (
 *   `Timestamp` TIMESTAMP_LTZ(9), ServiceName STRING, SpanName STRING, Duration BIGINT,
 *   ts AS CAST(`Timestamp` AS TIMESTAMP_LTZ(3)),
 *   WATERMARK FOR ts AS ts - INTERVAL '10' SECOND
 * ) WITH ('connector' = 'kafka', 'topic' = 'otlp_spans', 'format' = 'otlp', 'otlp.signal' = 'traces', ...);
 * }</pre>
 *
 * The table declares any of the signal's columns, by name, in their types (nullability aside).
 * A record that cannot be decoded yields no rows and is counted ({@code tributary.decodeFailures}).
 */
public final class OtlpFormatFactory implements DeserializationFormatFactory {

    public static final String IDENTIFIER = "otlp";

    public static final ConfigOption<String> SIGNAL = ConfigOptions.key("signal")
            .stringType()
            .noDefaultValue()
            .withDescription("The signal of the records: traces, logs, metrics or profiles.");

    public static final ConfigOption<String> ENCODING = ConfigOptions.key("encoding")
            .stringType()
            .defaultValue("auto")
            .withDescription("The encoding of the records, as the job's kafka.encodings.<signal> names them: auto"
                    + " (OTLP protobuf or OTLP/JSON, told apart per record), otlp_proto, otlp_json, zipkin_json,"
                    + " zipkin_proto, zipkin_thrift, jaeger_proto, jaeger_json, raw, text, text_<charset>, json, or one an encoding jar adds.");

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(SIGNAL);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(ENCODING);
    }

    @Override
    public DecodingFormat<DeserializationSchema<RowData>> createDecodingFormat(
            DynamicTableFactory.Context context, ReadableConfig formatOptions) {
        FactoryUtil.validateFactoryOptions(this, formatOptions);
        Signal signal = signal(formatOptions.get(SIGNAL));
        String encoding = formatOptions.get(ENCODING).trim();
        try {
            io.tributary.encoding.Encodings.decoder(encoding, signal);
        } catch (IllegalArgumentException e) {
            throw new ValidationException("otlp.encoding: " + e.getMessage(), e);
        }
        return new DecodingFormat<>() {
            @Override
            public DeserializationSchema<RowData> createRuntimeDecoder(
                    DynamicTableSource.Context ctx, DataType physicalDataType) {
                int[] projection = projection(signal, physicalDataType);
                TypeInformation<RowData> produced = ctx.createTypeInformation(physicalDataType);
                return new OtlpDeserializationSchema(signal, encoding, projection, produced);
            }

            @Override
            public ChangelogMode getChangelogMode() {
                return ChangelogMode.insertOnly();
            }
        };
    }

    /** The signal {@code 'otlp.signal'} names. */
    static Signal signal(String s) {
        switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "traces":
                return Signal.TRACES;
            case "logs":
                return Signal.LOGS;
            case "metrics":
                return Signal.METRICS;
            case "profiles":
                return Signal.PROFILES;
            default:
                throw new ValidationException("otlp.signal: must be traces, logs, metrics or profiles, not '" + s + "'");
        }
    }

    /** For each declared column, its index in the signal's row; fails naming a column that is unknown or of another type. */
    static int[] projection(Signal signal, DataType declared) {
        OtlpRowType type = OtlpRowType.of(signal);
        RowType ours = (RowType) type.dataType().getLogicalType();
        RowType theirs = (RowType) declared.getLogicalType();
        List<String> problems = new ArrayList<>();
        int[] out = new int[theirs.getFieldCount()];
        for (int i = 0; i < out.length; i++) {
            String name = theirs.getFieldNames().get(i);
            int j = ours.getFieldNames().indexOf(name);
            if (j < 0) {
                problems.add("'" + name + "' is not a column of " + signal.id() + " (columns: "
                        + String.join(", ", ours.getFieldNames()) + ")");
                continue;
            }
            LogicalType want = theirs.getTypeAt(i);
            LogicalType have = ours.getTypeAt(j);
            if (!LogicalTypeCasts.supportsAvoidingCast(have, want)) {
                problems.add("'" + name + "' is " + have.copy(true).asSummaryString() + ", not " + want.asSummaryString());
            }
            out[i] = j;
        }
        if (!problems.isEmpty()) {
            throw new ValidationException("format 'otlp' ('otlp.signal' = '" + signal.id() + "'): "
                    + String.join("; ", problems));
        }
        return out;
    }
}
