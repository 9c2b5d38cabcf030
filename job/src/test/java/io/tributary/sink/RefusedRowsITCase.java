package io.tributary.sink;

import static io.tributary.testing.Otlp.kv;
import static io.tributary.testing.Otlp.str;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.tributary.TributaryJob;
import io.tributary.clickhouse.ClickHouseClient;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.deadletter.DeadLetterSerializer;
import io.tributary.schema.TableEngine;
import io.tributary.testing.RealServices;
import io.tributary.topology.SchemaManager;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Records that decode but whose rows ClickHouse refuses for good (here: a CHECK constraint on the
 * table) go to the dead-letter topic with their original bytes, whatever their share of the
 * batch; the rest of their batches is written once and the job goes on, without a restart. Only a
 * table that refuses everything stops the job, once, unless {@code sink.table-refusal} says to
 * dead-letter.
 */
class RefusedRowsITCase {

    static final org.apache.flink.runtime.testutils.InMemoryReporter REPORTER =
            org.apache.flink.runtime.testutils.InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension FLINK = RealServices.miniCluster(2, REPORTER);

    @Test
    void refusedRecordsBecomeDeadLettersAndTheRestIsWritten() throws Exception {
        String topic = RealServices.uniqueName("it_refused");
        String dlq = RealServices.uniqueName("it_refused_dlq");
        String db = RealServices.uniqueName("it_refused");
        RealServices.createTopic(topic, 1);
        RealServices.createTopic(dlq, 1);
        List<byte[]> records = new ArrayList<>();
        List<Integer> poisoned = List.of(7, 8, 30);
        for (int r = 0; r < 40; r++) {
            records.add(record(r, poisoned.contains(r)).toByteArray());
        }
        RealServices.produce(topic, records);

        TributaryConfig config = TributaryConfig.fromArgs(new String[] {
            "--signals", "traces",
            "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
            "--kafka.topics.traces", topic,
            "--kafka.group-id", db,
            "--kafka.bounded", "true",
            "--kafka.starting-offsets", "earliest",
            "--dlq.topic", dlq,
            "--parallelism", "1",
            "--clickhouse.url", RealServices.clickHouseUrl(),
            "--clickhouse.database", db,
            "--sink.batch.max-rows", "100000",
            "--sink.format", "native",
            "--checkpoint.interval", "1h"
        });
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
        ClickHouseClient ch = RealServices.clickHouse();
        ch.execute("ALTER TABLE `" + db + "`.otel_traces ADD CONSTRAINT no_poison CHECK SpanName != 'poison'");
        try {
            TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), config);

