package io.tributary.schema;

import java.util.Locale;

/**
 * The table layouts the job writes ({@code clickhouse.schema}): the two of the collector's {@code
 * clickhouseexporter}, and Coroot's.
 */
public enum SchemaFlavor {
    /** Attributes in {@code Map(LowCardinality(String), String)} columns (the exporter's default). */
    MAP,
    /**
     * Attributes in {@code JSON} columns plus {@code *AttributesKeys} arrays (the exporter's
     * {@code json: true}); values are sent in RowBinary's native binary JSON encoding.
     */
    JSON,
    /**
     * Coroot's {@code otel_traces} and {@code otel_logs} with its materialized views, rows in
     * Coroot's conventions ({@code SPAN_KIND_SERVER}, {@code STATUS_CODE_ERROR}, {@code Duration
     * Int64}, the scope in the attributes); traces and logs only. See {@code
     * io.tributary.tables.coroot}.
     */
    COROOT;

    public static SchemaFlavor parse(String s) {
        switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "map":
                return MAP;
            case "json":
                return JSON;
            case "coroot":
                return COROOT;
            default:
                throw new IllegalArgumentException("must be map, json or coroot; got '" + s + "'");
        }
    }
}
