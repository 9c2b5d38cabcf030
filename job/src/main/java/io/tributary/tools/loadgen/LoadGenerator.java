package io.tributary.tools.loadgen;

import io.tributary.otlp.json.OtlpJsonWriter;

import com.google.protobuf.Message;

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
 * {@code bin/tributary loadgen}: produces OTLP traces, logs, metrics or profiles records ({@link
 * LoadShape}) to Kafka at a given rate. Rates and counts are in items: spans for traces, log
 * records for logs, data points for metrics, samples for profiles.
 *
 * <pre>
 * --signal traces|logs|metrics|profiles  what to produce (default traces)
 * --rate N             items per second (0: as fast as possible; default 10000)
 * --count N            items in all, then stop (0: until killed; default 0)
 * --encoding proto|json  record encoding: the Export*ServiceRequest, or OTLP/JSON as the
 *                      Collector's otlp_json writes it (default proto)
 * --topic T            default otlp_spans, otlp_logs, otlp_metrics or otlp_profiles by signal
 * --items-per-record N items per record (default 100)
 * --spans-per-trace N  the same, for traces only
 * --seed N             records are deterministic from it (default: the clock)
 * --kafka.bootstrap-servers H  default localhost:9092
 * --progress-file F    keep the number of items acknowledged by Kafka in F
 * </pre>
 */
public final class LoadGenerator {

    /** What {@code --signal} names: its record, default topic and the unit counted. */
    private enum Signal {
        TRACES("otlp_spans", "spans"),
        LOGS("otlp_logs", "log records"),
        METRICS("otlp_metrics", "data points"),
        PROFILES("otlp_profiles", "samples");

        final String defaultTopic;
        final String items;

        Signal(String defaultTopic, String items) {
            this.defaultTopic = defaultTopic;
            this.items = items;
        }

        Message next(LoadShape shape, long nowNanos) {
            return shape.next(io.tributary.otlp.Signal.valueOf(name()), nowNanos);
        }

        static Signal parse(String s) {
            for (Signal sig : values()) {
                if (sig.name().toLowerCase(Locale.ROOT).equals(s.toLowerCase(Locale.ROOT))) {
                    return sig;
                }
            }
            throw new IllegalArgumentException("--signal: must be traces, logs, metrics or profiles, not '" + s + "'");
        }
    }

    private LoadGenerator() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = io.tributary.tools.cli.Args.parse(args,
                "signal", "rate", "count", "encoding", "topic", "items-per-record", "spans-per-trace",
                "kafka.bootstrap-servers", "progress-file", "seed");
        Signal signal = Signal.parse(opts.getOrDefault("signal", "traces"));
        long rate = Long.parseLong(opts.getOrDefault("rate", "10000"));
        long count = Long.parseLong(opts.getOrDefault("count", "0"));
        String encoding = opts.getOrDefault("encoding", "proto").toLowerCase(Locale.ROOT);
        if (!encoding.equals("proto") && !encoding.equals("json")) {
            throw new IllegalArgumentException("--encoding: must be proto or json");
        }
        String topic = opts.getOrDefault("topic", signal.defaultTopic);
        int perRecord = itemsPerRecord(opts, signal);
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

        LoadShape shape = new LoadShape(seed, perRecord);
        AtomicLong acked = new AtomicLong();
        AtomicLong ackedRecords = new AtomicLong();
        AtomicReference<Exception> error = new AtomicReference<>();
        long sent = 0;
        long startNanos = System.nanoTime();
        long lastReport = startNanos;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            while (count == 0 || sent < count) {
                int n = (int) (count == 0 ? perRecord : Math.min(perRecord, count - sent));
                LoadShape s = n == perRecord ? shape : new LoadShape(seed + sent, n);
                Message req = signal.next(s, System.currentTimeMillis() * 1_000_000L);
                byte[] value = encoding.equals("json") ? OtlpJsonWriter.write(req) : req.toByteArray();
                producer.send(new ProducerRecord<>(topic, value), (md, ex) -> {
                    if (ex != null) {
                        error.compareAndSet(null, ex);
                    } else {
                        acked.addAndGet(n);
                        ackedRecords.incrementAndGet();
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
        System.out.printf(Locale.ROOT, "loadgen: %d %s in %d records to %s (%s) in %.1f s, %.0f %s/s%n",
                acked.get(), signal.items, ackedRecords.get(), topic, encoding, secs, acked.get() / secs, signal.items);
    }

    /** {@code --items-per-record}, or its traces alias {@code --spans-per-trace}; at least 1. */
    private static int itemsPerRecord(Map<String, String> opts, Signal signal) {
        String key = "items-per-record";
        if (opts.containsKey("spans-per-trace")) {
            if (signal != Signal.TRACES) {
                throw new IllegalArgumentException("--spans-per-trace: only for --signal traces; use --items-per-record");
            }
            if (opts.containsKey("items-per-record")) {
                throw new IllegalArgumentException("--spans-per-trace: give it or --items-per-record, not both");
            }
            key = "spans-per-trace";
        }
        int n;
        try {
            n = Integer.parseInt(opts.getOrDefault(key, "100"));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + key + ": not a number: " + opts.get(key));
        }
        if (n < 1) {
            throw new IllegalArgumentException("--" + key + ": must be at least 1");
        }
        return n;
    }

    private static void report(Path progress, long acked) throws Exception {
        if (progress != null) {
            Path tmp = progress.resolveSibling(progress.getFileName() + ".tmp");
            Files.writeString(tmp, Long.toString(acked), StandardCharsets.US_ASCII);
            Files.move(tmp, progress, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
    }
}
