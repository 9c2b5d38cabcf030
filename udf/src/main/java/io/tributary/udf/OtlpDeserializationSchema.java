package io.tributary.udf;

import io.tributary.otlp.Signal;

import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.table.connector.RuntimeConverter;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.Row;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/** The runtime side of the {@code otlp} format ({@link OtlpFormatFactory}): one Kafka record in, its rows out. */
final class OtlpDeserializationSchema implements DeserializationSchema<RowData> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(OtlpDeserializationSchema.class);
    private static final int LOGGED_FAILURES = 10;

    private final Signal signal;
    private final int[] projection;
    private final DynamicTableSource.DataStructureConverter converter;
    private final TypeInformation<RowData> produced;

    private transient OtlpRecords records;
    private transient Counter failures;
    private transient Counter decoded;
    private transient long logged;

    OtlpDeserializationSchema(Signal signal, int[] projection, DynamicTableSource.DataStructureConverter converter,
            TypeInformation<RowData> produced) {
        this.signal = signal;
        this.projection = projection;
        this.converter = converter;
        this.produced = produced;
    }

    @Override
    public void open(InitializationContext context) {
        records = new OtlpRecords(signal);
        converter.open(RuntimeConverter.Context.create(OtlpDeserializationSchema.class.getClassLoader()));
        var group = context.getMetricGroup().addGroup("tributary").addGroup("signal", signal.id());
        failures = group.counter("decodeFailures");
        decoded = group.counter("rowsDecoded");
    }

    @Override
    public RowData deserialize(byte[] message) {
        throw new UnsupportedOperationException("an OTLP record is many rows: use deserialize(byte[], Collector)");
    }

    @Override
    public void deserialize(byte[] message, Collector<RowData> out) {
        if (message == null) {
            return;
        }
        List<Row> rows;
        try {
            rows = records.decode(message);
        } catch (Exception | StackOverflowError e) {
            failures.inc();
            if (logged++ < LOGGED_FAILURES) {
                LOG.warn("format 'otlp': undecodable {} record ({} bytes), no rows: {}", signal.id(), message.length,
                        e.toString());
            }
            return;
        }
        decoded.inc(rows.size());
        for (Row r : rows) {
            Object[] fields = new Object[projection.length];
            for (int i = 0; i < projection.length; i++) {
                fields[i] = r.getField(projection[i]);
            }
            out.collect((RowData) converter.toInternal(Row.of(fields)));
        }
    }

    @Override
    public boolean isEndOfStream(RowData nextElement) {
        return false;
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return produced;
    }
}
