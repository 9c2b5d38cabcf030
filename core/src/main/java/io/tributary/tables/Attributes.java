package io.tributary.tables;

import io.opentelemetry.proto.common.v1.KeyValue;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.schema.AttributeValue;

import java.util.List;
import java.util.Map;

/**
 * An OTLP attribute list as a row column sees it. The {@code map} flavour reads it as a {@link
 * StringMap}, the {@code json} flavour as flattened paths ({@link BinaryJson}); each is built on
 * first use, once per list.
 * Reused: {@link #set} replaces the content.
 */
public final class Attributes implements AttributeValue {

    private List<KeyValue> list = List.of();
    private final StringMap map;
    private boolean mapReady = true;
    private BinaryJson.Paths json;
    private boolean jsonReady = true;

    public Attributes() {
        this(8);
    }

    public Attributes(int capacity) {
        map = new StringMap(capacity);
    }

    /** A new, independent instance holding {@code attributes}. */
    public static Attributes of(List<KeyValue> attributes) {
        Attributes a = new Attributes(attributes.size());
        a.set(attributes);
        return a;
    }

    public void set(List<KeyValue> attributes) {
        this.list = attributes;
        this.mapReady = false;
        this.jsonReady = false;
    }

    /** The pairs as they arrived. */
    public List<KeyValue> list() {
        return list;
    }

    /** The exporter's {@code Map(LowCardinality(String), String)} value; see {@link StringMap}. */
    public StringMap asStringMap() {
        if (!mapReady) {
            map.setAttributes(list);
            mapReady = true;
        }
        return map;
    }

    @Override
    public void writeStringMap(RowBinaryWriter out) {
        asStringMap().write(out);
    }

    /** Writes the {@code JSON} column value in RowBinary's native binary JSON encoding. */
    @Override
    public void writeJson(RowBinaryWriter out) {
        BinaryJson.write(out, jsonPaths(), Map.of());
    }

    /**
     * Writes the {@code JSON(path Type, ...)} column value; {@code typedPaths} maps each typed
     * path to its type's binary tag (only Int64, Float64, Bool and String paths are supported).
     */
    public void writeJson(RowBinaryWriter out, Map<String, Integer> typedPaths) {
        BinaryJson.write(out, jsonPaths(), typedPaths);
    }

    /** Writes the {@code *AttributesKeys Array(LowCardinality(String))} value. */
    @Override
    public void writeJsonKeys(RowBinaryWriter out) {
        BinaryJson.writeKeys(out, jsonPaths());
    }

    private BinaryJson.Paths jsonPaths() {
        if (json == null) {
            json = new BinaryJson.Paths();
            jsonReady = false;
        }
        if (!jsonReady) {
            json.set(list);
            jsonReady = true;
        }
        return json;
    }

    /**
     * The exporter's {@code GetServiceName}: the first {@code service.name} attribute rendered by
     * {@code AsString}, or "" when there is none.
     */
    public static String serviceName(List<KeyValue> attributes) {
        for (KeyValue kv : attributes) {
            if ("service.name".equals(kv.getKey())) {
                return AnyValues.asString(kv.getValue());
            }
        }
        return "";
    }
}
