package io.tributary.transcode;

import static io.tributary.transcode.AnyValuesTest.i;
import static io.tributary.transcode.AnyValuesTest.kv;
import static io.tributary.transcode.AnyValuesTest.s;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

/** The exporter's AttributesToMap: every pair kept, sorted bytewise by key, values via AsString. */
class StringMapTest {

    @Test
    void sortsKeepsDuplicatesAndRendersValues() {
        StringMap m = StringMap.ofAttributes(List.of(kv("z", s("1")), kv("a", i(2)), kv("m", s("x")), kv("a", s("dup"))));
        List<String> pairs = new ArrayList<>();
        for (int j = 0; j < m.size(); j++) {
            pairs.add(m.key(j) + "=" + m.value(j));
        }
        assertThat(pairs).containsExactly("a=2", "a=dup", "m=x", "z=1");
    }

    @Test
    void reuseShrinks() {
        StringMap m = StringMap.ofAttributes(List.of(kv("a", s("1")), kv("b", s("2")), kv("c", s("3"))));
        m.setAttributes(List.of(kv("q", s("9"))));
        assertThat(m.size()).isEqualTo(1);
        assertThat(m.key(0)).isEqualTo("q");
        assertThat(m.value(0)).isEqualTo("9");
        m.setAttributes(List.of());
        assertThat(m.size()).isZero();
    }
}
