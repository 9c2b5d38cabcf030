package io.tributary.sink;

import io.tributary.clickhouse.Body;
import io.tributary.clickhouse.ClickHouseErrors;
import io.tributary.clickhouse.ClickHouseException;
import io.tributary.clickhouse.InsertClient;
import io.tributary.kafka.RefusedRecords;
import io.tributary.metrics.SinkMetrics;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Sends one {@link SealedBatch} as an INSERT, for the writer (at-least-once) and the committer
 * (exactly-once). Thread-safe.
 *
 * <p>Retries with exponential backoff and jitter on connection errors, 5xx replies without a
 * ClickHouse code and retryable ClickHouse codes, resending the same compressed bytes. A batch
 * refused for good because of some rows' values ({@link ClickHouseErrors#isAboutTheRows}) is split
 * in halves until the refused rows are those of single Kafka records; those records go to the
 * dead-letter topic (read back from Kafka by their coordinates) and the rest is written. Any other
 * permanent error, or retries exhausted, is thrown: no batch is dropped.
 *
 * <p>In exactly-once mode every INSERT carries an {@code insert_deduplication_token}: the batch's
 * {@link SealedBatch#token}, and for the halves of a split batch that token plus the range of
 * records, so a batch sent again after a failure, split or not, is dropped by ClickHouse.
 */
final class BatchInserter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BatchInserter.class);
    /** More refused records than this in one batch points at the table, not the records. */
    static final int MAX_REFUSED_PER_BATCH = 100;

    private final SinkSettings settings;
    private final InsertClient client;
    private final SinkMetrics metrics;
    private final RefusedRecords deadLetters;
    private final boolean tokens;
    private final Map<String, String> querySettings;
    private final Map<String, String> isolationSettings;
    private volatile boolean closed;

    BatchInserter(SinkSettings settings, InsertClient client, SinkMetrics metrics) {
        this.settings = settings;
        this.client = client;
        this.metrics = metrics;
        this.deadLetters = new RefusedRecords(
                settings.sourceKafka(), settings.deadLetterKafka(), settings.deadLetterTopic());
        this.tokens = settings.delivery() == Delivery.EXACTLY_ONCE;
        Map<String, String> query = new HashMap<>(settings.insertSettings());
        // Pinned, whatever the user's settings profile says. The data's header names the columns
        // and their types: ClickHouse maps the columns by name, checks each type against the
        // table's, refuses a column the table lacks, and fills the columns left out with their
        // defaults; no row is skipped as bad. And an INSERT returns once its rows are stored.
        query.put("input_format_with_names_use_header", "1");
        query.put("input_format_with_types_use_header", "1");
        query.put("input_format_skip_unknown_fields", "0");
        query.put("input_format_defaults_for_omitted_fields", "1");
        query.put("input_format_allow_errors_num", "0");
        query.put("input_format_allow_errors_ratio", "0");
        query.put("input_format_binary_read_json_as_string", "0");
        query.put("input_format_binary_decode_types_in_binary_format", "0");
        query.put("wait_for_async_insert", "1");
        query.put("async_insert", "0");
        // Into a Distributed table: the INSERT returns once the shards have the rows (not once
        // they are queued on this node), so its answer means stored, its failure is seen, and
        // its deduplication token reaches the local tables.
        query.put("distributed_foreground_insert", "1");
        if (tokens) {
            // A synchronous INSERT deduplicated by its token, and the rows a materialized view
            // derives from it deduplicated with it.
            query.put("insert_deduplicate", "1");
            query.put("deduplicate_blocks_in_dependent_materialized_views", "1");
        }
        this.isolationSettings = Map.copyOf(query);
        if (settings.asyncInsert()) {
            query.put("async_insert", "1");
        }
        this.querySettings = Map.copyOf(query);
    }

    /** Writes the batch (without the records whose rows ClickHouse refuses for good). */
    void write(SealedBatch b) throws IOException, InterruptedException {
        String token = !tokens ? null
                : b.legacy() ? b.legacyToken(settings.database() + "." + settings.tables().get(b.table).name()) : b.token;
        try {
            insert(b, b.body, b.rows, b.rawBytes, querySettings, token);
        } catch (ClickHouseException e) { // refused for good (retryable ones come out as IOException)
            if (!ClickHouseErrors.isAboutTheRows(e.errorCode())) {
                throw refused(b, b.rows, e);
            }
            // Some record's rows are refused for good: find which, write the rest, then set them aside.
            LOG.warn("INSERT into {} refused ({}); looking for the records it is about", table(b), e.getMessage());
            List<Integer> refused = new ArrayList<>();
            Map<Integer, ClickHouseException> reasons = new HashMap<>();
            isolate(b, b.chunks(), token, 0, b.records(), refused, reasons);
            if (refused.size() == b.records() && refused.size() > 1) {
                throw new IOException("INSERT into " + table(b) + " refused the rows of every one of its "
                        + refused.size() + " records, which points at the table, not the records: " + e.getMessage(), e);
            }
            for (int i : refused) {
                if (deadLetters.send(b.topics[i], b.partitions[i], b.offsets[i], reasons.get(i))) {
                    metrics.deadLetters.inc();
                }
            }
        }
    }

    /** A permanent refusal, saying what it means when the rows and the table's columns disagree. */
    private IOException refused(SealedBatch b, int rows, ClickHouseException e) {
        String why = ClickHouseErrors.isAboutTheColumns(e.errorCode())
                ? " (the table's columns are not those the rows were encoded in: the table changed after the job read"
                        + " its columns, or the batch comes from a checkpoint taken before it changed; the job reads the"
                        + " columns again when it restarts)"
                : "";
        return new IOException("INSERT of " + rows + " rows into " + table(b) + " refused" + why + ": " + e.getMessage(), e);
    }

    /** Forgets which records were dead-lettered (once their batches are all written). */
    void forgetDeadLetters() {
        deadLetters.forget();
    }

    /**
     * Writes records {@code [from, to)} of a batch whose INSERT was refused because of some rows,
     * halving until the refused ones are single records, which it collects. Gives up (throws)
     * when more than {@link #MAX_REFUSED_PER_BATCH} records are refused.
     */
    private void isolate(SealedBatch b, List<byte[]> chunks, String token, int from, int to,
            List<Integer> refused, Map<Integer, ClickHouseException> reasons) throws IOException, InterruptedException {
        int mid = (from + to) >>> 1;
        for (int[] half : new int[][] {{from, mid}, {mid, to}}) {
            if (half[0] == half[1]) {
                continue;
            }
            int rows = b.rows(half[0], half[1]);
            long bytes = b.bytes(half[0], half[1]);
            Body body = b.body(chunks.subList(half[0], half[1]));
            try {
                // not async: a refusal must be about these rows only
                insert(b, body, rows, bytes, isolationSettings, token == null ? null : token + "/" + half[0] + "-" + half[1]);
            } catch (ClickHouseException e) {
                if (!ClickHouseErrors.isAboutTheRows(e.errorCode())) {
                    throw refused(b, rows, e);
                }
                if (half[1] - half[0] == 1) {
                    refused.add(half[0]);
                    reasons.put(half[0], e);
                    if (refused.size() > MAX_REFUSED_PER_BATCH) {
                        throw new IOException("INSERT into " + table(b) + " refused the rows of more than "
                                + MAX_REFUSED_PER_BATCH + " records of one batch; stopping: " + e.getMessage(), e);
                    }
                } else {
                    isolate(b, chunks, token, half[0], half[1], refused, reasons);
                }
            }
        }
    }

    /**
     * Sends a body as one INSERT, retrying with backoff on retryable errors with the same bytes.
     *
     * @throws ClickHouseException a permanent refusal
     * @throws IOException retries exhausted
     */
    private void insert(SealedBatch b, Body body, int rows, long bytes, Map<String, String> query, String token)
            throws IOException, InterruptedException {
        if (token != null) {
            Map<String, String> q = new HashMap<>(query);
            q.put("insert_deduplication_token", token);
            query = q;
        }
        String sql = b.legacy() ? settings.legacyInsertSql(b.table) : settings.insertSql(b.table);
        long backoff = settings.retryInitialBackoff().toMillis();
        for (int attempt = 1; ; attempt++) {
            long start = System.nanoTime();
            try {
                long written = client.insert(sql, query, body, b.compression);
                // With no row allowed to be skipped as bad, a synchronous INSERT writes fewer rows
                // than it sends only when ClickHouse recognises a block as a repeat (a token, or
                // a table that deduplicates by content): those rows are stored already. An
                // asynchronous one's summary says nothing reliable (before 26.4 it reports 0).
                if (written < rows && !"1".equals(query.get("async_insert"))) {
                    metrics.rowsDeduplicated.inc(rows - written);
                    LOG.info("ClickHouse stored {} of {} rows of an INSERT into {}: the others were repeats it"
                            + " had stored before", written, rows, table(b));
                }
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                metrics.sent(b.table, rows, bytes, body.length(), ms);
                return;
            } catch (ClickHouseException e) {
                if (!e.retryable()) {
                    throw e;
                }
                if (attempt >= settings.retryMaxAttempts()) {
                    throw failed(b, rows, attempt, e);
                }
                retryLater(b, rows, attempt, e, backoff);
            } catch (IOException e) {
                // connection refused, reset, timed out: the server may be back soon
                if (attempt >= settings.retryMaxAttempts()) {
                    throw failed(b, rows, attempt, e);
                }
                retryLater(b, rows, attempt, e, backoff);
            }
            backoff = Math.min(backoff * 2, settings.retryMaxBackoff().toMillis());
            if (closed) {
                throw new IOException("sink closed while retrying an INSERT into " + table(b));
            }
        }
    }

    private void retryLater(SealedBatch b, int rows, int attempt, Exception e, long backoffMillis)
            throws InterruptedException {
        metrics.retries.inc();
        long pause = backoffMillis / 2 + ThreadLocalRandom.current().nextLong(backoffMillis / 2 + 1);
        LOG.warn(
                "INSERT of {} rows into {} failed (attempt {} of {}), retrying in {} ms: {}",
                rows, table(b), attempt, settings.retryMaxAttempts(), pause, e.getMessage());
        Thread.sleep(pause);
    }

    private IOException failed(SealedBatch b, int rows, int attempt, IOException e) {
        return new IOException(
                "INSERT of " + rows + " rows into " + table(b) + " failed after " + attempt
                        + " attempt(s): " + e.getMessage(),
                e);
    }

    private String table(SealedBatch b) {
        return settings.qualified(b.table);
    }

    @Override
    public void close() throws Exception {
        closed = true;
        deadLetters.close();
        client.close();
    }
}
