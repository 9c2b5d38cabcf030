package io.tributary.udf;

import io.tributary.otlp.Signal;

import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * The runtime side of the {@code otlp} format ({@link OtlpFormatFactory}): one Kafka record in, its
 * rows out, built as Flink's internal rows of the declared columns only.
 */
final class OtlpDeserializationSchema implements DeserializationSchema<RowData> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(OtlpDeserializationSchema.class);
    private static final int LOGGED_FAILURES = 10;

    private final Signal signal;
    private final String encoding;
    private final int[] projection;
    private final TypeInformation<RowData> produced;

    private transient OtlpRecords records;
    private transient Counter failures;
    private transient Counter decoded;
    private transient long logged;

    OtlpDeserializationSchema(Signal signal, String encoding, int[] projection, TypeInformation<RowData> produced) {
        this.signal = signal;
        this.encoding = encoding;
        this.projection = projection;
        this.produced = produced;
    }

    @Override
    public void open(InitializationContext context) {
        records = new OtlpRecords(signal, encoding);
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
        List<RowData> rows;
        try {
            rows = records.decode(message, projection);
        } catch (Exception | StackOverflowError e) {
            failures.inc();
            if (logged++ < LOGGED_FAILURES) {
                LOG.warn("format 'otlp': undecodable {} record ({} bytes), no rows: {}", signal.id(), message.length,
                        e.toString());
            }
            return;
        }
        decoded.inc(rows.size());
        rows.forEach(out::collect);
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
