package io.tributary.sink;

import static io.tributary.testing.Otlp.kv;
import static io.tributary.testing.Otlp.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.tributary.TributaryJob;
import io.tributary.clickhouse.ClickHouseClient;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.clickhouse.ClickHouseException;
import io.tributary.clickhouse.body.Compression;
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

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * INSERTs that fail after ClickHouse has answered 200 (reproduced on 26.7): with a settings profile
 * that turns progress headers on, ClickHouse sends its status and headers before the INSERT ends,
 * and a materialized view that throws later reports the failure only in a trailing header and the
 * body. The job pins {@code send_progress_in_http_headers=0} and {@code wait_end_of_query=1}, and
 * takes an exception in a 200 reply for the failure it is.
 */
class InsertAnswersITCase {

    @RegisterExtension
    static final MiniClusterExtension FLINK = RealServices.miniCluster(2);

    /**
     * Through the job, as the user {@code tributary_progress} (io.tributary.services.ClickHouse), whose profile
     * sends progress headers every millisecond: a view that throws at one span makes the record
     * holding it a dead letter, and every span of every other record reaches the view's table.
     * Before, the 200 was taken for success: the view's table stayed empty and nothing was retried.
     */
    @Test
    void aViewThatThrowsAfterTheAnswerStartedFailsTheInsertAndOnlyItsRecordIsSetAside() throws Exception {
        String topic = RealServices.uniqueName("it_answers");
        String dlq = RealServices.uniqueName("it_answers_dlq");
        String db = RealServices.uniqueName("it_answers");
        RealServices.createTopic(topic, 1);
        RealServices.createTopic(dlq, 1);
        List<byte[]> records = new ArrayList<>();
        int poisoned = 60;
        for (int r = 0; r < 100; r++) {
            records.add(record(r, r == poisoned).toByteArray());
        }
        RealServices.produce(topic, records);
        TributaryConfig config = TributaryConfig.fromArgs(RealServices.boundedTraces(topic, dlq, db,
                "--clickhouse.user", "tributary_progress", "--flink.restart-strategy.type", "none"));
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
        ClickHouseClient ch = RealServices.clickHouse();
        // the table drops repeats, so the job can send parts of the batch the view refused (see below)
        ch.execute("ALTER TABLE `" + db + "`.otel_traces MODIFY SETTING non_replicated_deduplication_window = 100");
        ch.execute("CREATE TABLE `" + db + "`.spans_seen (SpanId String, SpanName String) ENGINE = MergeTree ORDER BY SpanId");
        ch.execute("CREATE MATERIALIZED VIEW `" + db + "`.spans_seen_mv TO `" + db + "`.spans_seen AS SELECT SpanId, SpanName"
                + " FROM `" + db + "`.otel_traces WHERE throwIf(SpanName = 'poison') = 0");
        try {
            TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), config);

