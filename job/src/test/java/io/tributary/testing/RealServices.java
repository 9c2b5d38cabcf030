package io.tributary.testing;

import io.tributary.clickhouse.ClickHouseClient;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.services.TestServices;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

/**
 * The real Kafka broker and ClickHouse server the integration tests run against, started by
 * {@code bin/tributary test} (which passes their addresses as system properties), or, for a test
 * run without it (an IDE, {@code mvn verify} alone), by the services program on first use ({@link
 * TestServices}: the same ports and state directory; stopped at exit if this JVM started them).
 */
public final class RealServices {

    private RealServices() {}

    public static String clickHouseUrl() {
        return required("tributary.clickhouse.url", "TRIBUTARY_TEST_CLICKHOUSE_URL");
    }

    public static String kafkaBootstrap() {
        return required("tributary.kafka.bootstrap", "TRIBUTARY_TEST_KAFKA_BOOTSTRAP");
    }

    /**
     * The local broker's secure listeners and their CA (the services program's
     * {@code io.tributary.services.Kafka} makes them): {@code sasl_ssl}, {@code ssl} (host:port),
     * {@code ca_file}, {@code ca_key}, {@code oauth_key} (what the broker's OAUTHBEARER tokens must be
     * signed with).
     */
    public static String kafkaSecure(String what) {
        String env = "TRIBUTARY_TEST_KAFKA_" + what.toUpperCase(java.util.Locale.ROOT)
                + (what.endsWith("ssl") ? "_BOOTSTRAP" : "");
        String v = System.getenv(env);
        if (v == null || v.isBlank()) {
            v = TestServices.addresses().get(env);
        }
        if (v == null || v.isBlank()) {
            throw new IllegalStateException(env + " is not set: the test Kafka has no SASL_SSL and SSL listeners"
                    + " (they need openssl: bin/tributary test installs it)");
        }
        return v;
    }

    private static String required(String key, String env) {
        String v = System.getProperty(key);
        if (v == null || v.isBlank() || v.startsWith("${")) {
            v = TestServices.addresses().get(env);
        }
        return v;
    }

    /** The settings that point {@code bin/lib/services.sh} at these services, for a test that runs it. */
    public static java.util.Map<String, String> servicesSettings() {
        return TestServices.settings();
    }

    public static ClickHouseClient clickHouse() throws Exception {
        return new ClickHouseClient(ClickHouseEndpoint.of(clickHouseUrl()), Duration.ofMinutes(2));
    }

    /** Rows in {@code db.table}. */
    public static long count(String db, String table) throws Exception {
        return Long.parseLong(clickHouse().query("SELECT count() FROM `" + db + "`.`" + table + "` FORMAT TSV").strip());
    }

