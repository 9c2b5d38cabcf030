package io.tributary.loadgen;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code bin/tributary loadgen}: produces OTLP trace records to Kafka at a given rate.
 *
 * <pre>
 * --rate N             spans per second (0: as fast as possible; default 10000)
 * --count N            spans in all, then stop (0: until killed; default 0)
 * --encoding proto|json  record encoding (default proto)
 * --topic T            default otlp_spans
 * --spans-per-trace N  spans per record (default 100)
 * --kafka.bootstrap-servers H  default localhost:9092
 * --progress-file F    keep the number of spans acknowledged by Kafka in F
 * </pre>
 */
public final class LoadGenerator {

    private LoadGenerator() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = io.tributary.cli.Args.parse(args,
                "rate", "count", "encoding", "topic", "spans-per-trace", "kafka.bootstrap-servers", "progress-file", "seed");
        long rate = Long.parseLong(opts.getOrDefault("rate", "10000"));
        long count = Long.parseLong(opts.getOrDefault("count", "0"));
        String encoding = opts.getOrDefault("encoding", "proto").toLowerCase(Locale.ROOT);
        if (!encoding.equals("proto") && !encoding.equals("json")) {
            throw new IllegalArgumentException("--encoding: must be proto or json");
        }
        String topic = opts.getOrDefault("topic", "otlp_spans");
        int perTrace = Integer.parseInt(opts.getOrDefault("spans-per-trace", "100"));
        String bootstrap = opts.getOrDefault("kafka.bootstrap-servers", "localhost:9092");
        Path progress = opts.containsKey("progress-file") ? Path.of(opts.get("progress-file")) : null;
        long seed = Long.parseLong(opts.getOrDefault("seed", Long.toString(System.nanoTime())));

        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(1 << 20));
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(16 << 20));

        LoadShape shape = new LoadShape(seed, perTrace);
        AtomicLong acked = new AtomicLong();
        AtomicReference<Exception> error = new AtomicReference<>();
        long sent = 0;
        long startNanos = System.nanoTime();
        long lastReport = startNanos;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            while (count == 0 || sent < count) {
                int n = (int) (count == 0 ? perTrace : Math.min(perTrace, count - sent));
                LoadShape s = n == perTrace ? shape : new LoadShape(seed + sent, n);
                ExportTraceServiceRequest req = s.next(System.currentTimeMillis() * 1_000_000L);
                byte[] value = encoding.equals("json") ? OtlpJsonWriter.write(req) : req.toByteArray();
                producer.send(new ProducerRecord<>(topic, value), (md, ex) -> {
                    if (ex != null) {
                        error.compareAndSet(null, ex);
                    } else {
                        acked.addAndGet(n);
                    }
                });
                sent += n;
                if (error.get() != null) {
                    throw error.get();
                }
                if (rate > 0) {
                    long due = startNanos + (long) (sent * 1e9 / rate);
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    }
                }
                long now = System.nanoTime();
                if (now - lastReport > 1_000_000_000L) {
                    lastReport = now;
                    report(progress, acked.get());
                }
            }
            producer.flush();
        }
        if (error.get() != null) {
            throw error.get();
        }
        report(progress, acked.get());
        double secs = (System.nanoTime() - startNanos) / 1e9;
        System.out.printf(Locale.ROOT, "loadgen: %d spans in %d records to %s (%s) in %.1f s, %.0f spans/s%n",
                acked.get(), (acked.get() + perTrace - 1) / perTrace, topic, encoding, secs, acked.get() / secs);
    }

    private static void report(Path progress, long acked) throws Exception {
        if (progress != null) {
            Path tmp = progress.resolveSibling(progress.getFileName() + ".tmp");
            Files.writeString(tmp, Long.toString(acked), StandardCharsets.US_ASCII);
            Files.move(tmp, progress, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
    }
}
