package io.tributary.services;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsTest {

    @TempDir
    Path tmp;

    private Map<String, String> env(String... kv) {
        Map<String, String> env = new HashMap<>();
        env.put("HOME", tmp.resolve("home").toString());
        for (int i = 0; i < kv.length; i += 2) {
            env.put(kv[i], kv[i + 1]);
        }
        return env;
    }

    @Test
    void defaultsAndDerivedPorts() throws Exception {
        Settings s = Settings.from(env(), tmp);
        assertThat(s.clickHousePort()).isEqualTo(8123);
        assertThat(s.clickHouseTcpPort()).isEqualTo(8124);
        assertThat(s.kafkaPort()).isEqualTo(9092);
        assertThat(s.kafkaControllerPort()).isEqualTo(9093);
        assertThat(s.kafkaSaslSslPort()).isEqualTo(9094);
        assertThat(s.kafkaSslPort()).isEqualTo(9095);
        assertThat(s.kafkaPartitions()).isEqualTo(4);
        assertThat(s.kafkaHeap()).isEqualTo("512m");
        assertThat(s.clickHouseMaxMemory()).isEqualTo(4294967296L);
        assertThat(s.stateDir()).isEqualTo(tmp.resolve(".run").toRealPath());
        assertThat(s.cacheDir()).isEqualTo(tmp.resolve("home/.cache/tributary").toRealPath());
        assertThat(s.pidFile("kafka")).isEqualTo(s.stateDir().resolve("kafka/kafka.pid"));
        assertThat(s.logFile("clickhouse")).isEqualTo(s.stateDir().resolve("clickhouse/clickhouse.log"));
        assertThat(s.clickHouseUrl()).isEqualTo("http://127.0.0.1:8123");
        assertThat(s.kafkaBootstrap()).isEqualTo("127.0.0.1:9092");
    }

    @Test
    void anEmptyVariableIsAnUnsetOne() throws Exception {
        // as the shell's ${VAR:-default} read them before
        Settings s = Settings.from(env("TRIBUTARY_KAFKA_PARTITIONS", "", "TRIBUTARY_CLICKHOUSE_MAX_MEMORY", "",
                "TRIBUTARY_KAFKA_HEAP", "", "XDG_CACHE_HOME", "", "TRIBUTARY_CLICKHOUSE_PORT", ""), tmp);
        assertThat(s.kafkaPartitions()).isEqualTo(4);
        assertThat(s.clickHouseMaxMemory()).isEqualTo(4294967296L);
        assertThat(s.kafkaHeap()).isEqualTo("512m");
        assertThat(s.clickHousePort()).isEqualTo(8123);
        assertThat(s.cacheDir()).isEqualTo(tmp.resolve("home/.cache/tributary").toRealPath());
    }

    @Test
    void theTestPortsDeriveTheSecureListenersOfTheSharedServices() {
        Settings s = Settings.from(env("TRIBUTARY_CLICKHOUSE_PORT", "18123", "TRIBUTARY_KAFKA_PORT", "19092",
                "TRIBUTARY_KAFKA_CONTROLLER_PORT", "19093", "TRIBUTARY_STATE_DIR", tmp.resolve("s").toString(),
                "XDG_CACHE_HOME", tmp.resolve("xdg").toString()), tmp);
        assertThat(s.kafkaSaslSslPort()).isEqualTo(19094);
        assertThat(s.kafkaSslPort()).isEqualTo(19095);
        assertThat(s.clickHouseTcpPort()).isEqualTo(18124);
        assertThat(s.cacheDir().toString()).endsWith("xdg/tributary");
        assertThat(Files.isDirectory(tmp.resolve("s"))).isTrue();
    }

    @Test
    void badValuesFailNamingTheVariable() {
        assertThatThrownBy(() -> Settings.from(env("TRIBUTARY_KAFKA_PORT", "70000"), tmp))
                .hasMessage("TRIBUTARY_KAFKA_PORT='70000' is not a TCP port (1-65535)");
        assertThatThrownBy(() -> Settings.from(env("TRIBUTARY_CLICKHOUSE_PORT", "http"), tmp))
                .hasMessage("TRIBUTARY_CLICKHOUSE_PORT='http' is not a TCP port (1-65535)");
        assertThatThrownBy(() -> Settings.from(env("TRIBUTARY_KAFKA_SSL_PORT", "0"), tmp))
                .hasMessage("TRIBUTARY_KAFKA_SSL_PORT='0' is not a TCP port (1-65535)");
        assertThatThrownBy(() -> Settings.from(env("TRIBUTARY_KAFKA_PARTITIONS", "0"), tmp))
                .hasMessage("TRIBUTARY_KAFKA_PARTITIONS='0' is not a positive integer");
        assertThatThrownBy(() -> Settings.from(env("TRIBUTARY_CLICKHOUSE_MAX_MEMORY", "1000"), tmp))
                .hasMessage("TRIBUTARY_CLICKHOUSE_MAX_MEMORY='1000' must be a number of bytes, at least 268435456");
        assertThatThrownBy(() -> Settings.from(env("TRIBUTARY_KAFKA_HEAP", "1 GB"), tmp))
                .hasMessage("TRIBUTARY_KAFKA_HEAP='1 GB' is not a JVM heap size such as 512m or 1g");
    }

    @Test
    void portsThatCollideAreRefusedAllNamed() {
        // ClickHouse's derived native port lands on Kafka's
        assertThatThrownBy(() -> Settings.from(env("TRIBUTARY_CLICKHOUSE_PORT", "9091"), tmp))
                .hasMessage("TRIBUTARY_CLICKHOUSE_PORT (9091), TRIBUTARY_CLICKHOUSE_TCP_PORT (9092), TRIBUTARY_KAFKA_PORT"
                        + " (9092), TRIBUTARY_KAFKA_CONTROLLER_PORT (9093), TRIBUTARY_KAFKA_SASL_SSL_PORT (9094),"
                        + " TRIBUTARY_KAFKA_SSL_PORT (9095) must all differ");
    }

    @Test
    void aStateDirThatCannotBeMadeIsNamed() throws Exception {
        Path file = Files.writeString(tmp.resolve("file"), "x");
        assertThatThrownBy(() -> Settings.from(env("TRIBUTARY_STATE_DIR", file.resolve("sub").toString()), tmp))
                .hasMessageStartingWith("cannot create TRIBUTARY_STATE_DIR '" + file.resolve("sub") + "'");
    }
}
