package io.tributary.sink;

import io.tributary.tables.OtelTable;

import java.io.Serializable;

/**
 * A table the sink writes: which of the exporter's tables it is, and its name now. A table whose
 * signal is off keeps its name, so batches of an earlier run's checkpoint still find it.
 *
 * @param kind which table
 * @param name its name in the database
 * @param setting the setting that names it ({@code clickhouse.tables.*}), for messages
 * @param running true when its signal runs (its rows come from the topics read now)
 */
public record SinkTable(OtelTable kind, String name, String setting, boolean running) implements Serializable {}
