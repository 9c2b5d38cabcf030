package io.tributary.testing;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.tributary.otlp.Signal;

import java.util.ArrayList;
import java.util.List;

/**
 * OTLP export requests whose first resource block has an exact encoded size: the length byte
 * after a protobuf record's leading {@code 0x0A} takes every value, '{' (123) and JSON's
 * whitespace among them (what {@code kafka.encoding auto} must never take for JSON).
 */
public final class SizedRequests {

    private SizedRequests() {}

    /** The three signals' requests, their blocks and how to fill a block. */
    public enum Kind {
        TRACES(ExportTraceServiceRequest.getDefaultInstance(), ResourceSpans.getDefaultInstance(), Signal.TRACES),
        LOGS(ExportLogsServiceRequest.getDefaultInstance(), ResourceLogs.getDefaultInstance(), Signal.LOGS),
        METRICS(ExportMetricsServiceRequest.getDefaultInstance(), ResourceMetrics.getDefaultInstance(), Signal.METRICS);

        public final Message request;
        public final Message block;
        public final Signal signal;

        Kind(Message request, Message block, Signal signal) {
            this.request = request;
            this.block = block;
            this.signal = signal;
        }

        /** A scope block (field 2 of the resource block) with one item named {@code name}. */
        public Message scope(String name) {
            switch (this) {
                case TRACES:
                    return ScopeSpans.newBuilder().setScope(InstrumentationScope.newBuilder().setName("lib"))
                            .addSpans(Span.newBuilder().setName(name)
                                    .setTraceId(ByteString.copyFrom(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                                        13, 14, 15, 16}))
                                    .setStartTimeUnixNano(1_700_000_000_000_000_000L)
                                    .setEndTimeUnixNano(1_700_000_000_500_000_000L))
                            .build();
                case LOGS:
                    return ScopeLogs.newBuilder().addLogRecords(LogRecord.newBuilder()
                            .setTimeUnixNano(1_700_000_000_000_000_000L)
                            .setBody(AnyValue.newBuilder().setStringValue(name))).build();
                default:
                    return ScopeMetrics.newBuilder().addMetrics(Metric.newBuilder().setName(name)
                            .setGauge(Gauge.newBuilder().addDataPoints(NumberDataPoint.newBuilder()
                                    .setTimeUnixNano(1_700_000_000_000_000_000L).setAsDouble(1.5)))).build();
            }
        }
    }

    /**
     * A resource block of {@code kind} whose encoding is exactly {@code size} bytes: as much content
     * as fits (a resource with attributes, a scope block with one item), padded with its
     * {@code schema_url} (field 3).
     */
    public static Message block(Kind kind, int size) {
        List<Message> bases = new ArrayList<>();
        Message.Builder full = kind.block.newBuilderForType();
        FieldDescriptor resource = full.getDescriptorForType().findFieldByNumber(1);
        FieldDescriptor scopes = full.getDescriptorForType().findFieldByNumber(2);
        full.setField(resource, Resource.newBuilder().addAttributes(KeyValue.newBuilder().setKey("service.name")
                .setValue(AnyValue.newBuilder().setStringValue("checkout"))).build());
        full.addRepeatedField(scopes, kind.scope("GET /cart"));
        bases.add(full.build());
        bases.add(kind.block.newBuilderForType().addRepeatedField(scopes, kind.scope("x")).build());
        bases.add(kind.block.newBuilderForType().setField(resource, Resource.newBuilder().addAttributes(
                KeyValue.newBuilder().setKey("k").setValue(AnyValue.newBuilder().setStringValue("v")))
                .build()).build());
        bases.add(kind.block.newBuilderForType().setField(resource, Resource.getDefaultInstance()).build());
        bases.add(kind.block);
        FieldDescriptor schemaUrl = full.getDescriptorForType().findFieldByNumber(3);
        for (Message base : bases) {
            int missing = size - base.getSerializedSize();
            if (missing == 0) {
                return base;
            }
            for (int n = Math.max(0, missing - 6); n <= missing; n++) {
                Message m = base.toBuilder().setField(schemaUrl, "u".repeat(n)).build();
                if (m.getSerializedSize() == size) {
                    return m;
                }
            }
        }
        throw new AssertionError("no " + kind + " block of " + size + " bytes");
    }

    /** A request of {@code kind} whose first block is {@code firstBlockSize} bytes, then the given blocks' sizes. */
    public static Message request(Kind kind, int firstBlockSize, int... moreBlockSizes) {
        Message.Builder req = kind.request.newBuilderForType();
        FieldDescriptor blocks = req.getDescriptorForType().findFieldByNumber(1);
        req.addRepeatedField(blocks, block(kind, firstBlockSize));
        for (int size : moreBlockSizes) {
            req.addRepeatedField(blocks, block(kind, size));
        }
        return req.build();
    }
}
