package io.tributary.schema;

import java.util.Locale;

/**
 * The two table layouts of the collector's {@code clickhouseexporter} ({@code clickhouse.schema}).
 */
public enum SchemaFlavor {
    /** Attributes in {@code Map(LowCardinality(String), String)} columns (the exporter's default). */
    MAP,
    /**
     * Attributes in {@code JSON} columns plus {@code *AttributesKeys} arrays (the exporter's
     * {@code json: true}); values are sent in RowBinary's native binary JSON encoding.
     */
    JSON;

    public static SchemaFlavor parse(String s) {
        switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "map":
                return MAP;
            case "json":
                return JSON;
            default:
                throw new IllegalArgumentException("must be map or json; got '" + s + "'");
        }
    }
}
