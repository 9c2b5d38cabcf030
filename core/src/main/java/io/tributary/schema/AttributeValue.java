package io.tributary.schema;

import io.tributary.rowbinary.RowBinaryWriter;

/**
 * The value of an attributes column: an OTLP attribute list as the exporter stores it, as a {@code
 * Map(LowCardinality(String), String)} (every attribute, values rendered by {@code AsString},
 * sorted by key bytes) or as a {@code JSON} value and its keys.
 */
public interface AttributeValue {

    /** The {@code Map} value: the entry count, then each key and value as a String. */
    void writeStringMap(RowBinaryWriter out);

    /** The {@code JSON} value in RowBinary's native binary JSON encoding. */
    void writeJson(RowBinaryWriter out);

    /** The {@code *AttributesKeys Array(LowCardinality(String))} value. */
    void writeJsonKeys(RowBinaryWriter out);
}
