package io.tributary.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.otlp.Signal;

import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** kafka.topics.<signal> lists and ^regex entries. */
class TopicSelectionTest {

    private static final Map<Signal, String> KEYS = Map.of(
            Signal.TRACES, "kafka.topics.traces", Signal.LOGS, "kafka.topics.logs", Signal.METRICS, "kafka.topics.metrics");

    private static TopicSelection of(String traces, String logs, String metrics) {
        Map<Signal, String> v = new EnumMap<>(Signal.class);
        v.put(Signal.TRACES, traces);
        v.put(Signal.LOGS, logs);
        v.put(Signal.METRICS, metrics);
        return TopicSelection.parse(v, KEYS);
    }

    @Test
    void namesAndRegexesSelectTopicsForTheirSignal() {
        TopicSelection s = of("otlp_spans, spans_eu", "^logs-.*-prod$", "^otlp_metrics");
        assertThat(s.signal("otlp_spans")).isEqualTo(Signal.TRACES);
        assertThat(s.signal("spans_eu")).isEqualTo(Signal.TRACES);
        assertThat(s.signal("logs-checkout-prod")).isEqualTo(Signal.LOGS);
        assertThat(s.signal("logs-checkout-dev")).isNull();
        // a regex searches, as the collector's kafkareceiver does: ^otlp_metrics takes otlp_metrics_eu too
        assertThat(s.signal("otlp_metrics")).isEqualTo(Signal.METRICS);
        assertThat(s.signal("otlp_metrics_eu")).isEqualTo(Signal.METRICS);
        assertThat(s.signal("my_otlp_metrics")).isNull();
        assertThat(s.signal("otlp_spans_eu")).as("a name is not a prefix").isNull();
        assertThat(s.named()).containsExactly("otlp_spans", "spans_eu");
        assertThat(s.hasPatterns()).isTrue();
    }

    @Test
    void theSubscriptionPatternTakesWhatTheSelectionReads() {
        TopicSelection s = of("otlp.spans", "^logs-.*-prod$", "^otlp_metrics");
        for (String t : List.of("otlp.spans", "otlpXspans", "logs-a-prod", "logs-a-prod2", "otlp_metrics", "otlp_metrics_eu",
                "x_otlp_metrics", "__consumer_offsets")) {
            assertThat(s.subscription().matcher(t).matches()).as(t).isEqualTo(s.reads(t));
        }
        assertThat(s.reads("otlpXspans")).as("names are quoted, not regexes").isFalse();
    }

    @Test
    void resolvingKeepsNamedTopicsThatDoNotExistYetAndLeavesInternalOnesOut() {
        TopicSelection s = of("otlp_spans", "^logs", "");
        assertThat(s.resolve(List.of("logs_a", "logs_b", "other", "__consumer_offsets")))
                .containsExactly("logs_a", "logs_b", "otlp_spans");
    }

    @Test
    void aNamedTopicBeatsARegexAndTheFirstSignalsRegexBeatsLaterOnes() {
        TopicSelection s = of("^otlp", "otlp_logs", "^otlp");
        assertThat(s.signal("otlp_logs")).isEqualTo(Signal.LOGS);
        assertThat(s.signal("otlp_metrics")).isEqualTo(Signal.TRACES);
    }

    @Test
    void mistakesNameTheSetting() {
        assertThatThrownBy(() -> of("a,b", "b", "c"))
                .hasMessage("kafka.topics.logs: 'b' is also kafka.topics.traces; each signal needs its own topic");
        assertThatThrownBy(() -> of("a", "^logs[", "c"))
                .hasMessageStartingWith("kafka.topics.logs: '^logs[' is not a regular expression");
        assertThat(TopicSelection.entries(" a , ,b,")).containsExactly("a", "b");
        // joined into one subscription, a back reference would point into another entry's groups
        assertThatThrownBy(() -> of("^(a)\\1", "l", "m")).hasMessageStartingWith("kafka.topics.traces: '^(a)\\1' refers back");
        assertThatThrownBy(() -> of("^(?<x>a)", "l", "m")).hasMessageStartingWith("kafka.topics.traces:");
        assertThat(of("^a\\\\1(?<=a)(?<!b)", "l", "m").hasPatterns()).as("an escaped backslash, lookarounds").isTrue();
    }
}
