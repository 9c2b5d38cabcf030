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

    private final Signal signal;
    private transient OtlpRecords records;
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

    /** The rows of one record; none for NULL or an undecodable record. */
    public void eval(byte[] record) {
        if (record == null) {
            return;
        }
        if (records == null) { // called outside a Flink task, without open
            init();
        }
        List<RowData> rows;
        try {
            rows = records.decode(record, allFields);
        } catch (Exception | StackOverflowError e) {
            if (failures != null) {
                failures.inc();
            }
            if (logged++ < LOGGED_FAILURES) {
                LOG.warn("{}: undecodable {} record ({} bytes), no rows: {}", getClass().getSimpleName(), signal.id(),
                        record.length, e.toString());
            }
            return;
        }
        if (decoded != null) {
            decoded.inc(rows.size());
        }
        rows.forEach(this::collect);
    }

    private void init() {
        records = new OtlpRecords(signal);
        allFields = java.util.stream.IntStream.range(0, records.type().names().size()).toArray();
    }

    @Override
    public TypeInference getTypeInference(DataTypeFactory typeFactory) {
        OtlpRowType type = OtlpRowType.of(signal);
        return TypeInference.newBuilder()
                .inputTypeStrategy(InputTypeStrategies.or(
                        InputTypeStrategies.sequence(InputTypeStrategies.logical(LogicalTypeFamily.BINARY_STRING)),
                        InputTypeStrategies.sequence(InputTypeStrategies.logical(LogicalTypeFamily.CHARACTER_STRING))))
                .outputTypeStrategy(call -> Optional.of(type.dataType().bridgedTo(RowData.class)))
                .build();
    }
}
