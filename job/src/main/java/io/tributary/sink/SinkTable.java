package io.tributary.sink;

import io.tributary.schema.TableName;
import io.tributary.tables.OtelTable;

import java.io.Serializable;

/**
 * A table the sink writes: which of the exporter's tables it is, and its name now. A table whose
 * signal is off keeps its name, so batches of an earlier run's checkpoint still find it.
 *
 * @param kind which table
 * @param table its name in the database and the setting that names it ({@code clickhouse.tables.*})
 * @param running true when its signal runs (its rows come from the topics read now)
 */
public record SinkTable(OtelTable kind, TableName table, boolean running) implements Serializable {

    /** The table's name in the database. */
    public String name() {
        return table.name();
    }

    /** The setting that names the table, for messages. */
    public String setting() {
        return table.setting();
    }
}
