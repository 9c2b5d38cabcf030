package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.config.ConfigException;
import io.tributary.config.TributaryConfig;
import io.tributary.decode.DecodeFunction;
import io.tributary.tables.RecordBounds;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.streaming.api.operators.UdfStreamOperatorFactory;
import org.junit.jupiter.api.Test;

/**
 * {@code decode.max-rows-per-record} and {@code decode.max-bytes-per-record}: their defaults, the
 * values the decode operator gets, and bad values refused at start naming the key.
 */
class RecordBoundsWiringTest {

    private static RecordBounds decodeBounds(String... args) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        TributaryTopology.build(env, TributaryConfig.fromArgs(args));
        for (StreamNode n : env.getStreamGraph().getStreamNodes()) {
            if (n.getOperatorName().equals("Decode OTLP")) {
                return ((DecodeFunction) ((UdfStreamOperatorFactory<?>) n.getOperatorFactory()).getUserFunction()).bounds();
            }
        }
        throw new AssertionError("no decode operator");
    }

    @Test
    void theDecodeOperatorGetsTheBoundsOfTheSettings() {
        assertThat(decodeBounds()).isEqualTo(new RecordBounds(1_000_000, 64 << 20)).isEqualTo(RecordBounds.DEFAULT);
        assertThat(decodeBounds("--decode.max-rows-per-record", "7", "--decode.max-bytes-per-record", "3 mb"))
                .isEqualTo(new RecordBounds(7, 3 << 20));
        assertThat(decodeBounds("--decode.max-bytes-per-record", "2147483639")).isEqualTo(new RecordBounds(1_000_000, Integer.MAX_VALUE - 8));
    }

    @Test
    void badBoundsAreRefusedNamingTheKey() {
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--decode.max-bytes-per-record", "2gb"}))
                .isInstanceOf(ConfigException.class)
                .hasMessage("decode.max-bytes-per-record: invalid value '2gb': must be below 2 gb (one buffer holds a record's rows)");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--decode.max-bytes-per-record", "0"}))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("decode.max-bytes-per-record: invalid value '0'");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--decode.max-rows-per-record", "0"}))
                .isInstanceOf(ConfigException.class)
                .hasMessage("decode.max-rows-per-record: invalid value '0': must be at least 1");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--decode.max-rows-per-record", "lots"}))
                .isInstanceOf(ConfigException.class)
                .hasMessage("decode.max-rows-per-record: invalid value 'lots': must be a whole number");
    }
}
