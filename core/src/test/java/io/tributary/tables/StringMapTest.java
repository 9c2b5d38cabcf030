package io.tributary.tables;


import static io.tributary.testing.Otlp.i;
import static io.tributary.testing.Otlp.kv;
import static io.tributary.testing.Otlp.str;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

/** The exporter's AttributesToMap: every pair kept, sorted bytewise by key, values via AsString. */
class StringMapTest {

    @Test
    void sortsKeepsDuplicatesAndRendersValues() {
        StringMap m = StringMap.ofAttributes(List.of(kv("z", str("1")), kv("a", i(2)), kv("m", str("x")), kv("a", str("dup"))));
        List<String> pairs = new ArrayList<>();
        for (int j = 0; j < m.size(); j++) {
            pairs.add(m.key(j) + "=" + m.value(j));
        }
        assertThat(pairs).containsExactly("a=2", "a=dup", "m=x", "z=1");
    }

    @Test
    void reuseShrinks() {
        StringMap m = StringMap.ofAttributes(List.of(kv("a", str("1")), kv("b", str("2")), kv("c", str("3"))));
        m.setAttributes(List.of(kv("q", str("9"))));
        assertThat(m.size()).isEqualTo(1);
        assertThat(m.key(0)).isEqualTo("q");
        assertThat(m.value(0)).isEqualTo("9");
        m.setAttributes(List.of());
        assertThat(m.size()).isZero();
    }
}
