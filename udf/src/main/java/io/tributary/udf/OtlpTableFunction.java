package io.tributary.udf;

import io.tributary.otlp.Signal;

import org.apache.flink.metrics.Counter;
import org.apache.flink.table.catalog.DataTypeFactory;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.TableFunction;
import org.apache.flink.table.types.inference.InputTypeStrategies;
import org.apache.flink.table.types.inference.TypeInference;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.data.RowData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Optional;

/**
 * A table function that turns one Kafka record of OTLP (protobuf or OTLP/JSON, detected per record;
 * {@code BYTES}, or {@code STRING} for OTLP/JSON read as text) into the rows the job writes for it, with the columns of the exporter's tables ({@link
 * OtlpRowType}), built as Flink's internal rows. A record that cannot be decoded yields no rows: it is counted ({@code
 * tributary.decodeFailures} in the function's metric group) and logged, and the query goes on.
 */
public abstract class OtlpTableFunction extends TableFunction<RowData> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(OtlpTableFunction.class);
    /** Failures logged in full per task; the counter counts all of them. */
    private static final int LOGGED_FAILURES = 10;
    /** The most encodings a task keeps decoders for (a column of names holds a few). */
    private static final int MAX_ENCODINGS = 16;

    private final Signal signal;
    private transient OtlpRecords records;
    /** Records of the encodings named by a second argument, made when first named. */
    private transient java.util.Map<String, OtlpRecords> byEncoding;
    /** Every field of the signal's row, in order. */
    private transient int[] allFields;
    private transient Counter failures;
    private transient Counter decoded;
    private transient long logged;

    OtlpTableFunction(Signal signal) {
        this.signal = signal;
    }

    @Override
    public void open(FunctionContext context) {
        init();
        var group = context.getMetricGroup().addGroup("tributary").addGroup("signal", signal.id());
        failures = group.counter("decodeFailures");
        decoded = group.counter("rowsDecoded");
    }

    /** The rows of one record read as text (OTLP/JSON in a {@code STRING} column), as its UTF-8 bytes. */
    public void eval(String record) {
        eval(record == null ? null : record.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** The rows of one record read as text, in the encoding named ({@code zipkin_json}, {@code json}, ...). */
    public void eval(String record, String encoding) {
        eval(record == null ? null : record.getBytes(java.nio.charset.StandardCharsets.UTF_8), encoding);
    }

    /** The rows of one record; none for NULL or an undecodable record. */
    public void eval(byte[] record) {
        eval(record, (String) null);
    }

    /**
     * The rows of one record in the encoding named (as {@code kafka.encodings.<signal>} names them;
     * null: {@code auto}); none for NULL or an undecodable record.
     *
     * @throws IllegalArgumentException when the signal has no encoding of that name
     */
    public void eval(byte[] record, String encoding) {
        if (record == null) {
            return;
        }
        if (records == null) { // called outside a Flink task, without open
            init();
        }
        OtlpRecords r = records;
        if (encoding != null) {
            String name = encoding.trim().toLowerCase(java.util.Locale.ROOT);
            r = byEncoding.get(name);
            if (r == null) {
                try {
                    r = new OtlpRecords(signal, name);
                } catch (IllegalArgumentException e) {
                    // a column of encodings holding one the signal lacks: that row's record is undecodable,
                    // the query goes on
                    failed(record, e);
                    return;
                }
                if (byEncoding.size() < MAX_ENCODINGS) {
                    byEncoding.put(name, r);
                }
            }
        }
        List<RowData> rows;
        try {
            rows = r.decode(record, allFields);
        } catch (Exception | StackOverflowError e) {
            failed(record, e);
            return;
        }
        if (decoded != null) {
            decoded.inc(rows.size());
        }
        rows.forEach(this::collect);
    }

    /** Counts and (the first few per task) logs a record that gave no rows. */
    private void failed(byte[] record, Throwable e) {
        if (failures != null) {
            failures.inc();
        }
        if (logged++ < LOGGED_FAILURES) {
            String reason = e.toString();
            LOG.warn("{}: undecodable {} record ({} bytes), no rows: {}", getClass().getSimpleName(), signal.id(),
                    record.length, reason.length() > 500 ? reason.substring(0, 500) + "..." : reason);
        }
    }

    private void init() {
        records = new OtlpRecords(signal);
        byEncoding = new java.util.HashMap<>();
        allFields = java.util.stream.IntStream.range(0, records.type().names().size()).toArray();
    }

    /**
     * The record, and optionally its encoding; a literal encoding must be one of the signal's, or
     * planning fails naming what the signal takes.
     */
    private org.apache.flink.table.types.inference.InputTypeStrategy arguments() {
        org.apache.flink.table.types.inference.InputTypeStrategy types = InputTypeStrategies.or(
                InputTypeStrategies.sequence(InputTypeStrategies.logical(LogicalTypeFamily.BINARY_STRING)),
                InputTypeStrategies.sequence(InputTypeStrategies.logical(LogicalTypeFamily.CHARACTER_STRING)),
                InputTypeStrategies.sequence(InputTypeStrategies.logical(LogicalTypeFamily.BINARY_STRING),
                        InputTypeStrategies.logical(LogicalTypeFamily.CHARACTER_STRING)),
                InputTypeStrategies.sequence(InputTypeStrategies.logical(LogicalTypeFamily.CHARACTER_STRING),
                        InputTypeStrategies.logical(LogicalTypeFamily.CHARACTER_STRING)));
        String function = getClass().getSimpleName();
        return new org.apache.flink.table.types.inference.InputTypeStrategy() {
            @Override
            public org.apache.flink.table.types.inference.ArgumentCount getArgumentCount() {
                return types.getArgumentCount();
            }

            @Override
            public Optional<List<org.apache.flink.table.types.DataType>> inferInputTypes(
                    org.apache.flink.table.types.inference.CallContext call, boolean throwOnFailure) {
                if (call.getArgumentDataTypes().size() == 2 && call.isArgumentLiteral(1)) {
                    Optional<String> name = call.getArgumentValue(1, String.class);
                    if (name.isPresent()) {
                        try {
                            io.tributary.encoding.Encodings.decoder(name.get(), signal);
                        } catch (IllegalArgumentException e) {
                            if (throwOnFailure) {
                                throw new org.apache.flink.table.api.ValidationException(function + ": " + e.getMessage());
                            }
                            return Optional.empty();
                        }
                    }
                }
                return types.inferInputTypes(call, throwOnFailure);
            }

            @Override
            public List<org.apache.flink.table.types.inference.Signature> getExpectedSignatures(
                    org.apache.flink.table.functions.FunctionDefinition definition) {
                return types.getExpectedSignatures(definition);
            }
        };
    }

    @Override
    public TypeInference getTypeInference(DataTypeFactory typeFactory) {
        OtlpRowType type = OtlpRowType.of(signal);
        return TypeInference.newBuilder()
                .inputTypeStrategy(arguments())
                .outputTypeStrategy(call -> Optional.of(type.dataType().bridgedTo(RowData.class)))
                .build();
    }
}
