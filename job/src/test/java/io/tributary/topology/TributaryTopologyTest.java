package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.config.TributaryConfig;
import io.tributary.sink.Delivery;

import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The wiring as Flink sees it, without running it: the released uids on their operators, the
 * committer only when exactly once, and the checkpointing mode each delivery needs.
 */
class TributaryTopologyTest {

    @ParameterizedTest
    @EnumSource(Delivery.class)
    void operatorsKeepTheirUidsAndExactlyOnceAddsTheCommitterAndAlignedCheckpoints(Delivery delivery) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        TributaryConfig config = TributaryConfig.fromArgs(new String[] {
            "--sink.delivery", delivery.id(), "--parallelism", "2", "--decode.parallelism", "3"});
        TributaryTopology.build(env, config);
        StreamGraph graph = env.getStreamGraph();
        Map<String, String> uidByName = new TreeMap<>();
        Map<String, Integer> parallelismByName = new TreeMap<>();
        for (StreamNode n : graph.getStreamNodes()) {
            uidByName.put(n.getOperatorName(), n.getTransformationUID());
            parallelismByName.put(n.getOperatorName(), n.getParallelism());
        }
        assertThat(uidByName)
                .containsEntry("Source: Kafka: OTLP traces, logs, metrics", TributaryTopology.SOURCE_UID)
                .containsEntry("Decode OTLP", TributaryTopology.DECODE_UID)
                .containsEntry("ClickHouse: Native: Writer", TributaryTopology.SINK_UID)
                .containsEntry("Kafka: dead letters: Writer", TributaryTopology.DLQ_SINK_UID);
        assertThat(parallelismByName)
                .containsEntry("Source: Kafka: OTLP traces, logs, metrics", 2)
                .containsEntry("Decode OTLP", 3)
                .containsEntry("ClickHouse: Native: Writer", 3);
        if (delivery == Delivery.EXACTLY_ONCE) {
            assertThat(uidByName).containsKey("ClickHouse: Native: Committer");
            assertThat(uidByName.get("ClickHouse: Native: Committer")).isNotBlank();
            assertThat(graph.getCheckpointConfig().getCheckpointingConsistencyMode()).isEqualTo(CheckpointingMode.EXACTLY_ONCE);
        } else {
            assertThat(uidByName.keySet()).noneMatch(name -> name.startsWith("ClickHouse") && name.endsWith("Committer"));
            assertThat(graph.getCheckpointConfig().getCheckpointingConsistencyMode()).isEqualTo(CheckpointingMode.AT_LEAST_ONCE);
        }
    }

    @Test
    void consumerFetchesLargeBatchesUnlessTheUserSaysOtherwise() {
        Properties defaults = TributaryTopology.consumerProperties(TributaryConfig.fromArgs(new String[0]));
        assertThat(defaults).containsEntry("fetch.min.bytes", "1048576").containsEntry("fetch.max.wait.ms", "100")
                .containsEntry("max.partition.fetch.bytes", "8388608").containsEntry("receive.buffer.bytes", "1048576");
        Properties given = TributaryTopology.consumerProperties(TributaryConfig.fromArgs(new String[] {
            "--kafka.properties.fetch.min.bytes", "1", "--kafka.properties.security.protocol", "PLAINTEXT"}));
        assertThat(given).containsEntry("fetch.min.bytes", "1").containsEntry("security.protocol", "PLAINTEXT")
                .containsEntry("max.partition.fetch.bytes", "8388608");
    }
}
