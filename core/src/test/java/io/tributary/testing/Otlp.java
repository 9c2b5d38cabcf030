package io.tributary.testing;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;

import java.util.List;

/** Short builders of OTLP attribute values for tests, meant to be imported statically. */
public final class Otlp {

    private Otlp() {}

    public static KeyValue kv(String key, AnyValue value) {
        return KeyValue.newBuilder().setKey(key).setValue(value).build();
    }

    public static AnyValue str(String v) {
        return AnyValue.newBuilder().setStringValue(v).build();
    }

    public static AnyValue i(long v) {
        return AnyValue.newBuilder().setIntValue(v).build();
    }

    public static AnyValue d(double v) {
        return AnyValue.newBuilder().setDoubleValue(v).build();
    }

    public static AnyValue b(boolean v) {
        return AnyValue.newBuilder().setBoolValue(v).build();
    }

    public static AnyValue bytes(byte... v) {
        return AnyValue.newBuilder().setBytesValue(ByteString.copyFrom(v)).build();
    }

    public static AnyValue arr(AnyValue... values) {
        return AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder().addAllValues(List.of(values))).build();
    }

    public static AnyValue map(KeyValue... entries) {
        return map(List.of(entries));
    }

    /** A {@code kvlistValue} of {@code entries}, in their order. */
    public static AnyValue map(List<KeyValue> entries) {
        return AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder().addAllValues(entries)).build();
    }
}