    /** Waits until {@code db.table} holds {@code n} rows, at most {@code seconds}. */
    public static void awaitCount(String db, String table, long n, int seconds) throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(seconds);
        while (count(db, table) < n && System.nanoTime() < deadline) {
            Thread.sleep(300);
        }
    }

    /** {@code a} then {@code b}: job arguments with more keys (a later key replaces an earlier one). */
    public static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /**
     * The arguments of a bounded traces-only job from the start of {@code topic} into database
     * {@code db}, dead letters to {@code dlq} ("" for none), one source, batches of up to 100,000
     * rows, no checkpoint before the end; {@code more} replaces or adds keys.
     */
    public static String[] boundedTraces(String topic, String dlq, String db, String... more) {
        return concat(new String[] {
            "--signals", "traces",
            "--kafka.bootstrap-servers", kafkaBootstrap(),
            "--kafka.topics.traces", topic,
            "--kafka.group-id", db,
            "--kafka.bounded", "true",
            "--kafka.starting-offsets", "earliest",
            "--dlq.topic", dlq,
            "--parallelism", "1",
            "--clickhouse.url", clickHouseUrl(),
            "--clickhouse.database", db,
            "--sink.batch.max-rows", "100000",
            "--checkpoint.interval", "1h"
        }, more);
    }

    /** A header of a Kafka record (a dead letter's), as text. */
    public static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        return new String(record.headers().lastHeader(name).value(), java.nio.charset.StandardCharsets.UTF_8);
    }

    public static String uniqueName(String prefix) {
        return prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    public static void createTopic(String topic, int partitions) throws Exception {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafkaBootstrap());
        try (Admin admin = Admin.create(p)) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
        }
    }

    /** Sends every value, round-robin over partitions, and waits for all acknowledgements. */
    public static void produce(String topic, List<byte[]> values) throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafkaBootstrap());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(16 << 20));
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            int partitions = producer.partitionsFor(topic).size();
            for (int i = 0; i < values.size(); i++) {
                producer.send(new ProducerRecord<>(topic, i % partitions, null, values.get(i))).get();
            }
        }
    }

    /** Sends every value to one partition and waits for all acknowledgements. */
    public static void produceTo(String topic, int partition, List<byte[]> values) throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafkaBootstrap());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            List<java.util.concurrent.Future<?>> acks = new ArrayList<>();
            for (byte[] v : values) {
                acks.add(producer.send(new ProducerRecord<>(topic, partition, null, v)));
            }
            for (java.util.concurrent.Future<?> f : acks) {
                f.get();
            }
        }
    }

    /** Every record of partition 0 of {@code topic}, from the beginning to the current end. */
    public static List<ConsumerRecord<byte[], byte[]>> consumeAll(String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafkaBootstrap());
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(64 << 20));
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
            TopicPartition tp = new TopicPartition(topic, 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            long deadline = System.currentTimeMillis() + 30_000;
            while (consumer.position(tp) < end && System.currentTimeMillis() < deadline) {
                consumer.poll(Duration.ofMillis(500)).forEach(out::add);
            }
        }
        return out;
    }

    /** A MiniCluster of one TaskManager with {@code slots} slots, for a test class. */
    public static MiniClusterExtension miniCluster(int slots) {
        return new MiniClusterExtension(
                new MiniClusterResourceConfiguration.Builder()
                        .setNumberTaskManagers(1)
                        .setNumberSlotsPerTaskManager(slots)
                        .build());
    }

    /** {@link #miniCluster(int)} whose metrics the test reads from {@code reporter}. */
    public static MiniClusterExtension miniCluster(int slots, org.apache.flink.runtime.testutils.InMemoryReporter reporter) {
        return new MiniClusterExtension(
                new MiniClusterResourceConfiguration.Builder()
                        .setConfiguration(reporter.addToConfiguration(new org.apache.flink.configuration.Configuration()))
                        .setNumberTaskManagers(1)
                        .setNumberSlotsPerTaskManager(slots)
                        .build());
    }

    /**
     * The metrics named {@code name} of {@code job} in groups whose key variable {@code key}
     * (e.g. {@code <endpoint>}) is {@code value} (null: groups without that variable).
     */
    public static List<org.apache.flink.metrics.Metric> metrics(org.apache.flink.runtime.testutils.InMemoryReporter reporter,
            org.apache.flink.api.common.JobID job, String key, String value, String name) {
        List<org.apache.flink.metrics.Metric> out = new ArrayList<>();
        for (java.util.Map.Entry<org.apache.flink.metrics.MetricGroup, java.util.Map<String, org.apache.flink.metrics.Metric>> g
                : reporter.getMetricsByGroup().entrySet()) {
            java.util.Map<String, String> vars = g.getKey().getAllVariables();
            org.apache.flink.metrics.Metric m = g.getValue().get(name);
            if (m != null && job.toString().equals(vars.get("<job_id>"))
                    && (value == null ? !vars.containsKey(key) : value.equals(vars.get(key)))) {
                out.add(m);
            }
        }
        return out;
    }

    /** The counters of {@link #metrics}, summed over subtasks. */
    public static long counter(org.apache.flink.runtime.testutils.InMemoryReporter reporter,
            org.apache.flink.api.common.JobID job, String key, String value, String name) {
        return metrics(reporter, job, key, value, name).stream()
                .filter(m -> m instanceof org.apache.flink.metrics.Counter)
                .mapToLong(m -> ((org.apache.flink.metrics.Counter) m).getCount()).sum();
    }

    /** Every row of {@code db.table}, every column as ClickHouse prints it (TSV), sorted. */
    public static List<String> rows(String db, String table) throws Exception {
        List<String> out = new ArrayList<>(java.util.Arrays.asList(clickHouse()
                .query("SELECT * FROM `" + db + "`.`" + table + "` FORMAT TSV").split("\n")));
        out.removeIf(String::isEmpty);
        out.sort(null);
        return out;
    }

    /** Drops the databases, if they exist. */
    public static void dropDatabases(String... dbs) throws Exception {
        for (String db : dbs) {
            clickHouse().execute("DROP DATABASE IF EXISTS `" + db + "`");
        }
    }

    /** What a job with {@code config} says when it fails to start (every cause, as text). */
    public static String startFailure(io.tributary.config.TributaryConfig config) {
        try {
            io.tributary.TributaryJob.run(org.apache.flink.streaming.api.environment.StreamExecutionEnvironment
                    .getExecutionEnvironment(), config);
        } catch (Exception e) {
            return org.apache.flink.util.ExceptionUtils.stringifyException(e);
        }
        throw new AssertionError("the job ran, but it should have failed at start");
    }
}
