package io.tributary.tools.loadgen;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Argument errors, which are reported before any connection to Kafka is made. */
class LoadGeneratorTest {

    @Test
    void unknownSignal() {
        assertThatThrownBy(() -> LoadGenerator.main(new String[] {"--signal", "spans"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--signal: must be traces, logs, metrics or profiles, not 'spans'");
    }

    @Test
    void spansPerTraceIsForTracesOnly() {
        assertThatThrownBy(() -> LoadGenerator.main(new String[] {"--signal", "logs", "--spans-per-trace", "5"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--spans-per-trace: only for --signal traces");
        assertThatThrownBy(() -> LoadGenerator.main(new String[] {"--signal", "profiles", "--spans-per-trace", "5"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--spans-per-trace: only for --signal traces");
        assertThatThrownBy(() -> LoadGenerator.main(new String[] {"--spans-per-trace", "5", "--items-per-record", "5"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--spans-per-trace: give it or --items-per-record");
    }

    @Test
    void itemsPerRecordAtLeastOne() {
        assertThatThrownBy(() -> LoadGenerator.main(new String[] {"--signal", "metrics", "--items-per-record", "0"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--items-per-record: must be at least 1");
        assertThatThrownBy(() -> LoadGenerator.main(new String[] {"--signal", "profiles", "--items-per-record", "0"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--items-per-record: must be at least 1");
        assertThatThrownBy(() -> LoadGenerator.main(new String[] {"--spans-per-trace", "x"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--spans-per-trace: not a number: x");
    }
}
