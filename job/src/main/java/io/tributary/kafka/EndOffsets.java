package io.tributary.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import java.util.Collection;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The end offsets of topics, read once when a bounded job is built: where its run stops. */
public final class EndOffsets {

    private EndOffsets() {}

    /**
     * The next offset to be written to each partition of {@code topics} (with {@code
     * isolation.level = read_committed}, the last stable offset); a topic that does not exist
     * has no partitions.
     *
     * @throws IllegalStateException naming {@code kafka.bounded} and the cluster when Kafka cannot be asked
     */
    public static Map<TopicPartition, Long> latest(String bootstrap, Map<String, String> kafkaProperties,
            TopicSelection selection) {
        Properties p = new Properties();
        p.putAll(kafkaProperties);
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.remove(AdminClientConfig.CLIENT_ID_CONFIG);
        IsolationLevel isolation = "read_committed".equals(
                String.valueOf(kafkaProperties.get(ConsumerConfig.ISOLATION_LEVEL_CONFIG)).toLowerCase(Locale.ROOT))
                ? IsolationLevel.READ_COMMITTED : IsolationLevel.READ_UNCOMMITTED;
        Collection<String> topics = selection.named();
        try (Admin admin = Admin.create(p)) {
            if (selection.hasPatterns()) {
                topics = selection.resolve(admin.listTopics().names().get(60, TimeUnit.SECONDS));
            }
            Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
            for (Map.Entry<String, KafkaFuture<TopicDescription>> e
                    : admin.describeTopics(topics).topicNameValues().entrySet()) {
                TopicDescription d;
                try {
                    d = e.getValue().get(60, TimeUnit.SECONDS);
                } catch (ExecutionException ex) {
                    if (ex.getCause() instanceof UnknownTopicOrPartitionException) {
                        continue;
                    }
                    throw ex;
                }
                for (TopicPartitionInfo info : d.partitions()) {
                    specs.put(new TopicPartition(e.getKey(), info.partition()), OffsetSpec.latest());
                }
            }
            Map<TopicPartition, Long> out = new HashMap<>();
            if (specs.isEmpty()) {
                return out;
            }
            admin.listOffsets(specs, new ListOffsetsOptions(isolation)).all().get(60, TimeUnit.SECONDS)
                    .forEach((tp, info) -> out.put(tp, info.offset()));
            return out;
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new IllegalStateException("kafka.bounded: cannot read where topics " + topics + " end from "
                    + "kafka.bootstrap-servers = " + bootstrap + ": " + cause, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("kafka.bounded: interrupted while reading where topics " + topics + " end", e);
        }
    }
}