            assertThat(ch.query("SELECT uniqExact(SpanId), countIf(SpanName = 'poison'), uniqExactIf(SpanId, SpanId LIKE '"
                    + String.format("%02x", poisoned) + "%') FROM `" + db + "`.spans_seen FORMAT TSV"))
                    .as("the view saw every span of the 99 good records, none of the poisoned one's")
                    .isEqualTo(99 * 50 + "\t0\t0\n");
            assertThat(ch.query("SELECT count(), uniqExact(SpanId) FROM `" + db + "`.spans_seen FORMAT TSV"))
                    .as("each once").isEqualTo(99 * 50 + "\t" + 99 * 50 + "\n");
            // ClickHouse stored the whole batch in the table before the view refused it (an INSERT is not
            // atomic across a table and its views): the parts sent to find the record were repeats it dropped
            assertThat(ch.query("SELECT count(), uniqExact(SpanId) FROM `" + db + "`.otel_traces FORMAT TSV"))
                    .as("the table: every span once").isEqualTo(100 * 50 + "\t" + 100 * 50 + "\n");
            List<ConsumerRecord<byte[], byte[]>> letters = RealServices.consumeAll(dlq);
            assertThat(letters).hasSize(1);
            assertThat(letters.get(0).value()).isEqualTo(records.get(poisoned));
            assertThat(new String(letters.get(0).headers().lastHeader(DeadLetterSerializer.ERROR_MESSAGE).value(),
                    StandardCharsets.UTF_8)).contains("code 395").contains("FUNCTION_THROW_IF_VALUE_IS_NON_ZERO");
        } finally {
            RealServices.dropDatabases(db);
        }
    }

    /**
     * The same view over a table that keeps every INSERT: parts of the batch would store the
     * table's rows again, so the job stops once, saying why, instead of repeating them.
     */
    @Test
    void aViewsRefusalOverATableWithoutADeduplicationWindowStopsTheJobOnce() throws Exception {
        String topic = RealServices.uniqueName("it_answers_plain");
        String db = RealServices.uniqueName("it_answers_plain");
        RealServices.createTopic(topic, 1);
        List<byte[]> records = new ArrayList<>();
        for (int r = 0; r < 10; r++) {
            records.add(record(r, r == 4).toByteArray());
        }
        RealServices.produce(topic, records);
        TributaryConfig config = TributaryConfig.fromArgs(RealServices.boundedTraces(topic, "", db,
                "--flink.restart-strategy.type", "fixed-delay", "--flink.restart-strategy.fixed-delay.attempts", "1000",
                "--flink.restart-strategy.fixed-delay.delay", "200ms"));
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
        ClickHouseClient ch = RealServices.clickHouse();
        ch.execute("CREATE TABLE `" + db + "`.spans_seen (SpanId String) ENGINE = MergeTree ORDER BY SpanId");
        ch.execute("CREATE MATERIALIZED VIEW `" + db + "`.spans_seen_mv TO `" + db + "`.spans_seen AS SELECT SpanId"
                + " FROM `" + db + "`.otel_traces WHERE throwIf(SpanName = 'poison') = 0");
        try {
            String failure = org.apache.flink.util.ExceptionUtils.stringifyException(
                    catchThrowable(() -> TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), config)));
            assertThat(failure).contains("a materialized view refused rows after the table had stored them")
                    .contains("non_replicated_deduplication_window").contains("SuppressRestartsException");
            assertThat(ch.query("SELECT count(), uniqExact(SpanId) FROM `" + db + "`.otel_traces FORMAT TSV"))
                    .as("stored once by ClickHouse, not again").isEqualTo("500\t500\n");
        } finally {
            RealServices.dropDatabases(db);
        }
    }

    /**
     * The client on its own, sending the progress settings the job never sends: ClickHouse
     * answers 200 and then fails; the exception in the reply is the answer.
     */
    @Test
    void anExceptionInA200ReplyIsAFailure() throws Exception {
        String db = RealServices.uniqueName("it_answers_client");
        ClickHouseClient ch = RealServices.clickHouse();
        ch.execute("CREATE DATABASE `" + db + "`");
        ch.execute("CREATE TABLE `" + db + "`.t (x UInt64) ENGINE = MergeTree ORDER BY x");
        ch.execute("CREATE TABLE `" + db + "`.seen (x UInt64) ENGINE = MergeTree ORDER BY x");
        ch.execute("CREATE MATERIALIZED VIEW `" + db + "`.mv TO `" + db + "`.seen AS SELECT x FROM `" + db
                + "`.t WHERE throwIf(x = 49999) = 0");
        ByteBuffer rows = ByteBuffer.allocate(50_000 * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (long x = 0; x < 50_000; x++) {
            rows.putLong(x);
        }
        try (ClickHouseClient client = new ClickHouseClient(ClickHouseEndpoint.of(RealServices.clickHouseUrl()),
                Duration.ofMinutes(1))) {
            Throwable t = catchThrowable(() -> client.insert("INSERT INTO `" + db + "`.t FORMAT RowBinary",
                    Map.of("send_progress_in_http_headers", "1", "http_headers_progress_interval_ms", "1"),
                    rows.array(), Compression.NONE));
            assertThat(t).isInstanceOf(ClickHouseException.class)
                    .hasMessageContaining("ClickHouse answered HTTP 200 but the INSERT failed afterwards (code 395)");
            assertThat(((ClickHouseException) t).errorCode()).isEqualTo(395);
            assertThat(((ClickHouseException) t).retryable()).isFalse();
        } finally {
            RealServices.dropDatabases(db);
        }
    }

    /** 50 spans; the last one of a poisoned record is named {@code poison}. Span ids start with the record's number. */
    private static ExportTraceServiceRequest record(int r, boolean poisoned) {
        ScopeSpans.Builder ss = ScopeSpans.newBuilder();
        for (int i = 0; i < 50; i++) {
            ss.addSpans(Span.newBuilder()
                    .setTraceId(ByteString.copyFrom(new byte[] {5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, (byte) r}))
                    .setSpanId(ByteString.copyFrom(new byte[] {(byte) r, 6, 6, 6, 6, 6, 6, (byte) i}))
                    .setName(poisoned && i == 49 ? "poison" : "fine")
                    .setStartTimeUnixNano(1_700_000_000_000_000_000L + r * 1_000_000L + i)
                    .setEndTimeUnixNano(1_700_000_000_000_000_000L + r * 1_000_000L + i + 5_000));
        }
        return ExportTraceServiceRequest.newBuilder()
                .addResourceSpans(ResourceSpans.newBuilder()
                        .setResource(Resource.newBuilder().addAttributes(kv("service.name", str("answers"))))
                        .addScopeSpans(ss))
                .build();
    }
}
