package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.ZstdInputStream;
import io.tributary.metrics.SinkMetrics;
import net.jpountz.lz4.LZ4FrameInputStream;

import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
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

    /**
     * Records each accepted body; refuses the bodies the predicate picks with the given code; like
     * a table with a deduplication window, ignores an INSERT whose token it has seen.
     */
    static final class FakeClickHouse implements InsertClient {
        final List<String> accepted = Collections.synchronizedList(new ArrayList<>());
        final List<String> tokens = Collections.synchronizedList(new ArrayList<>());
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
            String rows = new String(uncompressed(body, compression), StandardCharsets.US_ASCII);
            if (refuse.test(rows)) {
                throw new ClickHouseException("Code: " + code + ". DB::Exception: refused", 500, code, false);
            }
            String token = settings.get("insert_deduplication_token");
            synchronized (this) {
                if (token != null && tokens.contains(token)) {
                    return;
                }
                if (token != null) {
                    tokens.add(token);
                }
                accepted.add(rows);
            }
        }

        @Override
        public void close() {}

        private static byte[] uncompressed(byte[] body, Compression compression) throws IOException {
            switch (compression) {
                case LZ4:
                    return new LZ4FrameInputStream(new ByteArrayInputStream(body)).readAllBytes();
                case ZSTD:
                    return new ZstdInputStream(new ByteArrayInputStream(body)).readAllBytes();
                default:
                    return body;
            }
        }
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
        return new ClickHouseSinkWriter(settings(Delivery.AT_LEAST_ONCE, Compression.NONE, maxRows, maxBytes), client,
                NO_TIMERS, metrics(), 0);
    }

    private static SinkSettings settings(Delivery delivery, Compression compression, int maxRows, long maxBytes) {
        return new SinkSettings(
                ClickHouseEndpoint.of("http://localhost:1"), "db", List.of("INSERT a", "INSERT b", "INSERT c"),
                List.of("t", "u", "v"), delivery, Map.of(),
                maxRows, maxBytes, Duration.ofHours(1), compression, false, 2, 3,
                Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofSeconds(5), "", "localhost:1", Map.of());
    }

    private static SinkMetrics metrics() {
        return new SinkMetrics(new UnregisteredMetricsGroup(), List.of("t", "u", "v"));
    }

    /** What Flink's committer operator hands the committer: the committables, through their serializer. */
    private static List<Committer.CommitRequest<SealedBatch>> requests(Collection<SealedBatch> batches) throws IOException {
        SealedBatchSerializer serializer = new SealedBatchSerializer();
        List<Committer.CommitRequest<SealedBatch>> out = new ArrayList<>();
        for (SealedBatch b : batches) {
            SealedBatch restored = serializer.deserialize(serializer.getVersion(), serializer.serialize(b));
            out.add(new Committer.CommitRequest<>() {
                @Override
                public SealedBatch getCommittable() {
                    return restored;
                }

                @Override
                public int getNumberOfRetries() {
                    return 0;
                }

                @Override
                public void signalFailedWithKnownReason(Throwable t) {
                    throw new AssertionError(t);
                }

                @Override
                public void signalFailedWithUnknownReason(Throwable t) {
                    throw new AssertionError(t);
                }

                @Override
                public void retryLater() {
                    throw new AssertionError("retryLater");
                }

                @Override
                public void updateAndRetryLater(SealedBatch committable) {
                    throw new AssertionError("updateAndRetryLater");
                }

                @Override
                public void signalAlreadyCommitted() {
                    throw new AssertionError("signalAlreadyCommitted");
                }
            });
        }
        return out;
    }

    private static String sortedChars(List<String> bodies) {
        return String.join("", bodies).chars().sorted()
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
    }

    @Test
    void exactlyOnceWritesACheckpointsBatchesOnceItCompletesAndOnlyOnce() throws Exception {
        FakeClickHouse ch = new FakeClickHouse(new CountDownLatch(0), r -> false, 0);
        SinkSettings s = settings(Delivery.EXACTLY_ONCE, Compression.LZ4, 2, 1L << 30);
        ClickHouseSinkWriter w = new ClickHouseSinkWriter(s, ch, NO_TIMERS, metrics(), 0);
        String[] chunks = {"a", "b", "c", "d", "e"};
        for (int i = 0; i < chunks.length; i++) {
            w.write(rows(i % 2, chunks[i], i), null);
        }
        w.flush(false);
        Collection<SealedBatch> committables = w.prepareCommit();
        assertThat(ch.accepted).as("nothing is sent before the checkpoint completes").isEmpty();
        // table 0 got a, c (a full batch of 2), e; table 1 b, d
        assertThat(committables).hasSize(3);
        assertThat(w.prepareCommit()).as("handed over once").isEmpty();
        ClickHouseCommitter committer = new ClickHouseCommitter(s, ch, metrics(), 0);
        committer.commit(requests(committables));
        assertThat(sortedChars(ch.accepted)).isEqualTo("abcde");
        assertThat(ch.tokens).hasSize(3).doesNotHaveDuplicates();
        List<String> first = List.copyOf(ch.tokens);
        // after a restore Flink commits the same committables again: the same tokens, nothing new
        committer.commit(requests(committables));
        assertThat(sortedChars(ch.accepted)).isEqualTo("abcde");
        assertThat(ch.tokens).isEqualTo(first);
        assertThat(first).allSatisfy(t -> assertThat(t).startsWith("tributary:db."));
        committer.close();
        w.close();
    }

    @Test
    void exactlyOnceTokensNameTheRecordsAndTellApartOtherRowsAtTheSameOffsets() throws Exception {
        Batch one = new Batch(0, 0);
        one.add(new EncodedRows(0, 2, "xy".getBytes(StandardCharsets.US_ASCII), "spans", 3, 41));
        one.add(new EncodedRows(0, 1, "z".getBytes(StandardCharsets.US_ASCII), "spans", 3, 42));
        Batch same = new Batch(0, 0);
        same.add(new EncodedRows(0, 2, "xy".getBytes(StandardCharsets.US_ASCII), "spans", 3, 41));
        same.add(new EncodedRows(0, 1, "z".getBytes(StandardCharsets.US_ASCII), "spans", 3, 42));
        Batch other = new Batch(0, 0); // a topic deleted and created again: same offsets, other rows
        other.add(new EncodedRows(0, 2, "xq".getBytes(StandardCharsets.US_ASCII), "spans", 3, 41));
        other.add(new EncodedRows(0, 1, "z".getBytes(StandardCharsets.US_ASCII), "spans", 3, 42));
        String token = SealedBatch.seal(one, Compression.ZSTD, true).token("db.t");
        assertThat(token).matches("tributary:db\\.t:spans-3@41\\.\\.spans-3@42:2:3:[0-9a-f]{8}");
        assertThat(SealedBatch.seal(same, Compression.NONE, true).token("db.t")).isEqualTo(token);
        assertThat(SealedBatch.seal(other, Compression.ZSTD, true).token("db.t")).isNotEqualTo(token);
        assertThat(SealedBatch.seal(one, Compression.ZSTD, true).token("db.u")).isNotEqualTo(token);
    }

    @Test
    void exactlyOnceSplitsARefusedBatchWithATokenPerHalf() throws Exception {
        FakeClickHouse ch = new FakeClickHouse(new CountDownLatch(0), r -> r.contains("X"), 469);
        SinkSettings s = settings(Delivery.EXACTLY_ONCE, Compression.ZSTD, 1000, 1L << 30);
        ClickHouseSinkWriter w = new ClickHouseSinkWriter(s, ch, NO_TIMERS, metrics(), 0);
        String[] chunks = {"a", "b", "X1", "c", "d", "X2", "e"};
        for (int i = 0; i < chunks.length; i++) {
            w.write(rows(chunks[i], i), null);
        }
        w.flush(false);
        Collection<SealedBatch> committables = w.prepareCommit();
        ClickHouseCommitter committer = new ClickHouseCommitter(s, ch, metrics(), 0);
        committer.commit(requests(committables));
        assertThat(sortedChars(ch.accepted)).isEqualTo("abcde");
        assertThat(ch.tokens).allSatisfy(t -> assertThat(t).matches(".*:[0-9a-f]{8}/\\d+-\\d+"));
        int inserts = ch.accepted.size();
        committer.commit(requests(committables)); // again after a restore: every half is dropped
        assertThat(ch.accepted).hasSize(inserts);
        committer.close();
        w.close();
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
