package io.tributary.services;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TestServicesTest {

    @Test
    void theTestPortsAndStateAsBinTributaryTestExportsThem() {
        Path root = Path.of("/repo");
        Map<String, String> e = TestServices.testEnvironment(Map.of("TRIBUTARY_CLICKHOUSE_PORT", "8123", "PATH", "/bin"), root);
        assertThat(e).containsEntry("TRIBUTARY_CLICKHOUSE_PORT", "18123")
                .containsEntry("TRIBUTARY_KAFKA_PORT", "19092")
                .containsEntry("TRIBUTARY_KAFKA_CONTROLLER_PORT", "19093")
                .containsEntry("TRIBUTARY_STATE_DIR", "/repo/.run/test")
                .containsEntry("PATH", "/bin");

        Map<String, String> moved = TestServices.testEnvironment(Map.of("TRIBUTARY_TEST_CLICKHOUSE_PORT", "28123",
                "TRIBUTARY_TEST_KAFKA_PORT", "29092", "TRIBUTARY_TEST_KAFKA_CONTROLLER_PORT", "",
                "TRIBUTARY_TEST_STATE_DIR", "/tmp/x"), root);
        assertThat(moved).containsEntry("TRIBUTARY_CLICKHOUSE_PORT", "28123")
                .containsEntry("TRIBUTARY_KAFKA_PORT", "29092")
                .containsEntry("TRIBUTARY_KAFKA_CONTROLLER_PORT", "19093")
                .containsEntry("TRIBUTARY_STATE_DIR", "/tmp/x");
    }

    @Test
    void theRootIsFoundFromAModuleDirectory() {
        // surefire runs in services/: the root is the directory above it, which holds services/pom.xml
        assertThat(TestServices.root().resolve("services/pom.xml")).isRegularFile();
        assertThat(TestServices.root().resolve("job/pom.xml")).isRegularFile();
    }
}
