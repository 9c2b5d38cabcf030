package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.metrics.SinkMetrics;

import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The writer's delivery rules with a fake ClickHouse: flush waits for every INSERT in flight,
 * and a batch refused because of some records' rows is written without them.
 */
class ClickHouseSinkWriterTest {

    /** Records each accepted body; refuses the bodies the predicate picks with the given code. */
    static final class FakeClickHouse implements InsertClient {
        final List<String> accepted = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch release;
        final Predicate<String> refuse;
        final int code;

        FakeClickHouse(CountDownLatch release, Predicate<String> refuse, int code) {
            this.release = release;
            this.refuse = refuse;
            this.code = code;
        }

        @Override
        public void insert(String sql, Map<String, String> settings, byte[] body, Compression compression)
                throws IOException, InterruptedException {
            release.await();
            String rows = new String(body, StandardCharsets.US_ASCII);
            if (refuse.test(rows)) {
                throw new ClickHouseException("Code: " + code + ". DB::Exception: refused", 500, code, false);
            }
            accepted.add(rows);
        }

        @Override
        public void close() {}
    }

    private static final ProcessingTimeService NO_TIMERS = new ProcessingTimeService() {
        @Override
        public long getCurrentProcessingTime() {
            return 0;
        }

        @Override
        public ScheduledFuture<?> registerTimer(long timestamp, ProcessingTimeCallback target) {
            return null; // batches close by size and on flush here
        }
    };

    private static ClickHouseSinkWriter writer(InsertClient client, int maxRows) {
        return writer(client, maxRows, 1L << 30);
    }

    private static ClickHouseSinkWriter writer(InsertClient client, int maxRows, long maxBytes) {
        SinkSettings s = new SinkSettings(
                ClickHouseEndpoint.of("http://localhost:1"), "db", List.of("INSERT a", "INSERT b", "INSERT c"),
                List.of("t", "u", "v"), Map.of(),
                maxRows, maxBytes, Duration.ofHours(1), Compression.NONE, false, 2, 3,
                Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofSeconds(5), "", "localhost:1", Map.of());
        return new ClickHouseSinkWriter(
                s, client, NO_TIMERS, new SinkMetrics(new UnregisteredMetricsGroup(), List.of("t", "u", "v")), 0);
    }

    private static EncodedRows rows(String text, long offset) {
        return rows(0, text, offset);
    }

    private static EncodedRows rows(int table, String text, long offset) {
        return new EncodedRows(table, 1, text.getBytes(StandardCharsets.US_ASCII), "topic", 0, offset);
    }

    @Test
    void openBatchesOfAllTablesShareOneByteBudget() throws Exception {
        FakeClickHouse ch = new FakeClickHouse(new CountDownLatch(0), r -> false, 0);
        ClickHouseSinkWriter w = writer(ch, 1000, 10);
        w.write(rows(0, "aaaa", 0), null);
        w.write(rows(1, "bb", 1), null);
        assertThat(ch.accepted).isEmpty();
        w.write(rows(2, "cccc", 2), null); // 10 bytes open: the largest batch goes (a tie: the one just written)
        w.write(rows(1, "b", 3), null);
        Thread.sleep(200);
        assertThat(ch.accepted).containsExactly("cccc");
        w.flush(false);
        assertThat(ch.accepted).containsExactlyInAnyOrder("aaaa", "bbb", "cccc");
        w.close();
    }

    @Test
    void flushWaitsForEveryInsertInFlight() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        FakeClickHouse ch = new FakeClickHouse(release, r -> false, 0);
        ClickHouseSinkWriter w = writer(ch, 1); // every record is a batch, sent at once
        w.write(rows("a", 0), null);
        w.write(rows("b", 1), null);
        CompletableFuture<Void> flushed = CompletableFuture.runAsync(() -> {
            try {
                w.flush(false);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(300);
        assertThat(flushed).as("flush returned while INSERTs were outstanding").isNotDone();
        release.countDown();
        flushed.get(5, TimeUnit.SECONDS);
        assertThat(ch.accepted).containsExactlyInAnyOrder("a", "b");
        w.close();
    }

    @Test
    void refusedRecordsAreLeftOutAndTheRestIsWritten() throws Exception {
        CountDownLatch open = new CountDownLatch(0);
        FakeClickHouse ch = new FakeClickHouse(open, r -> r.contains("X"), 469);
        ClickHouseSinkWriter w = writer(ch, 1000);
        String[] chunks = {"a", "b", "X1", "c", "d", "X2", "e"};
        for (int i = 0; i < chunks.length; i++) {
            w.write(rows(chunks[i], i), null);
        }
        w.flush(false);
        assertThat(String.join("", ch.accepted).chars().sorted()
                        .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString())
                .isEqualTo("abcde");
        assertThat(ch.accepted).allSatisfy(r -> assertThat(r).doesNotContain("X"));
        w.close();
    }

    @Test
    void aBatchWhoseEveryRecordIsRefusedFailsTheJob() throws Exception {
        FakeClickHouse ch = new FakeClickHouse(new CountDownLatch(0), r -> true, 469);
        ClickHouseSinkWriter w = writer(ch, 1000);
        w.write(rows("a", 0), null);
        w.write(rows("b", 1), null);
        assertThatThrownBy(() -> w.flush(false)).isInstanceOf(IOException.class)
                .hasMessageContaining("refused the rows of every one of its 2 records");
        assertThat(ch.accepted).isEmpty();
        w.close();
    }

    @Test
    void otherPermanentErrorsFailTheJob() throws Exception {
        FakeClickHouse ch = new FakeClickHouse(new CountDownLatch(0), r -> r.contains("X"), 60); // UNKNOWN_TABLE
        ClickHouseSinkWriter w = writer(ch, 1000);
        w.write(rows("a", 0), null);
        w.write(rows("X", 1), null);
        assertThatThrownBy(() -> w.flush(false)).isInstanceOf(IOException.class)
                .hasMessageContaining("INSERT of 2 rows into db.t refused: Code: 60");
        w.close();
    }
}
