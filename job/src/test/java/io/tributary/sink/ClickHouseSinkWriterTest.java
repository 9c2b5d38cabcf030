package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.ZstdInputStream;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.clickhouse.ClickHouseException;
import io.tributary.clickhouse.InsertClient;
import io.tributary.clickhouse.body.Body;
import io.tributary.clickhouse.body.Compression;
import io.tributary.clickhouse.body.SegmentPool;
import io.tributary.kafka.KafkaConnection;
import io.tributary.schema.SchemaFlavor;
import io.tributary.schema.TableName;
import io.tributary.tables.EncodedRows;
import io.tributary.tables.OtelTable;
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
    static class FakeClickHouse implements InsertClient {
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

        /** Rows the fake says it wrote: every row sent, unless set lower. */
        volatile long written = Long.MAX_VALUE;

        @Override
        public long insert(String sql, Map<String, String> settings, Body body, Compression compression)
                throws IOException, InterruptedException {
            release.await();
            String data = new String(uncompressed(body.toByteArray(), compression), StandardCharsets.US_ASCII);
            assertThat(data).as("the body starts with the rows' header").startsWith(HEADER_TEXT);
            assertThat(sql).endsWith("FORMAT RowBinaryWithNamesAndTypes");
            String rows = data.substring(HEADER_TEXT.length());
            if (refuse.test(rows)) {
                throw new ClickHouseException("Code: " + code + ". DB::Exception: refused", 500, code, false);
            }
            String token = settings.get("insert_deduplication_token");
            synchronized (this) {
                if (token != null && tokens.contains(token)) {
                    return written;
                }
                if (token != null) {
                    tokens.add(token);
                }
                accepted.add(rows);
            }
            return written;
        }

        @Override
        public void close() {}

        static byte[] uncompressed(byte[] body, Compression compression) throws IOException {
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

    static final String HEADER_TEXT = "#";
    static final byte[] HEADER = HEADER_TEXT.getBytes(StandardCharsets.US_ASCII);

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

    private static ClickHouseSinkWriter writer(InsertClient client, int maxRows) throws IOException {
        return writer(client, maxRows, 1L << 30);
    }

    private static ClickHouseSinkWriter writer(InsertClient client, int maxRows, long maxBytes) throws IOException {
        return new ClickHouseSinkWriter(settings(Delivery.AT_LEAST_ONCE, Compression.NONE, maxRows, maxBytes), client,
                NO_TIMERS, metrics(), 0, FACTS, NO_LIVE_TABLES);
    }

    /** A server that knows every setting, whose tables drop repeated INSERTs. */
    static final ServerFacts FACTS = new ServerFacts("26.7.2.1", null, allTrue());
    /** A server whose tables keep every INSERT. */
    static final ServerFacts NO_DEDUP = ServerFacts.unknown(OtelTable.values().length);

    private static Boolean[] allTrue() {
        Boolean[] b = new Boolean[OtelTable.values().length];
        java.util.Arrays.fill(b, true);
        return b;
    }
    static final BatchInserter.LiveTables NO_LIVE_TABLES = table -> null;

    private static SinkSettings settings(Delivery delivery, Compression compression, int maxRows, long maxBytes) {
        return settings(delivery, compression, maxRows, maxBytes, TableRefusalAction.FAIL);
    }

    private static SinkSettings settings(Delivery delivery, Compression compression, int maxRows, long maxBytes,
            TableRefusalAction onTableRefusal) {
        List<SinkTable> tables = new ArrayList<>();
        for (OtelTable t : OtelTable.values()) {
            tables.add(new SinkTable(t, new TableName(NAMES.get(t.ordinal()), "clickhouse.tables." + t), true));
        }
        return new SinkSettings(
                ClickHouseEndpoint.of("http://localhost:1"), "db", tables, SchemaFlavor.MAP, delivery, Map.of(),
                maxRows, maxBytes, Duration.ofHours(1), compression, InsertFormat.ROWBINARY, false, 2, 3,
                Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofSeconds(5), onTableRefusal, "",
                KafkaConnection.plain("localhost:1", Map.of()), KafkaConnection.plain("localhost:1", Map.of()));
    }

    private static final List<String> NAMES = List.of("t", "u", "v", "w", "x", "y", "z", "p");

    private static SinkMetrics metrics() {
        return new SinkMetrics(new UnregisteredMetricsGroup(), NAMES);
    }

    /** What Flink's committer operator hands the committer: the committables, through their serializer. */
    private static List<Committer.CommitRequest<SealedBatch>> requests(Collection<SealedBatch> batches) throws IOException {
        return requests(batches, 0);
    }

    /** ... or, for {@code legacyVersion} 1, batches already restored from a 0.1 checkpoint. */
    private static List<Committer.CommitRequest<SealedBatch>> requests(Collection<SealedBatch> batches, int legacyVersion)
            throws IOException {
        SealedBatchSerializer serializer = new SealedBatchSerializer();
        List<Committer.CommitRequest<SealedBatch>> out = new ArrayList<>();
        for (SealedBatch b : batches) {
            SealedBatch restored = legacyVersion == 1 ? b : serializer.deserialize(serializer.getVersion(), serializer.serialize(b));
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
        ClickHouseSinkWriter w = new ClickHouseSinkWriter(s, ch, NO_TIMERS, metrics(), 0, FACTS, NO_LIVE_TABLES);
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
        ClickHouseCommitter committer = new ClickHouseCommitter(s, ch, metrics(), 0, FACTS, NO_LIVE_TABLES);
        committer.commit(requests(committables));
        assertThat(sortedChars(ch.accepted)).isEqualTo("abcde");
        assertThat(ch.tokens).hasSize(3).doesNotHaveDuplicates();
        List<String> first = List.copyOf(ch.tokens);
        // after a restore Flink commits the same committables again: the same tokens, nothing new
        committer.commit(requests(committables));
        assertThat(sortedChars(ch.accepted)).isEqualTo("abcde");
        assertThat(ch.tokens).isEqualTo(first);
        assertThat(first).allSatisfy(t -> assertThat(t).matches("tributary:2:(TRACES|LOGS):topic-0@\\d+\\.\\..*"));
        committer.close();
        w.close();
    }

    @Test
    void exactlyOnceTokensNameTheRecordsAndTellApartOtherRowsAtTheSameOffsets() throws Exception {
        String token = batch(0, Compression.ZSTD, true, "xy", "z").seal().token;
        // only what identifies the rows: no table name, no database, nothing a setting changes
        assertThat(token).matches("tributary:2:TRACES:spans-3@41\\.\\.spans-3@42:2:3:[0-9a-f]{8}");
        assertThat(batch(0, Compression.NONE, true, "xy", "z").seal().token).isEqualTo(token);
        // a topic deleted and created again: same offsets, other rows
        assertThat(batch(0, Compression.ZSTD, true, "xq", "z").seal().token).isNotEqualTo(token);
        // the same record's rows of another table
        assertThat(batch(1, Compression.ZSTD, true, "xy", "z").seal().token).isEqualTo(token.replace(":TRACES:", ":LOGS:"));
        assertThat(batch(0, Compression.ZSTD, false, "xy", "z").seal().token).as("without a checksum: no token").isNull();
    }

    /** A batch of records at spans-3@41, 42, ..., the first of two rows, the others of one. */
    private static Batch batch(int table, Compression compression, boolean exactlyOnce, String... records) {
        Batch b = new Batch(table, HEADER, 0, compression, new SegmentPool(0), exactlyOnce, null);
        for (int i = 0; i < records.length; i++) {
            b.add(new EncodedRows(table, i == 0 ? 2 : 1, records[i].getBytes(StandardCharsets.US_ASCII), HEADER, "spans", 3, 41 + i));
        }
        return b;
    }

    @Test
    void aCommittableCarriesItsHeaderAndTokenThroughItsSerializerAndAVersion1OneIsInsertedAs01Did() throws Exception {
        Batch b = new Batch(1, HEADER, 0, Compression.LZ4, new SegmentPool(0), true, null);
        b.add(new EncodedRows(1, 2, "xy".getBytes(StandardCharsets.US_ASCII), HEADER, "logs", 0, 7));
        SealedBatch sealed = b.seal();
        SealedBatchSerializer serializer = new SealedBatchSerializer();
        SealedBatch restored = serializer.deserialize(3, serializer.serialize(sealed));
        assertThat(restored.header).isEqualTo(HEADER);
        assertThat(restored.token).isEqualTo(sealed.token);
        assertThat(restored.table).isEqualTo(OtelTable.LOGS.ordinal());
        assertThat(restored.format).isEqualTo(InsertFormat.ROWBINARY);
        assertThat(restored.chunks()).containsExactly("xy".getBytes(StandardCharsets.US_ASCII));
        assertThatThrownBy(() -> serializer.deserialize(4, new byte[0])).hasMessageContaining("unknown version 4");
        // a version-2 committable (before sink.format): RowBinary
        SealedBatch v2 = serializer.deserialize(2, version2(sealed));
        assertThat(v2.format).isEqualTo(InsertFormat.ROWBINARY);
        assertThat(v2.token).isEqualTo(sealed.token);
        assertThat(v2.header).isEqualTo(HEADER);
        assertThat(v2.chunks()).containsExactly("xy".getBytes(StandardCharsets.US_ASCII));
        // a version-1 committable (release 0.1): no header, no stored token
        byte[] v1 = version1(OtelTable.TRACES.name(), "ab".getBytes(StandardCharsets.US_ASCII));
        SealedBatch old = serializer.deserialize(1, v1);
        assertThat(old.legacy()).isTrue();
        assertThat(old.legacyToken("db.t")).matches("tributary:db\\.t:spans-3@41\\.\\.spans-3@41:1:2:0000002a");
        FakeLegacyClickHouse ch = new FakeLegacyClickHouse();
        SinkSettings s = settings(Delivery.EXACTLY_ONCE, Compression.NONE, 100, 1L << 30);
        ClickHouseCommitter committer = new ClickHouseCommitter(s, ch, metrics(), 0, FACTS, NO_LIVE_TABLES);
        committer.commit(requests(List.of(old), 1));
        assertThat(ch.sql).isEqualTo(OtelTable.TRACES.schema(SchemaFlavor.MAP).insertSql("db", "t"));
        assertThat(ch.token).isEqualTo("tributary:db.t:spans-3@41..spans-3@41:1:2:0000002a");
        assertThat(ch.body).isEqualTo("ab");
        assertThatThrownBy(() -> serializer.deserialize(1, version1("SPANS_V9", new byte[0])))
                .hasMessageContaining("table SPANS_V9, which this release does not write");
        committer.close();
    }

    /** A committable as the serializer of version 2 (before sink.format) wrote it. */
    private static byte[] version2(SealedBatch b) throws IOException {
        org.apache.flink.core.memory.DataOutputSerializer out = new org.apache.flink.core.memory.DataOutputSerializer(64);
        out.writeUTF(OtelTable.values()[b.table].name());
        out.writeUTF(b.compression.name());
        out.writeUTF(b.token);
        out.writeInt(b.header.length);
        out.write(b.header);
        out.writeInt(b.rawBytes);
        out.writeInt(b.rows);
        out.writeLong(b.checksum);
        out.writeInt(b.records());
        for (int i = 0; i < b.records(); i++) {
            out.writeUTF(b.topics[i]);
            out.writeInt(b.partitions[i]);
            out.writeLong(b.offsets[i]);
            out.writeInt(b.rowCounts[i]);
            out.writeInt(b.lengths[i]);
        }
        byte[] body = b.body.toByteArray();
        out.writeInt(body.length);
        out.write(body);
        return out.getCopyOfBuffer();
    }

    /**
     * A Native batch: sealed as one block, checkpointed with its format, restored, and split into
     * its records' RowBinary rows and into bodies of some of them; the token is the one RowBinary
     * rows of the same records get.
     */
    @Test
    void aNativeBatchKeepsItsFormatThroughItsCommittableAndSplitsIntoItsRecordsRows() throws Exception {
        io.tributary.rowbinary.RowBinaryWriter h = new io.tributary.rowbinary.RowBinaryWriter(64);
        h.writeVarUInt(2);
        h.writeString("Name");
        h.writeString("Attributes");
        h.writeString("LowCardinality(String)");
        h.writeString("Map(LowCardinality(String), String)");
        byte[] header = h.toByteArray();
        List<byte[]> records = new ArrayList<>();
        int[] rows = {2, 1, 3};
        for (int r = 0; r < rows.length; r++) {
            io.tributary.rowbinary.RowBinaryWriter w = new io.tributary.rowbinary.RowBinaryWriter(64);
            for (int i = 0; i < rows[r]; i++) {
                w.writeString(i % 2 == 0 ? "GET /" : "record " + r);
                w.writeMapSize(i);
                for (int k = 0; k < i; k++) {
                    w.writeString("k" + k);
                    w.writeString("v" + r);
                }
            }
            records.add(w.toByteArray());
        }
        NativeBlocks blocks = new NativeBlocks(64L << 20);
        Batch b = new Batch(0, header, 0, Compression.LZ4, new SegmentPool(0), true, blocks);
        Batch rowBinary = new Batch(0, header, 0, Compression.LZ4, new SegmentPool(0), true, null);
        for (int r = 0; r < rows.length; r++) {
            b.add(new EncodedRows(0, rows[r], records.get(r), header, "spans", 1, 10 + r));
            rowBinary.add(new EncodedRows(0, rows[r], records.get(r), header, "spans", 1, 10 + r));
        }
        SealedBatch sealed = b.seal();
        SealedBatch sealedRows = rowBinary.seal();
        assertThat(sealed.format).isEqualTo(InsertFormat.NATIVE);
        assertThat(sealedRows.format).isEqualTo(InsertFormat.ROWBINARY);
        assertThat(sealed.token).isEqualTo(sealedRows.token);
        SealedBatchSerializer serializer = new SealedBatchSerializer();
        SealedBatch restored = serializer.deserialize(SealedBatchSerializer.VERSION, serializer.serialize(sealed));
        assertThat(restored.format).isEqualTo(InsertFormat.NATIVE);
        assertThat(restored.token).isEqualTo(sealed.token);
        byte[] block = Compression.LZ4.decompress(restored.body, restored.rawBytes);
        assertThat(io.tributary.nativeformat.NativeBlock.rows(block, Integer.MAX_VALUE).data())
                .isEqualTo(concat(records.get(0), records.get(1), records.get(2)));
        List<byte[]> chunks = restored.chunks();
        assertThat(chunks).containsExactlyElementsOf(records);
        byte[] part = Compression.LZ4.decompress(restored.body(chunks, 1, 3), partSize(header, records, rows));
        io.tributary.nativeformat.NativeBlock.Rows partRows = io.tributary.nativeformat.NativeBlock.rows(part, Integer.MAX_VALUE);
        assertThat(partRows.data()).isEqualTo(concat(records.get(1), records.get(2)));
        assertThat(partRows.rowEnds()).hasSize(4);
        // a layout with a JSON column stays RowBinary
        io.tributary.rowbinary.RowBinaryWriter j = new io.tributary.rowbinary.RowBinaryWriter(64);
        j.writeVarUInt(1);
        j.writeString("Attributes");
        j.writeString("JSON");
        assertThat(new Batch(0, j.toByteArray(), 0, Compression.LZ4, new SegmentPool(0), true, blocks).format)
                .isEqualTo(InsertFormat.ROWBINARY);
    }

    /**
     * A Native batch whose body cannot be read back (damaged in its checkpoint, or a bug), refused
     * for a row: it cannot be split, so the table-refusal action decides, once. Before, the
     * IllegalStateException of reading it failed the commit, and exactly once the restored batch
     * failed the same way after every restart, forever.
     */
    @Test
    void aRefusedNativeBatchThatCannotBeReadBackStopsTheJobOnce() throws Exception {
        byte[] garbage = "not a Native block".getBytes(StandardCharsets.US_ASCII);
        SealedBatch b = new SealedBatch(0, InsertFormat.NATIVE, Compression.NONE, HEADER,
                io.tributary.clickhouse.body.Body.of(garbage), garbage.length, 2, 0, null, new String[] {"spans", "spans"},
                new int[] {0, 0}, new long[] {1, 2}, new int[] {1, 1}, new int[] {5, 5});
        InsertClient refusing = new InsertClient() {
            @Override
            public long insert(String sql, Map<String, String> settings, Body body, Compression compression)
                    throws ClickHouseException {
                throw new ClickHouseException("Code: 469. DB::Exception: Constraint violated", 500, 469, false);
            }

            @Override
            public void close() {}
        };
        BatchInserter inserter = new BatchInserter(settings(Delivery.EXACTLY_ONCE, Compression.NONE, 100, 1L << 30),
                refusing, metrics(), FACTS, NO_LIVE_TABLES);
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> inserter.write(b));
        assertThat(t).isInstanceOf(IOException.class).hasMessageContaining("cannot be read back");
        assertThat(org.apache.flink.runtime.executiongraph.failover.ExecutionFailureHandler.isUnrecoverableError(t)).isTrue();
        inserter.close();
    }

    /** Bytes of the Native block of records 1 and 2. */
    private static int partSize(byte[] header, List<byte[]> records, int[] rows) {
        io.tributary.nativeformat.NativeBlock b = io.tributary.nativeformat.NativeBlock.forHeader(header);
        b.addRows(records.get(1), 0, records.get(1).length, rows[1]);
        b.addRows(records.get(2), 0, records.get(2).length, rows[2]);
        return b.toByteArray().length;
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** A committable as release 0.1's serializer (version 1) wrote it. */
    private static byte[] version1(String table, byte[] body) throws IOException {
        org.apache.flink.core.memory.DataOutputSerializer out = new org.apache.flink.core.memory.DataOutputSerializer(64);
        out.writeUTF(table);
        out.writeUTF("NONE");
        out.writeInt(body.length);
        out.writeInt(2);
        out.writeLong(42);
        out.writeInt(1);
        out.writeUTF("spans");
        out.writeInt(3);
        out.writeLong(41);
        out.writeInt(2);
        out.writeInt(body.length);
        out.writeInt(body.length);
        out.write(body);
        return out.getCopyOfBuffer();
    }

    /** Takes a 0.1 batch's INSERT: the SQL, the token and the body as sent. */
    static final class FakeLegacyClickHouse implements InsertClient {
        String sql;
        String token;
        String body;

        @Override
        public long insert(String sql, Map<String, String> settings, Body body, Compression compression) {
            this.sql = sql;
            this.token = settings.get("insert_deduplication_token");
            this.body = new String(body.toByteArray(), StandardCharsets.US_ASCII);
            return 2;
        }

        @Override
        public void close() {}
    }

    @Test
    void rowsClickHouseReportsAsNotWrittenAreCountedAsRepeatsNotSentAgain() throws Exception {
        FakeClickHouse ch = new FakeClickHouse(new CountDownLatch(0), r -> false, 0);
        ch.written = 0;
        SinkMetrics atLeastOnce = metrics();
        ClickHouseSinkWriter w = new ClickHouseSinkWriter(settings(Delivery.AT_LEAST_ONCE, Compression.NONE, 1000, 1L << 30),
                ch, NO_TIMERS, atLeastOnce, 0, FACTS, NO_LIVE_TABLES);
        w.write(rows("a", 0), null);
        w.flush(false);
        assertThat(ch.accepted).as("sent once, not again").containsExactly("a");
        assertThat(atLeastOnce.rowsDeduplicated.getCount()).isEqualTo(1);
        w.close();
        SinkMetrics m = metrics();
        SinkSettings s = settings(Delivery.EXACTLY_ONCE, Compression.NONE, 1000, 1L << 30);
        ClickHouseSinkWriter eo = new ClickHouseSinkWriter(s, ch, NO_TIMERS, m, 0, FACTS, NO_LIVE_TABLES);
        eo.write(rows("b", 1), null);
        eo.flush(false);
        ClickHouseCommitter committer = new ClickHouseCommitter(s, ch, m, 0, FACTS, NO_LIVE_TABLES);
        committer.commit(requests(eo.prepareCommit()));
        assertThat(m.rowsDeduplicated.getCount()).isEqualTo(1);
        committer.close();
        eo.close();
    }

    @Test
    void exactlyOnceSplitsARefusedBatchWithATokenPerHalf() throws Exception {
        FakeClickHouse ch = new FakeClickHouse(new CountDownLatch(0), r -> r.contains("X"), 469);
        SinkSettings s = settings(Delivery.EXACTLY_ONCE, Compression.ZSTD, 1000, 1L << 30);
        ClickHouseSinkWriter w = new ClickHouseSinkWriter(s, ch, NO_TIMERS, metrics(), 0, FACTS, NO_LIVE_TABLES);
        String[] chunks = {"a", "b", "X1", "c", "d", "X2", "e"};
        for (int i = 0; i < chunks.length; i++) {
            w.write(rows(chunks[i], i), null);
        }
        w.flush(false);
        Collection<SealedBatch> committables = w.prepareCommit();
        ClickHouseCommitter committer = new ClickHouseCommitter(s, ch, metrics(), 0, FACTS, NO_LIVE_TABLES);
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
        return new EncodedRows(table, 1, text.getBytes(StandardCharsets.US_ASCII), HEADER, "topic", 0, offset);
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
    void fewerRowsWrittenThanSentIntoATableThatKeepsEveryInsertIsAFailureNotARepeat() throws Exception {
        FakeClickHouse ch = new FakeClickHouse(new CountDownLatch(0), r -> false, 0);
        ch.written = 0;
        ClickHouseSinkWriter w = new ClickHouseSinkWriter(settings(Delivery.AT_LEAST_ONCE, Compression.NONE, 1000, 1L << 30),
                ch, NO_TIMERS, metrics(), 0, NO_DEDUP, NO_LIVE_TABLES);
        w.write(rows("a", 0), null);
        assertThatThrownBy(() -> w.flush(false)).isInstanceOf(IOException.class)
                .hasMessageContaining("ClickHouse reports 0 of 1 rows written into `db`.`t`, which does not drop repeats");
        w.close();
    }

    @Test
    void aBatchWhoseEveryRecordIsRefusedGoesToTheDeadLettersAndTheJobGoesOn() throws Exception {
        FakeClickHouse ch = new FakeClickHouse(new CountDownLatch(0), r -> r.startsWith("X"), 469);
        ClickHouseSinkWriter w = writer(ch, 1000);
        w.write(rows("X1", 0), null);
        w.write(rows("X2", 1), null);
        w.flush(false); // two strikes at most: no failure
        w.write(rows("a", 2), null);
        w.flush(false);
        assertThat(ch.accepted).containsExactly("a");
        w.close();
    }

    @Test
    void threeBatchesInARowRefusedEntirelyStopTheJobOnceWithoutARestart() throws Exception {
        FakeClickHouse ch = new FakeClickHouse(new CountDownLatch(0), r -> r.startsWith("X"), 395);
        ClickHouseSinkWriter w = writer(ch, 40);
        long offset = 0;
        for (int batch = 0; batch < 2; batch++) {
            for (int i = 0; i < 40; i++) {
                w.write(rows("X" + i, offset++), null);
            }
        }
        w.flush(false); // two batches, 80 records, every one refused: not yet the table
        for (int i = 0; i < 40; i++) {
            w.write(rows("X" + i, offset++), null);
        }
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> w.flush(false));
        assertThat(t).isInstanceOf(IOException.class).hasMessageContaining("ClickHouse refuses the rows of `db`.`t` as a whole")
                .hasMessageContaining("every record of the last 3 batches").hasMessageContaining("Code: 395")
                .hasMessageContaining("--sink.table-refusal dead-letter");
        assertThat(org.apache.flink.runtime.executiongraph.failover.ExecutionFailureHandler.isUnrecoverableError(t))
                .as("Flink does not restart it").isTrue();
        assertThat(ch.accepted).isEmpty();
        w.close();
    }

    @Test
    void batchesRefusedEntirelyButNotThreeInARowNeverStopTheJob() throws Exception {
        FakeClickHouse ch = new FakeClickHouse(new CountDownLatch(0), r -> r.contains("X"), 469);
        ClickHouseSinkWriter w = writer(ch, 40);
        long offset = 0;
        for (int batch = 0; batch < 9; batch++) {
            boolean mixed = batch % 3 == 2; // refused, refused, half: six batches refused entirely, two in a row
            for (int i = 0; i < 40; i++) {
                w.write(rows(mixed && i % 2 == 0 ? "a" : "X", offset++), null);
            }
            w.flush(false);
        }
        assertThat(String.join("", ch.accepted)).isEqualTo("a".repeat(3 * 20));
        w.close();
    }

    @Test
    void withDeadLetterTheTableRefusalRuleSendsTheRecordsOnAndTheJobGoesOn() throws Exception {
        FakeClickHouse ch = new FakeClickHouse(new CountDownLatch(0), r -> r.startsWith("X"), 395);
        ClickHouseSinkWriter w = new ClickHouseSinkWriter(settings(Delivery.AT_LEAST_ONCE, Compression.NONE, 40, 1L << 30,
                TableRefusalAction.DEAD_LETTER), ch, NO_TIMERS, metrics(), 0, FACTS, NO_LIVE_TABLES);
        long offset = 0;
        for (int batch = 0; batch < 5; batch++) {
            for (int i = 0; i < 40; i++) {
                w.write(rows("X", offset++), null);
            }
        }
        w.write(rows("a", offset), null);
        w.flush(false);
        assertThat(ch.accepted).containsExactly("a");
        w.close();
    }

    @Test
    void aRefusalAboutTheTableStopsTheJobOnceWithoutSplitting() throws Exception {
        List<String> tried = Collections.synchronizedList(new ArrayList<>());
        FakeClickHouse ch = new FakeClickHouse(new CountDownLatch(0), r -> tried.add(r) && r.contains("X"), 60); // UNKNOWN_TABLE
        ClickHouseSinkWriter w = writer(ch, 1000);
        w.write(rows("a", 0), null);
        w.write(rows("X", 1), null);
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> w.flush(false));
        assertThat(t).isInstanceOf(IOException.class).hasMessageContaining("ClickHouse refuses the rows of `db`.`t` as a whole")
                .hasMessageContaining("Code: 60");
        assertThat(org.apache.flink.runtime.executiongraph.failover.ExecutionFailureHandler.isUnrecoverableError(t)).isTrue();
        assertThat(tried).as("one INSERT, not split").containsExactly("aX");
        w.close();
    }

    @Test
    void atLeastOnceAColumnsRefusalOfATableThatChangedRestartsTheJobToReadItAgain() throws Exception {
        FakeClickHouse ch = new FakeClickHouse(new CountDownLatch(0), r -> true, 16); // NO_SUCH_COLUMN_IN_TABLE
        ClickHouseSinkWriter w = new ClickHouseSinkWriter(settings(Delivery.AT_LEAST_ONCE, Compression.NONE, 1000, 1L << 30),
                ch, NO_TIMERS, metrics(), 0, FACTS, table -> "other columns".getBytes(StandardCharsets.US_ASCII));
        w.write(rows("a", 0), null);
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> w.flush(false));
        assertThat(t).hasMessageContaining("the table's columns changed after the job read them; the job restarts");
        assertThat(org.apache.flink.runtime.executiongraph.failover.ExecutionFailureHandler.isUnrecoverableError(t)).isFalse();
        w.close();
        // the same columns as the batch's: no restart would help
        ClickHouseSinkWriter same = new ClickHouseSinkWriter(settings(Delivery.AT_LEAST_ONCE, Compression.NONE, 1000, 1L << 30),
                ch, NO_TIMERS, metrics(), 0, FACTS, table -> HEADER);
        same.write(rows("a", 0), null);
        t = org.assertj.core.api.Assertions.catchThrowable(() -> same.flush(false));
        assertThat(org.apache.flink.runtime.executiongraph.failover.ExecutionFailureHandler.isUnrecoverableError(t)).isTrue();
        same.close();
    }

    @Test
    void aBatchRefusedForMemoryIsSentInHalvesDownToWhatPasses() throws Exception {
        // refuses bodies of more than 3 records for memory, as a server whose memory limit a large INSERT passes
        FakeClickHouse ch = new FakeClickHouse(new CountDownLatch(0), r -> r.length() > 3, 241) {
            @Override
            public long insert(String sql, Map<String, String> settings, Body body, Compression compression)
                    throws IOException, InterruptedException {
                try {
                    return super.insert(sql, settings, body, compression);
                } catch (ClickHouseException e) {
                    throw new ClickHouseException(e.getMessage(), 500, 241, true); // retryable, as the real one
                }
            }
        };
        SinkMetrics m = metrics();
        ClickHouseSinkWriter w = new ClickHouseSinkWriter(settings(Delivery.AT_LEAST_ONCE, Compression.LZ4, 1000, 1L << 30),
                ch, NO_TIMERS, m, 0, FACTS, NO_LIVE_TABLES);
        for (int i = 0; i < 10; i++) {
            w.write(rows(Character.toString('a' + i), i), null);
        }
        w.flush(false);
        assertThat(sortedChars(ch.accepted)).isEqualTo("abcdefghij");
        assertThat(ch.accepted).allSatisfy(r -> assertThat(r.length()).isLessThanOrEqualTo(3));
        assertThat(m.batchesSplit.getCount()).isEqualTo(3); // 10 -> 5 + 5 -> (2 + 3) + (2 + 3)
        assertThat(ch.tokens).allSatisfy(t -> assertThat(t).matches(".*:[0-9a-f]{8}/\\d+-\\d+"));
        w.close();
    }

    @Test
    void aRefusalTheJobDoesNotKnowToBeAboutRowsStopsItWithoutSplittingOrDeadLettering() throws Exception {
        for (ClickHouseException refusal : List.of(
                new ClickHouseException("TLS to https://ch:8443/: PKIX path validation failed: certificate expired", -1, -1, false),
                new ClickHouseException("ClickHouse answered HTTP 400: Bad Request", 400, -1, false),
                new ClickHouseException("Code: 1001. DB::Exception: std::exception", 500, 1001, false))) {
            List<String> tried = Collections.synchronizedList(new ArrayList<>());
            InsertClient ch = new FakeClickHouse(new CountDownLatch(0), r -> false, 0) {
                @Override
                public long insert(String sql, Map<String, String> settings, Body body, Compression compression)
                        throws ClickHouseException {
                    tried.add("insert");
                    throw refusal;
                }
            };
            ClickHouseSinkWriter w = writer(ch, 1000);
            for (int i = 0; i < 8; i++) {
                w.write(rows(Character.toString('a' + i), i), null);
            }
            Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> w.flush(false));
            assertThat(t).as(refusal.getMessage()).hasMessageContaining("as a whole").hasMessageContaining(refusal.getMessage());
            assertThat(org.apache.flink.runtime.executiongraph.failover.ExecutionFailureHandler.isUnrecoverableError(t)).isTrue();
            assertThat(tried).as("one INSERT: good records are not split out, dead-lettered or lost for it").hasSize(1);
            w.close();
        }
    }

    /**
     * A view that refuses rows after the table stored the batch (ClickHouse's order): the parts go
     * with the batch's own token, which the table drops as a repeat, and without deduplication in
     * the views, which take each good part once; the refused record alone is set aside. The table
     * keeps every row once.
     */
    @Test
    void aViewsRefusalIsIsolatedWithTheBatchsTokenSoTheTableStoresNothingTwice() throws Exception {
        List<String> table = Collections.synchronizedList(new ArrayList<>());
        List<String> view = Collections.synchronizedList(new ArrayList<>());
        java.util.Set<String> tokens = java.util.concurrent.ConcurrentHashMap.newKeySet();
        InsertClient ch = new InsertClient() {
            @Override
            public long insert(String sql, Map<String, String> settings, Body body, Compression compression)
                    throws IOException {
                String rows = new String(FakeClickHouse.uncompressed(body.toByteArray(), compression),
                        StandardCharsets.US_ASCII).substring(HEADER_TEXT.length());
                String token = settings.get("insert_deduplication_token");
                synchronized (this) {
                    if (tokens.add(token)) {
                        table.add(rows); // stored before the views see it
                    } else if (!"0".equals(settings.get("deduplicate_blocks_in_dependent_materialized_views"))) {
                        return rows.length(); // a repeat, views deduplicated too
                    }
                    if (rows.contains("X")) {
                        throw new ClickHouseException("Code: 395. DB::Exception: Value passed to 'throwIf' function is"
                                + " non-zero: while pushing to view db.mv. (FUNCTION_THROW_IF_VALUE_IS_NON_ZERO)", 500, 395, false);
                    }
                    view.add(rows);
                }
                return rows.length();
            }

            @Override
            public void close() {}
        };
        ClickHouseSinkWriter w = writer(ch, 1000); // FACTS: the tables drop repeats
        String[] chunks = {"a", "b", "X", "c", "d", "e", "f", "g"};
        for (int i = 0; i < chunks.length; i++) {
            w.write(rows(chunks[i], i), null);
        }
        w.flush(false);
        assertThat(table).as("the table: the batch once").containsExactly("abXcdefg");
        assertThat(sortedChars(view)).as("the view: every good record once").isEqualTo("abcdefg");
        w.close();

        // a table without a deduplication window: parts would be stored again, so the job stops
        table.clear();
        tokens.clear();
        ClickHouseSinkWriter plain = new ClickHouseSinkWriter(settings(Delivery.AT_LEAST_ONCE, Compression.NONE, 1000,
                1L << 30), ch, NO_TIMERS, metrics(), 0, NO_DEDUP, NO_LIVE_TABLES);
        for (int i = 0; i < chunks.length; i++) {
            plain.write(rows(chunks[i], i), null);
        }
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> plain.flush(false));
        assertThat(t).hasMessageContaining("a materialized view refused rows after the table had stored them")
                .hasMessageContaining("non_replicated_deduplication_window");
        assertThat(table).as("stored once, not again in parts").containsExactly("abXcdefg");
        plain.close();
    }

    @Test
    void aRecordSpanningTooManyPartitionsIsSetAsideAtOnceAndTheRestWritten() throws Exception {
        List<String> tried = Collections.synchronizedList(new ArrayList<>());
        FakeClickHouse ch = new FakeClickHouse(new CountDownLatch(0), r -> false, 0) {
            @Override
            public long insert(String sql, Map<String, String> settings, Body body, Compression compression)
                    throws IOException, InterruptedException {
                String rows = new String(uncompressed(body.toByteArray(), compression), StandardCharsets.US_ASCII);
                tried.add(rows);
                if (rows.contains("P")) {
                    throw new ClickHouseException("Code: 252. DB::Exception: Too many partitions for single INSERT block"
                            + " (more than 100). (TOO_MANY_PARTS)", 500, 252, true);
                }
                return super.insert(sql, settings, body, compression);
            }
        };
        ClickHouseSinkWriter w = writer(ch, 1000);
        String[] chunks = {"a", "b", "P", "c"};
        for (int i = 0; i < chunks.length; i++) {
            w.write(rows(chunks[i], i), null);
        }
        w.flush(false);
        assertThat(sortedChars(ch.accepted)).isEqualTo("abc");
        // 4 records: the whole, halves ab and Pc, then P and c; no retry of what cannot change
        assertThat(tried).hasSize(5);
        w.close();
    }
}
