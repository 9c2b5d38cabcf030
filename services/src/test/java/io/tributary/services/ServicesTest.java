package io.tributary.services;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServicesTest {

    @TempDir
    Path tmp;

    @Test
    void namesAreCheckedAndPutInStartOrder() {
        assertThat(Services.names(List.of())).containsExactly("clickhouse", "kafka");
        assertThat(Services.names(List.of("kafka", "clickhouse"))).containsExactly("clickhouse", "kafka");
        assertThat(Services.names(List.of("kafka"))).containsExactly("kafka");
        assertThatThrownBy(() -> Services.names(List.of("zookeeper")))
                .hasMessage("unknown service 'zookeeper' (known: clickhouse kafka)");
    }

    @Test
    void exportsAreQuotedForTheShell() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("TRIBUTARY_STARTED", "clickhouse kafka");
        env.put("TRIBUTARY_TEST_KAFKA_CA_FILE", "/tmp/it's here/ca.pem");
        assertThat(Services.shellExports(env)).isEqualTo(
                "export TRIBUTARY_STARTED='clickhouse kafka'\n"
                        + "export TRIBUTARY_TEST_KAFKA_CA_FILE='/tmp/it'\\''s here/ca.pem'\n");
    }

    @Test
    void statusOfAFreshStateDirIsStoppedAndAddressesFollowTheSettings() {
        Services s = new Services(Map.of("HOME", tmp.toString(), "TRIBUTARY_STATE_DIR", tmp.resolve("s").toString(),
                "TRIBUTARY_CLICKHOUSE_PORT", "28123"), tmp);
        assertThat(s.run(List.of("status"))).isEqualTo(3);
        assertThat(s.run(List.of("is-running", "kafka"))).isEqualTo(1);
        assertThat(s.run(List.of("stop"))).isZero();
        assertThat(s.run(List.of("kafka-secure"))).as("no CA made yet").isEqualTo(1);
        assertThat(s.run(List.of("frobnicate"))).isEqualTo(2);
        assertThat(s.run(List.of("cluster", "status"))).isEqualTo(3);
        assertThat(s.run(List.of("pid", "flink-taskmanager"))).isEqualTo(1);
        assertThat(s.run(List.of("pid", "kafka"))).isEqualTo(1);
        assertThatThrownBy(() -> s.run(List.of("pid", "zookeeper"))).hasMessageStartingWith("unknown service 'zookeeper'");
        assertThat(s.settings().clickHouseUrl()).isEqualTo("http://127.0.0.1:28123");
    }
}