            // all 40 records were one batch: every record but the three poisoned ones is written
            assertThat(ch.query("SELECT count(), uniqExact(SpanAttributes['record']) FROM `" + db
                    + "`.otel_traces FORMAT TSV").strip()).isEqualTo((37 * 10) + "\t37");
            assertThat(ch.query("SELECT count() FROM `" + db + "`.otel_traces WHERE SpanAttributes['record'] IN ('7', '8', '30')"
                    + " FORMAT TSV").strip()).isEqualTo("0");
            List<ConsumerRecord<byte[], byte[]>> letters = RealServices.consumeAll(dlq);
            assertThat(letters).as("one letter per refused record").hasSize(3);
            Map<Long, ConsumerRecord<byte[], byte[]>> byOffset = new HashMap<>();
            for (ConsumerRecord<byte[], byte[]> l : letters) {
                String offset = new String(l.headers().lastHeader(DeadLetterSerializer.SOURCE_OFFSET).value(), StandardCharsets.UTF_8);
                byOffset.put(Long.parseLong(offset), l);
                assertThat(new String(l.headers().lastHeader(DeadLetterSerializer.ERROR_MESSAGE).value(), StandardCharsets.UTF_8))
                        .contains("VIOLATED_CONSTRAINT").contains("no_poison");
                assertThat(new String(l.headers().lastHeader(DeadLetterSerializer.SOURCE_TOPIC).value(), StandardCharsets.UTF_8))
                        .isEqualTo(topic);
            }
            assertThat(byOffset).containsOnlyKeys(7L, 8L, 30L);
            for (long o : byOffset.keySet()) {
                assertThat(byOffset.get(o).value()).isEqualTo(records.get((int) o));
            }
        } finally {
            ch.execute("DROP DATABASE IF EXISTS `" + db + "`");
        }
    }

    /**
     * The reported case: 600 one-span records, every second one refused. Before, more than 100
     * refused records in a batch failed the job, which replayed them into the same refusal forever
     * (measured: killed after 10 minutes, 202 of the 300 good spans stored as 3,434 rows).
     */
    @Test
    void halfTheRecordsRefusedAtLeastOnce() throws Exception {
        everySecondRecordRefused("at-least-once", "rowbinary");
    }

    /** In Native: the refused batch is split through its records' RowBinary rows and sent as Native parts. */
    @Test
    void halfTheRecordsRefusedExactlyOnce() throws Exception {
        everySecondRecordRefused("exactly-once", "native");
    }

    private void everySecondRecordRefused(String delivery, String format) throws Exception {
        String topic = RealServices.uniqueName("it_refused_half");
        String dlq = RealServices.uniqueName("it_refused_half_dlq");
        String db = RealServices.uniqueName("it_refused_half");
        String clean = RealServices.uniqueName("it_refused_clean");
        RealServices.createTopic(topic, 2);
        RealServices.createTopic(dlq, 1);
        List<byte[]> records = new ArrayList<>();
        List<byte[]> good = new ArrayList<>();
        for (int r = 0; r < 600; r++) {
            byte[] v = oneSpan(r, r % 2 == 1).toByteArray();
            records.add(v);
            if (r % 2 == 0) {
                good.add(v);
            }
        }
        RealServices.produce(topic, records);
        String cleanTopic = RealServices.uniqueName("it_refused_clean");
        RealServices.createTopic(cleanTopic, 1);
        RealServices.produce(cleanTopic, good);
        ClickHouseClient ch = RealServices.clickHouse();
        try {
            TributaryConfig config = TributaryConfig.fromArgs(RealServices.concat(RealServices.boundedTraces(topic, dlq, db),
                    "--sink.delivery", delivery, "--sink.format", format, "--checkpoint.interval", "2s"));
            SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
            if (delivery.equals("exactly-once")) {
                ch.execute("ALTER TABLE `" + db + "`.otel_traces MODIFY SETTING non_replicated_deduplication_window = 1000");
            }
            ch.execute("ALTER TABLE `" + db + "`.otel_traces ADD CONSTRAINT no_poison CHECK SpanName != 'poison'");
            TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), config);

            // the good spans, each once, every column as a run without the refused records writes them
            TributaryConfig reference = TributaryConfig.fromArgs(RealServices.concat(
                    RealServices.boundedTraces(cleanTopic, "", clean), "--sink.format", "rowbinary"));
            SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), reference, TableEngine.MERGE_TREE, null);
            TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), reference);
            assertThat(RealServices.rows(db, "otel_traces")).hasSize(300).isEqualTo(RealServices.rows(clean, "otel_traces"));

            List<ConsumerRecord<byte[], byte[]>> letters = RealServices.consumeAll(dlq);
            assertThat(letters).as("one letter per refused record, once").hasSize(300);
            List<byte[]> refused = new ArrayList<>();
            for (int r = 1; r < 600; r += 2) {
                refused.add(records.get(r));
            }
            assertThat(letters.stream().map(ConsumerRecord::value)).containsExactlyInAnyOrderElementsOf(refused);
            assertThat(letters).allSatisfy(l -> assertThat(RealServices.header(l, DeadLetterSerializer.ERROR_MESSAGE))
                    .contains("VIOLATED_CONSTRAINT").contains("no_poison"));
        } finally {
            RealServices.dropDatabases(db, clean);
        }
    }

    /**
     * A table that refuses every record (its constraint can never hold): after three batches in a
     * row refused entirely, 150 records, the job stops once, without restarting, naming the table
     * and ClickHouse's message; with {@code sink.table-refusal dead-letter} every record goes to the
     * dead-letter topic and the run ends.
     */
    @Test
    void aTableThatRefusesEverythingStopsTheJobOnceOrDeadLettersAll() throws Exception {
        String topic = RealServices.uniqueName("it_refused_all");
        String dlq = RealServices.uniqueName("it_refused_all_dlq");
        String db = RealServices.uniqueName("it_refused_all");
        RealServices.createTopic(topic, 1);
        RealServices.createTopic(dlq, 1);
        List<byte[]> records = new ArrayList<>();
        for (int r = 0; r < 200; r++) {
            records.add(oneSpan(r, false).toByteArray());
        }
        RealServices.produce(topic, records);
        ClickHouseClient ch = RealServices.clickHouse();
        try {
            // a restart strategy that would go on for minutes: the stop must not use it
            String[] args = RealServices.concat(RealServices.boundedTraces(topic, dlq, db), "--sink.batch.max-rows", "50",
                    "--sink.max-in-flight", "1", "--flink.restart-strategy.type", "fixed-delay",
                    "--flink.restart-strategy.fixed-delay.attempts", "1000", "--flink.restart-strategy.fixed-delay.delay", "200ms");
            TributaryConfig config = TributaryConfig.fromArgs(args);
            SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
            ch.execute("ALTER TABLE `" + db + "`.otel_traces ADD CONSTRAINT never CHECK SpanName = 'never'");
            long started = System.nanoTime();
            String failure = org.apache.flink.util.ExceptionUtils.stringifyException(org.assertj.core.api.Assertions
                    .catchThrowable(() -> TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), config)));
            assertThat(failure).contains("ClickHouse refuses the rows of `" + db + "`.`otel_traces` as a whole")
                    .contains("every record of the last 3 batches").contains("VIOLATED_CONSTRAINT")
                    .contains("--sink.table-refusal dead-letter").contains("SuppressRestartsException");
            assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started)).as("once, no restarts").isLessThan(60);
            assertThat(RealServices.count(db, "otel_traces")).isZero();
            // the first two batches' records were refused one by one: their letters are out
            assertThat(RealServices.consumeAll(dlq)).hasSize(100);

            TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(),
                    TributaryConfig.fromArgs(RealServices.concat(args, "--sink.table-refusal", "dead-letter",
                            "--kafka.group-id", db + "_again")));
            List<ConsumerRecord<byte[], byte[]>> letters = RealServices.consumeAll(dlq);
            assertThat(letters.subList(100, letters.size()).stream().map(ConsumerRecord::value))
                    .as("the second run: every record, once").containsExactlyInAnyOrderElementsOf(records);
            assertThat(RealServices.count(db, "otel_traces")).isZero();
        } finally {
            RealServices.dropDatabases(db);
        }
    }

    /**
     * A batch larger than the server lets one query use (the user {@code tributary_small_memory}
     * of the test ClickHouse (io.tributary.services.ClickHouse): 40 MB; its INSERTs of 20 MB of rows fail with MEMORY_LIMIT_EXCEEDED,
     * of 10 MB pass) is sent in halves after three refusals, and every row lands once. Before,
     * the refusal was retried as it was until the attempts ran out, then the job failed and
     * replayed the same batch, forever.
     */
    @Test
    void aBatchRefusedForMemoryIsSentInHalvesAndLandsOnce() throws Exception {
        String topic = RealServices.uniqueName("it_refused_memory");
        String db = RealServices.uniqueName("it_refused_memory");
        RealServices.createTopic(topic, 1);
        List<byte[]> records = new ArrayList<>();
        String padding = "m".repeat(1000);
        for (int r = 0; r < 320; r++) { // 32,000 spans of about 1.3 KB: 40 MB of rows in one batch
            ScopeSpans.Builder ss = ScopeSpans.newBuilder();
            for (int i = 0; i < 100; i++) {
                ss.addSpans(Span.newBuilder()
                        .setTraceId(ByteString.copyFrom(new byte[] {7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, (byte) (r >> 8), (byte) r}))
                        .setSpanId(ByteString.copyFrom(new byte[] {8, 8, 8, 8, (byte) (r >> 8), (byte) r, 0, (byte) i}))
                        .setName("big").setStartTimeUnixNano(1_700_000_000_000_000_000L + r)
                        .addAttributes(kv("padding", str(padding + r + "/" + i))));
            }
            records.add(ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                    .setResource(Resource.newBuilder().addAttributes(kv("service.name", str("memory"))))
                    .addScopeSpans(ss)).build().toByteArray());
        }
        RealServices.produce(topic, records);
        try {
            TributaryConfig config = TributaryConfig.fromArgs(RealServices.concat(RealServices.boundedTraces(topic, "", db),
                    "--clickhouse.user", "tributary_small_memory", "--sink.batch.max-bytes", "256 mb", "--sink.format", "native",
                    "--sink.retry.initial-backoff", "50ms", "--flink.restart-strategy.type", "none"));
            SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            io.tributary.topology.TributaryTopology.build(env, config);
            org.apache.flink.api.common.JobExecutionResult result = env.execute("refused for memory");
            assertThat(RealServices.clickHouse().query("SELECT count(), uniqExact(SpanId), min(length(SpanAttributes['padding']))"
                    + " FROM `" + db + "`.otel_traces FORMAT TSV")).isEqualTo("32000\t32000\t1003\n");
            assertThat(RealServices.counter(REPORTER, result.getJobID(), "<endpoint>", null, "batchesSplit"))
                    .as("sent in halves").isPositive();
            assertThat(RealServices.counter(REPORTER, result.getJobID(), "<cause>", "memory", "insertRetries"))
                    .as("retried for memory first").isPositive();
        } finally {
            RealServices.dropDatabases(db);
        }
    }

    /**
     * One small record whose spans fall on 101 days: the exporter's daily partitions make its
     * INSERT refused for good ("Too many partitions for single INSERT block", code 252, which is
     * also the code of a passing backlog of parts). It goes to the dead-letter topic at once, the
     * rest is written, the run ends. Before, 252 was retried, the job restarted and replayed it,
     * forever.
     */
    @Test
    void aRecordSpanningTooManyPartitionsIsADeadLetter() throws Exception {
        String topic = RealServices.uniqueName("it_refused_days");
        String dlq = RealServices.uniqueName("it_refused_days_dlq");
        String db = RealServices.uniqueName("it_refused_days");
        RealServices.createTopic(topic, 1);
        RealServices.createTopic(dlq, 1);
        List<byte[]> records = new ArrayList<>();
        for (int r = 0; r < 20; r++) {
            records.add(oneSpan(r, false).toByteArray());
        }
        ScopeSpans.Builder days = ScopeSpans.newBuilder();
        for (int d = 0; d < 101; d++) {
            days.addSpans(Span.newBuilder().setTraceId(ByteString.copyFrom(new byte[16])).setName("day " + d)
                    .setSpanId(ByteString.copyFrom(new byte[] {9, 9, 9, 9, 9, 9, 9, (byte) d}))
                    .setStartTimeUnixNano(1_700_000_000_000_000_000L + d * 86_400_000_000_000L));
        }
        byte[] wide = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                .addScopeSpans(days)).build().toByteArray();
        records.add(7, wide);
        RealServices.produce(topic, records);
        try {
            TributaryConfig config = TributaryConfig.fromArgs(RealServices.concat(RealServices.boundedTraces(topic, dlq, db),
                    "--sink.format", "rowbinary", "--flink.restart-strategy.type", "none"));
            SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
            TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), config);
            assertThat(RealServices.clickHouse().query("SELECT count(), uniqExact(SpanId) FROM `" + db
                    + "`.otel_traces FORMAT TSV")).isEqualTo("20\t20\n");
            List<ConsumerRecord<byte[], byte[]>> letters = RealServices.consumeAll(dlq);
            assertThat(letters).hasSize(1);
            assertThat(letters.get(0).value()).isEqualTo(wide);
            assertThat(RealServices.header(letters.get(0), DeadLetterSerializer.ERROR_MESSAGE)).contains("Too many partitions");
        } finally {
            RealServices.dropDatabases(db);
        }
    }


    /** One span, named {@code poison} when refused, with ids and times of its own. */
    private static ExportTraceServiceRequest oneSpan(int r, boolean poisoned) {
        return ExportTraceServiceRequest.newBuilder()
                .addResourceSpans(ResourceSpans.newBuilder()
                        .setResource(Resource.newBuilder().addAttributes(kv("service.name", str("refused"))))
                        .addScopeSpans(ScopeSpans.newBuilder().addSpans(Span.newBuilder()
                                .setTraceId(ByteString.copyFrom(new byte[] {3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
                                    (byte) (r >> 8), (byte) r}))
                                .setSpanId(ByteString.copyFrom(new byte[] {4, 4, 4, 4, 4, 4, (byte) (r >> 8), (byte) r}))
                                .setName(poisoned ? "poison" : "fine")
                                .setStartTimeUnixNano(1_700_000_000_000_000_000L + r * 1_000_000L)
                                .setEndTimeUnixNano(1_700_000_000_000_000_000L + r * 1_000_000L + 5_000)
                                .addAttributes(kv("record", str(Integer.toString(r)))))))
                .build();
    }

    private static ExportTraceServiceRequest record(int r, boolean poisoned) {
        ScopeSpans.Builder ss = ScopeSpans.newBuilder();
        for (int i = 0; i < 10; i++) {
            ss.addSpans(Span.newBuilder()
                    .setTraceId(ByteString.copyFrom(new byte[] {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, (byte) r}))
                    .setSpanId(ByteString.copyFrom(new byte[] {2, 2, 2, 2, 2, 2, (byte) r, (byte) (i + 1)}))
                    .setName(poisoned && i == 5 ? "poison" : "fine")
                    .addAttributes(kv("record", str(Integer.toString(r)))));
        }
        return ExportTraceServiceRequest.newBuilder()
                .addResourceSpans(ResourceSpans.newBuilder()
                        .setResource(Resource.newBuilder().addAttributes(kv("service.name", str("refused"))))
                        .addScopeSpans(ss))
                .build();
    }
}
