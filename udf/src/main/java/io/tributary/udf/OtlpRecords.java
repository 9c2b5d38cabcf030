package io.tributary.udf;

import io.tributary.encoding.HeaderExtraction;
import io.tributary.otlp.Signal;
import io.tributary.rowbinary.RowBinaryReader;
import io.tributary.schema.SchemaFlavor;
import io.tributary.tables.OtelTable;
import io.tributary.tables.RecordBounds;
import io.tributary.tables.RecordRows;
import io.tributary.tables.RecordTranscoder;
import io.tributary.tables.TableLayouts;

import org.apache.flink.table.data.RowData;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns one Kafka record of a signal, in an encoding the job reads ({@code auto}: OTLP protobuf or
 * OTLP/JSON, told apart per record as the job does; or any name {@code kafka.encodings.<signal>}
 * takes, docs/encodings.md), into the rows the job writes for it, as Flink's internal
 * rows of {@link OtlpRowType}. The job's decoder encodes the rows; this reads them back, so the values
 * are the job's. A record is bounded as the job bounds it, by the defaults of {@link RecordBounds}:
 * one that would render more rows or bytes fails ({@code OversizedRecordException}) as an
 * undecodable one does. One instance belongs to one task (it reuses its buffers).
 */
public final class OtlpRecords {

    private final OtlpRowType type;
    private final RecordTranscoder transcoder;
    private final RecordRows rows;

    public OtlpRecords(Signal signal) {
        this(signal, "auto");
    }

    /**
     * @throws IllegalArgumentException when the signal has no encoding of that name
     */
    public OtlpRecords(Signal signal, String encoding) {
        TableLayouts layouts = TableLayouts.canonical(SchemaFlavor.MAP);
        this.type = OtlpRowType.of(signal);
        this.transcoder = RecordTranscoder.of(signal, encoding, HeaderExtraction.NONE, layouts);
        this.rows = new RecordRows(layouts, RecordBounds.DEFAULT);
    }

    public OtlpRowType type() {
        return type;
    }

    /**
     * The record's rows as Flink's internal {@link RowData} of the fields {@code projection}
     * names (indexes in {@link #type()}), the other columns skipped; in the order the job writes
     * them (per table, tables in {@link OtelTable} order).
     *
     * @throws Exception when the record is not valid OTLP of this signal (nothing is returned then)
     */
    public List<RowData> decode(byte[] value, int[] projection) throws Exception {
        List<RowData> out = new ArrayList<>();
        try {
            transcoder.transcode(value, rows);
            rows.emit(e -> {
                OtelTable table = OtelTable.values()[e.table];
                RowBinaryReader in = new RowBinaryReader(e.data, 0, e.length);
                for (int i = 0; i < e.rows; i++) {
                    out.add(type.read(table, in, projection));
                }
                if (in.hasMore()) {
                    throw new IllegalStateException(table + ": bytes left after " + e.rows + " rows");
                }
            }, "", 0, 0);
        } finally {
            rows.clear();
        }
        return out;
    }
}
