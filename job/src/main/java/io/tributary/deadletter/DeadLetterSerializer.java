package io.tributary.deadletter;

import io.tributary.kafka.SourceRecord;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Writes a {@link DeadLetter} to the dead-letter topic: the original key and value byte for byte,
 * the original headers, and {@code tributary.*} headers naming the error and where the record came
 * from. The letter's timestamp is the time of failure (so retention counts from then); the
 * original one is a header. A value too large for the topic is left out, and a header says so,
 * rather than failing the job over and over.
 *
 * <p>{@link #open} creates the topic when it is missing (one partition, the broker's replication
 * factor, {@code max.message.bytes} 64 MiB: dead letters are rare and can be large), as Kafka
 * Connect does for its dead-letter topics, and reads its size limit; a topic that cannot be created
 * fails the job at start, naming {@code dlq.topic}. The limit read there only saves sending what
 * the topic would refuse: when it cannot be read (no {@code DESCRIBE_CONFIGS} right, no answer)
 * or changes later, the letter the broker refuses as too large is sent again by {@link #resend},
 * without its value.
 */
public final class DeadLetterSerializer {
    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterSerializer.class);

    public static final String ERROR_CLASS = "tributary.error.class";
    public static final String ERROR_MESSAGE = "tributary.error.message";
    public static final String SOURCE_TOPIC = "tributary.source.topic";
    public static final String SOURCE_PARTITION = "tributary.source.partition";
    public static final String SOURCE_OFFSET = "tributary.source.offset";
    public static final String SOURCE_TIMESTAMP = "tributary.source.timestamp";
    public static final String FAILED_AT = "tributary.failed.at";
    public static final String VALUE_OMITTED = "tributary.value.omitted";

    /** Letters refused for size are sent again this many times, each time leaving out more. */
    public static final int MAX_RESENDS = 2;

    /** Room kept for the key, the headers and the record overhead. */
    private static final int HEADROOM = 64 << 10;

    /** The largest dead letter the topic is created for, and that the producers send. */
    public static final int MAX_LETTER_BYTES = 64 << 20;

    /**
     * The dead-letter producers' properties: the user's Kafka client properties with room for a
     * letter as large as {@link #MAX_LETTER_BYTES}. A record must fit both {@code max.request.size}
     * and {@code buffer.memory} (32 MiB by default, which a larger letter exceeded: the send
     * failed, the job failed and replayed the record forever); the producer takes buffer memory as
     * it needs it, so the larger bound costs nothing until a large letter comes.
     */
    public static Properties producerProperties(Map<String, String> kafkaProperties) {
        Properties p = new Properties();
        p.putAll(kafkaProperties);
        p.putIfAbsent("max.request.size", Integer.toString(MAX_LETTER_BYTES));
        p.putIfAbsent("buffer.memory", Long.toString((long) MAX_LETTER_BYTES + (8 << 20)));
        p.putIfAbsent("compression.type", "lz4");
        return p;
    }

    /** Header values are kept short: a message can quote a lot of the record. */
    private static final int MAX_MESSAGE_CHARS = 4096;

    private final String topic;
    private final String bootstrap;
    private final Map<String, String> kafkaProperties;
    private int maxValueBytes;

    /**
     * @param topic the dead-letter topic
     * @param bootstrap the Kafka cluster, to check the topic at {@link #open}
     * @param kafkaProperties the client properties ({@code kafka.properties.*})
     */
    public DeadLetterSerializer(String topic, String bootstrap, Map<String, String> kafkaProperties) {
        this.topic = topic;
        this.bootstrap = bootstrap;
        this.kafkaProperties = Map.copyOf(kafkaProperties);
        Properties producer = producerProperties(kafkaProperties);
        this.maxValueBytes = (int) Math.min(Math.min(
                Long.parseLong(producer.getProperty("max.request.size")),
                Long.parseLong(producer.getProperty("buffer.memory"))), MAX_LETTER_BYTES) - HEADROOM;
    }

    /** Values larger than this are left out of their letter (the topic's and producer's limits, less room for the rest). */
    public int maxValueBytes() {
        return maxValueBytes;
    }

    /** Creates the topic if missing and reads its {@code max.message.bytes}. */
    public void open() throws IOException {
        Properties p = new Properties();
        p.putAll(kafkaProperties);
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.remove("client.id");
        try (Admin admin = Admin.create(p)) {
            ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            Config c;
            try {
                c = admin.describeConfigs(List.of(r)).all().get(30, TimeUnit.SECONDS).get(r);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e;
                }
                create(admin);
                c = admin.describeConfigs(List.of(r)).all().get(30, TimeUnit.SECONDS).get(r);
            }
            ConfigEntry max = c.get("max.message.bytes");
            if (max != null) {
                maxValueBytes = Math.min(maxValueBytes, Integer.parseInt(max.value()) - HEADROOM);
            }
        } catch (ExecutionException e) {
            LOG.warn("Cannot check dead-letter topic {}: {}", topic, e.getCause().toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while checking dead-letter topic " + topic, e);
        } catch (TimeoutException e) {
            LOG.warn("Cannot check dead-letter topic {}: no answer from Kafka in 30 s", topic);
        }
    }

    private void create(Admin admin) throws IOException, InterruptedException, TimeoutException {
        NewTopic t = new NewTopic(topic, Optional.of(1), Optional.empty())
                .configs(Map.of("max.message.bytes", Integer.toString(MAX_LETTER_BYTES)));
        try {
            admin.createTopics(List.of(t)).all().get(30, TimeUnit.SECONDS);
            LOG.info("Created dead-letter topic {}", topic);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IOException("dlq.topic: topic '" + topic + "' does not exist and cannot be created ("
                        + e.getCause() + "); create it, or set dlq.topic to \"\" to only log and count bad records",
                        e.getCause());
            }
        }
    }

    /** The letter: the original key, value and headers, and the {@code tributary.*} headers. */
    public ProducerRecord<byte[], byte[]> serialize(DeadLetter d) {
        SourceRecord r = d.record;
        RecordHeaders headers = new RecordHeaders();
        for (int i = 0; i < r.headerKeys.length; i++) {
            headers.add(r.headerKeys[i], r.headerValues[i]);
        }
        addTributaryHeaders(d, headers);
        byte[] value = r.value;
        if (value.length > maxValueBytes) {
            headers.add(VALUE_OMITTED, utf8(value.length + " bytes, more than the " + maxValueBytes
                    + " a dead letter's value may have here (the dead-letter topic's max.message.bytes and the"
                    + " producer's max.request.size and buffer.memory, less room for the headers)"));
            value = new byte[0];
        }
        return new ProducerRecord<>(topic, null, d.failedAt, r.key, value, headers);
    }

    /**
     * Whether the broker (or the producer, by its own limits) refused a letter for its size:
     * {@code MESSAGE_TOO_LARGE} or {@code RECORD_LIST_TOO_LARGE}. Such a letter is sent again by
     * {@link #resend}; any other failure is not the letter's fault.
     */
    public static boolean refusedForSize(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof RecordTooLargeException || t instanceof RecordBatchTooLargeException) {
                return true;
            }
        }
        return false;
    }

    /**
     * The letter sent again after the topic refused it for size {@code refusals} times ({@code 1..}
     * {@value #MAX_RESENDS}), with {@code refusal} the last answer: first without the value, then
     * also without the original key and headers, so only the {@code tributary.*} headers are left,
     * a few KiB at most. {@link #VALUE_OMITTED} says what was left out and why.
     */
    public ProducerRecord<byte[], byte[]> resend(DeadLetter d, int refusals, Throwable refusal) {
        if (refusals < 1 || refusals > MAX_RESENDS) {
            throw new IllegalArgumentException("refusals: " + refusals);
        }
        SourceRecord r = d.record;
        RecordHeaders headers = new RecordHeaders();
        boolean keepKey = refusals == 1;
        if (keepKey) {
            for (int i = 0; i < r.headerKeys.length; i++) {
                headers.add(r.headerKeys[i], r.headerValues[i]);
            }
        }
        addTributaryHeaders(d, headers);
        String answer = String.valueOf(refusal.getMessage());
        headers.add(VALUE_OMITTED, utf8(r.value.length + " bytes" + (keepKey ? ""
                : ", and the record's key and headers") + ", left out: the dead-letter topic refused the letter as too large ("
                + refusal.getClass().getSimpleName() + ": "
                + (answer.length() > MAX_MESSAGE_CHARS ? answer.substring(0, MAX_MESSAGE_CHARS) + "..." : answer) + ")"));
        return new ProducerRecord<>(topic, null, d.failedAt, keepKey ? r.key : null, new byte[0], headers);
    }

    private static void addTributaryHeaders(DeadLetter d, RecordHeaders headers) {
        SourceRecord r = d.record;
        String message = d.errorMessage.length() > MAX_MESSAGE_CHARS
                ? d.errorMessage.substring(0, MAX_MESSAGE_CHARS) + "..."
                : d.errorMessage;
        headers.add(ERROR_CLASS, utf8(d.errorClass));
        headers.add(ERROR_MESSAGE, utf8(message));
        headers.add(SOURCE_TOPIC, utf8(r.topic));
        headers.add(SOURCE_PARTITION, utf8(Integer.toString(r.partition)));
        headers.add(SOURCE_OFFSET, utf8(Long.toString(r.offset)));
        headers.add(SOURCE_TIMESTAMP, utf8(Long.toString(r.timestamp)));
        headers.add(FAILED_AT, utf8(Instant.ofEpochMilli(d.failedAt).toString()));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
