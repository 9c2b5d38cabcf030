package io.tributary.testing;

import io.tributary.testing.RealServices;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Spans with unique ids (1, 2, 3, ... in the span id's low bytes), produced at a steady rate: what
 * the delivery tests count in ClickHouse ({@code uniqExact(SpanId)} against {@code count()}).
 */
public final class UniqueSpans {

    public static final int PER_RECORD = 100;

    private UniqueSpans() {}

    /**
     * Sends records of {@link #PER_RECORD} spans round-robin over {@code partitions} at {@code
     * rate} spans/s until {@code total} spans are sent or {@code stop} is set, then waits for every
     * acknowledgement; {@code acked} counts the acknowledged spans as they come.
     */
    public static void produce(String topic, int partitions, long total, int rate, AtomicBoolean stop, AtomicLong acked) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, RealServices.kafkaBootstrap());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "300000");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "300000");
        long start = System.nanoTime();
        List<Future<?>> pending = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (long sent = 0; sent < total && !stop.get(); sent += PER_RECORD) {
                pending.add(producer.send(new ProducerRecord<>(topic, (int) (sent / PER_RECORD % partitions), null,
                        spans(sent).toByteArray()), (md, e) -> {
                            if (e == null) {
                                acked.addAndGet(PER_RECORD);
                            }
                        }));
                long due = start + (long) ((sent + PER_RECORD) * 1e9 / rate);
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
            }
            producer.flush();
            for (Future<?> f : pending) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IllegalStateException("producing failed", e);
        }
    }

    /** One record: spans {@code first + 1 .. first + PER_RECORD}. */
    public static ExportTraceServiceRequest spans(long first) {
        ScopeSpans.Builder ss = ScopeSpans.newBuilder();
        long now = System.currentTimeMillis() * 1_000_000L;
        for (int i = 0; i < PER_RECORD; i++) {
            long id = first + i + 1;
            byte[] spanId = new byte[8];
            for (int b = 0; b < 8; b++) {
                spanId[7 - b] = (byte) (id >>> (8 * b));
            }
            byte[] traceId = new byte[16];
            System.arraycopy(spanId, 0, traceId, 8, 8);
            traceId[0] = 1;
            ss.addSpans(Span.newBuilder().setTraceId(ByteString.copyFrom(traceId)).setSpanId(ByteString.copyFrom(spanId))
                    .setName("fault").setStartTimeUnixNano(now).setEndTimeUnixNano(now + 1_000));
        }
        return ExportTraceServiceRequest.newBuilder()
                .addResourceSpans(ResourceSpans.newBuilder()
                        .setResource(Resource.newBuilder().addAttributes(KeyValue.newBuilder().setKey("service.name")
                                .setValue(AnyValue.newBuilder().setStringValue("faults"))))
                        .addScopeSpans(ss))
                .build();
    }
}
