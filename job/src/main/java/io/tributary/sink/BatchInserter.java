package io.tributary.sink;

import io.tributary.clickhouse.ClickHouseErrors;
import io.tributary.clickhouse.ClickHouseException;
import io.tributary.clickhouse.InsertClient;
import io.tributary.clickhouse.body.Body;
import io.tributary.deadletter.RefusedRecords;

import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.http.HttpTimeoutException;
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
 * <p><b>Retries</b> with exponential backoff and jitter on connection errors, timeouts, 5xx
 * replies without a ClickHouse code and retryable ClickHouse codes, resending the same compressed
 * bytes with the same {@code insert_deduplication_token} (at least once too, unless asynchronous),
 * so that a repeat of an INSERT the server had stored after all is dropped by a table that keeps
 * a deduplication window. A batch refused {@value #SPLIT_AFTER} times for memory or size is sent
 * in halves, record boundaries kept, down to single records.
 *
 * <p><b>Refusals</b>. A batch refused for good for what some rows hold, before ClickHouse stored
 * anything ({@link ClickHouseErrors#isAboutTheRows}; too many partitions for one INSERT), is split
 * in halves until the refused rows are those of single Kafka records; those records go to the
 * dead-letter topic with ClickHouse's message (read back from Kafka by their coordinates), whatever
 * their share of the batch, and the rest is written. A materialized view's refusal comes after the
 * table stored the batch: the parts then go with the batch's own token (the table drops them as
 * repeats) and without deduplication in the views (which take them), when the table keeps a
 * deduplication window; otherwise nothing is sent again. Any other refusal is not split. The table
 * is the problem when it refuses that way, or refuses every record of {@value #STRIKES} batches in a
 * row ({@value #STRIKE_RECORDS} records or more together) or more than {@value
 * #MAX_REFUSED_PER_BATCH} of one batch, one by one: then, with {@code sink.table-refusal = fail} (the
 * default), the job stops once with a failure that suppresses restarts, naming the table and
 * ClickHouse's message — no restart would change the answer; with {@code dead-letter} the records
 * not stored go to the dead-letter topic and the job goes on. Restarts instead: at least once, a
 * batch encoded in columns the table no longer has (the restarted decoders read the table again);
 * retries exhausted (ClickHouse away); a single record refused for memory through all its retries.
 *
 * <p><b>Answers</b>. With no row allowed to be skipped as bad, a synchronous INSERT writes fewer
 * rows than it sends only when ClickHouse drops a block as a repeat; that is believed only of a
 * table that keeps a deduplication window ({@link ServerFacts}), else it is a failure (retried).
 *
 * <p>Tokens: the batch's {@link SealedBatch#token}, and for the parts of a split batch that token
 * plus the range of records, so a batch sent again after a failure, split or not, is dropped.
 */
final class BatchInserter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BatchInserter.class);
    /** Batches in a row whose every record a table refused, which point at the table... */
    static final int STRIKES = 3;
    /** ... when they hold at least this many records together. */
    static final int STRIKE_RECORDS = 100;
    /** Memory or size refusals of one body before it is sent in halves. */
    static final int SPLIT_AFTER = 3;
    /** Records of one batch refused one by one past which the table, not the records, is the problem. */
    static final int MAX_REFUSED_PER_BATCH = 1000;
    /**
     * Rows up to which a batch is one block ({@code max_insert_block_size}, pinned to at least
     * this): a view's refusal of such a batch came after the table stored all of it.
     */
    static final int SINGLE_BLOCK_ROWS = 1_048_449;

    private final SinkSettings settings;
    private final InsertClient client;
    private final SinkMetrics metrics;
    private final RefusedRecords deadLetters;
    private final ServerFacts facts;
    private final LiveTables liveTables;
    private final boolean tokens;
    private final Map<String, String> querySettings;
    private final Map<String, String> isolationSettings;
    private final Map<String, String> viewIsolationSettings;
    /** Per table: batches in a row refused record by record entirely, and their records. */
    private final int[] strikes;
    private final long[] strikeRecords;
    private volatile boolean closed;

    /**
     * @param facts what the server and its tables are, read at start
     * @param liveTables reads a table's columns now (to tell a changed table from a broken one)
     * @throws IOException (restarts suppressed) when the server lacks a setting the INSERTs need
     */
    BatchInserter(SinkSettings settings, InsertClient client, SinkMetrics metrics, ServerFacts facts,
            LiveTables liveTables) throws IOException {
        this.settings = settings;
        this.client = client;
        this.metrics = metrics;
        this.facts = facts;
        this.liveTables = liveTables;
        this.deadLetters = new RefusedRecords(
                settings.sourceKafka(), settings.deadLetterKafka(), settings.deadLetterTopic());
        boolean exactlyOnce = settings.delivery() == Delivery.EXACTLY_ONCE;
        List<String> problems = new ArrayList<>();
        Map<String, String> query = InsertSettings.resolve(InsertSettings.pins(settings), facts, exactlyOnce, problems);
        if (!problems.isEmpty()) {
            throw stop(new IOException(InsertSettings.unsupported(facts, problems)));
        }
        // asynchronous INSERTs are merged by the server: a token would name another's rows
        this.tokens = !settings.asyncInsert() && facts.knows(InsertSettings.TOKEN);
        Map<String, String> isolation = new HashMap<>(query);
        if (isolation.containsKey("async_insert")) {
            isolation.put("async_insert", "0"); // a refusal of a part must be about that part only
        }
        this.isolationSettings = Map.copyOf(isolation);
        // the parts of a batch a view refused: the table drops them as repeats, the views take them
        isolation.put("deduplicate_blocks_in_dependent_materialized_views", "0");
        this.viewIsolationSettings = Map.copyOf(isolation);
        this.querySettings = Map.copyOf(query);
        this.strikes = new int[settings.tables().size()];
        this.strikeRecords = new long[settings.tables().size()];
    }

    /** Reads the columns a table has now, as the header of rows encoded in them; null if that cannot be told. */
    @FunctionalInterface
    interface LiveTables {
        byte[] header(int table) throws IOException;
    }

    /** Writes the batch (without the records whose rows ClickHouse refuses for good). */
    void write(SealedBatch b) throws IOException, InterruptedException {
        String token = !tokens ? null
                : b.legacy() ? b.legacyToken(settings.database() + "." + settings.tables().get(b.table).name()) : b.token;
        Split split = new Split(b, token);
        try {
            send(split, 0, b.records(), Isolation.NONE);
        } catch (TableRefusal t) {
            tableRefused(b, t.getCause(), split);
            return;
        }
        List<Integer> refused = split.refused;
        if (refused.isEmpty()) {
            clearStrikes(b.table);
            return;
        }
        if (refused.size() == b.records() && strike(b.table, b.records())) {
            ClickHouseException e = (ClickHouseException) split.reasons.get(refused.get(0));
            tableRefused(b, new ClickHouseException("every record of the last " + STRIKES + " batches into "
                    + table(b) + " was refused, one by one; the last: " + e.getMessage(), e.httpStatus(), e.errorCode(),
                    false), split);
            return;
        } else if (refused.size() < b.records()) {
            clearStrikes(b.table);
        }
        LOG.warn("ClickHouse refused the rows of {} of the {} records of a batch into {}; sending them to the dead-letter"
                + " topic", refused.size(), b.records(), table(b));
        for (int i : refused) {
            deadLetter(b, i, split.reasons.get(i));
        }
    }

    /** A refusal that no split changes (about the table, or one a split would store twice), carried out of it. */
    private static final class TableRefusal extends Exception {
        private static final long serialVersionUID = 1L;

        TableRefusal(ClickHouseException cause) {
            super(cause);
        }

        @Override
        public synchronized ClickHouseException getCause() {
            return (ClickHouseException) super.getCause();
        }
    }

    /**
     * How the parts of a refused batch are sent. {@code ROWS}: the refusal came before anything
     * was stored (a constraint, a value the table's own expressions refuse), so each part goes with
     * a token of its own. {@code VIEW}: a materialized view refused rows the table had stored
     * already (ClickHouse stores a block before it pushes it to the views); each part goes with the
     * batch's own token, which the table (keeping a deduplication window) drops as a repeat, and
     * without deduplication in the views, which get the part's rows for the first time.
     */
    private enum Isolation { NONE, ROWS, VIEW }

    /** A batch being sent in parts: the records' rows uncompressed (made when needed), what came of each. */
    private static final class Split {
        final SealedBatch batch;
        final String token;
        final List<Integer> refused = new ArrayList<>();
        final Map<Integer, Exception> reasons = new HashMap<>();
        /** Records whose rows are stored (and seen by the views). */
        final boolean[] stored;
        private List<byte[]> chunks;

        Split(SealedBatch batch, String token) {
            this.batch = batch;
            this.token = token;
            this.stored = new boolean[batch.records()];
        }

        Body body(int from, int to) throws TableRefusal {
            if (chunks == null) {
                try {
                    chunks = batch.chunks();
                } catch (IllegalStateException | java.io.UncheckedIOException e) {
                    // A body that cannot be read back cannot be split. Failing the job would
                    // restart it into the same batch (exactly once, it comes back from the
                    // checkpoint): the table-refusal action decides instead, once.
                    throw new TableRefusal(new ClickHouseException("ClickHouse refused rows of a batch that cannot be"
                            + " read back to send its records apart: " + e.getMessage(), 0, 0, false));
                }
            }
            return batch.body(chunks, from, to);
        }

        void stored(int from, int to) {
            java.util.Arrays.fill(stored, from, to, true);
        }
    }

    /**
     * Sends records {@code [from, to)} of a batch as one INSERT; when refused for what they hold, or
     * for memory or size again and again, sends them in halves, down to single records, whose
     * refusals it collects. The whole batch goes with its token and the INSERT settings; a part
     * synchronously (a refusal must be about that part), with the token the isolation calls for.
     *
     * @throws TableRefusal a refusal about the table, one a split would store twice, or more than
     *     {@value #MAX_REFUSED_PER_BATCH} records refused
     */
    private void send(Split split, int from, int to, Isolation isolation)
            throws IOException, InterruptedException, TableRefusal {
        SealedBatch b = split.batch;
        int rows = b.rows(from, to);
        boolean single = to - from == 1;
        try {
            if (isolation == Isolation.NONE) {
                insert(b, b.body, rows, b.rawBytes, querySettings, split.token, !single);
            } else if (isolation == Isolation.VIEW) {
                insert(b, split.body(from, to), rows, b.bytes(from, to), viewIsolationSettings, split.token, !single);
            } else {
                insert(b, split.body(from, to), rows, b.bytes(from, to), isolationSettings,
                        split.token == null ? null : split.token + "/" + from + "-" + to, !single);
            }
            split.stored(from, to);
            return;
        } catch (ClickHouseException e) { // refused for good (retryable ones come out as IOException)
            Isolation next = isolationFor(e, b);
            if (next == null || isolation == Isolation.ROWS && next == Isolation.VIEW) {
                // about the table; or a view refused rows the table stored, which parts would store again
                throw new TableRefusal(e);
            }
            if (single) {
                refuse(split, from, e);
                return;
            }
            if (isolation == Isolation.NONE) {
                LOG.warn("INSERT into {} refused ({}); looking for the records it is about", table(b), e.getMessage());
                isolation = next;
            }
        } catch (TooLarge e) {
            if (isolation == Isolation.NONE) {
                isolation = Isolation.ROWS; // refused before anything was stored
            }
            if (single) { // only a deterministic refusal reaches here for one record: too many partitions
                refuse(split, from, e.getCause());
                return;
            }
            LOG.warn("INSERT of {} rows into {} refused for memory or size ({}); sending it in halves", rows, table(b),
                    e.getCause().getMessage());
            metrics.batchesSplit.inc();
        }
        int mid = (from + to) >>> 1;
        send(split, from, mid, isolation);
        send(split, mid, to, isolation);
    }

    /** Records a record refused on its own; past {@value #MAX_REFUSED_PER_BATCH}, the table is the problem. */
    private void refuse(Split split, int record, ClickHouseException e) throws TableRefusal {
        split.refused.add(record);
        split.reasons.put(record, e);
        if (split.refused.size() > MAX_REFUSED_PER_BATCH) {
            throw new TableRefusal(new ClickHouseException("more than " + MAX_REFUSED_PER_BATCH + " records of one batch"
                    + " refused, one by one (each costs INSERTs and, written, parts); the last: " + e.getMessage(),
                    e.httpStatus(), e.errorCode(), false));
        }
    }

    /**
     * How to send the parts of a batch refused with {@code e}; null when no split can help or a
     * split would store rows twice. Only refusals known to be about rows are split: what ClickHouse
     * checks before it stores a block (constraints, values a table's own expressions refuse), and a
     * view's refusal after the table stored the block when the table drops repeats. Any other
     * refusal (the table's columns, permissions, TLS, a proxy's answer, an error code the job does
     * not know) stops the job instead: dead-lettering good records, or losing them without a
     * dead-letter topic, for a problem that is not theirs would be worse.
     */
    private Isolation isolationFor(ClickHouseException e, SealedBatch b) {
        if (isAboutTheTable(e)) {
            return null;
        }
        if (isInAView(e)) {
            return facts.deduplicates(b.table) && b.rows <= SINGLE_BLOCK_ROWS ? Isolation.VIEW : null;
        }
        return ClickHouseErrors.isAboutTheRows(e.errorCode()) ? Isolation.ROWS : null;
    }

    /** True when a materialized view raised the error, after the table had stored the block. */
    static boolean isInAView(ClickHouseException e) {
        return String.valueOf(e.getMessage()).contains("while pushing to view");
    }

    /** True for ClickHouse's refusal of a block spanning more partitions than one INSERT may (deterministic). */
    static boolean isTooManyPartitions(ClickHouseException e) {
        return e.errorCode() == 252 && String.valueOf(e.getMessage()).contains("partitions for single INSERT block");
    }

    /** Memory or size refusals, {@value #SPLIT_AFTER} times: the INSERT wants to be smaller. */
    private static final class TooLarge extends Exception {
        private static final long serialVersionUID = 1L;

        TooLarge(ClickHouseException cause) {
            super(cause);
        }

        @Override
        public synchronized ClickHouseException getCause() {
            return (ClickHouseException) super.getCause();
        }
    }

    /**
     * Refusals about the table, the user or the query, not the rows: splitting cannot help.
     * Codes from ClickHouse's src/Common/ErrorCodes.cpp.
     */
    static boolean isAboutTheTable(ClickHouseException e) {
        int code = e.errorCode();
        if (ClickHouseErrors.isAboutTheColumns(code)) {
            return true;
        }
        switch (code) {
            case 60: // UNKNOWN_TABLE
            case 81: // UNKNOWN_DATABASE
            case 62: // SYNTAX_ERROR
            case 115: // UNKNOWN_SETTING
            case 164: // READONLY
            case 192: // UNKNOWN_USER
            case 193: // WRONG_PASSWORD
            case 194: // REQUIRED_PASSWORD
            case 452: // SETTING_CONSTRAINT_VIOLATION
            case 497: // ACCESS_DENIED
            case 516: // AUTHENTICATION_FAILED
                return true;
            default:
                return code < 0 && (e.httpStatus() == 401 || e.httpStatus() == 403 || e.httpStatus() == 404);
        }
    }

    /** Memory or size: a smaller INSERT may pass. */
    static boolean isTooLarge(ClickHouseException e) {
        int code = e.errorCode();
        return code == 241 // MEMORY_LIMIT_EXCEEDED
                || code == 173 // CANNOT_ALLOCATE_MEMORY
                || code < 0 && e.httpStatus() == 413; // a proxy's Payload Too Large
    }

    /**
     * The batch is refused as a whole: restarts where a restart changes the outcome, dead letters the
     * records not stored with {@code sink.table-refusal = dead-letter} where that is the user's
     * choice (the table's columns, a view or the rows refusing everything, an error code the job
     * does not know), else stops the job once.
     */
    private void tableRefused(SealedBatch b, ClickHouseException e, Split split) throws IOException, InterruptedException {
        boolean columns = ClickHouseErrors.isAboutTheColumns(e.errorCode());
        if (columns && settings.delivery() == Delivery.AT_LEAST_ONCE && b.header != null && layoutChanged(b)) {
            throw new IOException("INSERT of " + b.rows + " rows into " + table(b) + " refused: the table's columns changed"
                    + " after the job read them; the job restarts and reads them again: " + e.getMessage(), e);
        }
        if (e.errorCode() == 115 && facts.settings() == null) { // UNKNOWN_SETTING
            throw new IOException("ClickHouse does not know a setting the INSERT named, and its settings could not be"
                    + " read when the sink started; the job restarts and reads them: " + e.getMessage(), e);
        }
        boolean ours = !columns && isAboutTheTable(e); // permissions, users, settings, the table's existence
        boolean mayDeadLetter = columns || !ours && e.errorCode() >= 0;
        if (mayDeadLetter && settings.tableRefusal() == TableRefusalAction.DEAD_LETTER) {
            int sent = 0;
            for (int i = 0; i < b.records(); i++) {
                if (!split.stored[i]) {
                    Exception reason = split.reasons.get(i);
                    deadLetter(b, i, reason != null ? reason : e);
                    sent++;
                }
            }
            LOG.warn("{} refused {} records of a batch as a whole (sink.table-refusal = dead-letter: they went to the"
                    + " dead-letter topic): {}", table(b), sent, e.getMessage());
            return;
        }
        String why = columns ? " (the table's columns are not those the rows were encoded in: the table changed"
                + " incompatibly, or the batch comes from a checkpoint taken before it changed; change the table back, or"
                + " rerun with --sink.table-refusal dead-letter to send such batches' records to the dead-letter topic)"
                : isInAView(e) ? " (a materialized view refused rows after the table had stored them, so sending parts of"
                        + " the batch to find the records would store the table's rows again; give the table a"
                        + " deduplication window (non_replicated_deduplication_window) and the job sends the parts as"
                        + " repeats the table drops, or rerun with --sink.table-refusal dead-letter)"
                : mayDeadLetter ? " (rerun with --sink.table-refusal dead-letter to send them to the dead-letter topic and go on)"
                : "";
        throw stop(new IOException("ClickHouse refuses the rows of " + table(b) + " as a whole, so the job stops instead"
                + " of restarting into the same answer" + why + ": " + e.getMessage(), e));
    }

    /** True when the table's columns now are not those the batch was encoded in. */
    private boolean layoutChanged(SealedBatch b) {
        try {
            byte[] now = liveTables.header(b.table);
            return now != null && !java.util.Arrays.equals(now, b.header);
        } catch (IOException e) {
            // a table that no longer fits what the job writes: restarting fails the same way
            LOG.warn("Cannot read the columns of {} again: {}", table(b), e.getMessage());
            return false;
        }
    }

    /** A failure that ends the job without a restart (Flink's non-recoverable failure). */
    static IOException stop(IOException e) {
        return new IOException(e.getMessage(), new SuppressRestartsException(e));
    }

    /** Counts a batch refused record by record entirely; true when the table is now the problem. */
    private synchronized boolean strike(int table, int records) {
        strikes[table]++;
        strikeRecords[table] += records;
        return strikes[table] >= STRIKES && strikeRecords[table] >= STRIKE_RECORDS;
    }

    private synchronized void clearStrikes(int table) {
        strikes[table] = 0;
        strikeRecords[table] = 0;
    }

    private void deadLetter(SealedBatch b, int record, Exception reason) throws IOException, InterruptedException {
        if (deadLetters.send(b.topics[record], b.partitions[record], b.offsets[record], reason)) {
            metrics.deadLetters.inc();
        }
    }

    /** Forgets which records were dead-lettered (once their batches are all written). */
    void forgetDeadLetters() {
        deadLetters.forget();
    }

    /**
     * Sends a body as one INSERT, retrying with backoff on retryable errors with the same bytes.
     *
     * @param splittable whether the body holds more than one record
     * @throws ClickHouseException a permanent refusal
     * @throws TooLarge refused for memory or size {@value #SPLIT_AFTER} times (a body that can be
     *     split, refused before anything was stored), or for spanning more partitions than one INSERT
     *     may (at once: that answer never changes)
     * @throws IOException retries exhausted
     */
    private void insert(SealedBatch b, Body body, int rows, long bytes, Map<String, String> query, String token,
            boolean splittable) throws IOException, InterruptedException, TooLarge {
        if (token != null) {
            Map<String, String> q = new HashMap<>(query);
            q.put(InsertSettings.TOKEN, token);
            query = q;
        }
        boolean async = "1".equals(query.get("async_insert"));
        String sql = b.legacy() ? settings.legacyInsertSql(b.table) : settings.insertSql(b.table, b.format);
        long backoff = settings.retryInitialBackoff().toMillis();
        int tooLarge = 0;
        for (int attempt = 1; ; attempt++) {
            long start = System.nanoTime();
            IOException failure;
            try {
                long written = client.insert(sql, query, body, b.compression);
                // An asynchronous INSERT's summary says nothing reliable (before 26.4 it reports 0).
                if (written < rows && !async) {
                    if (!facts.deduplicates(b.table)) {
                        throw new ClickHouseException("ClickHouse reports " + written + " of " + rows + " rows written"
                                + " into " + table(b) + ", which does not drop repeats: rows may be lost", 200, -1, true);
                    }
                    metrics.rowsDeduplicated.inc(rows - written);
                    LOG.info("ClickHouse stored {} of {} rows of an INSERT into {}: the others were repeats it"
                            + " had stored before", written, rows, table(b));
                }
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                metrics.sent(b.table, rows, bytes, body.length(), ms);
                return;
            } catch (ClickHouseException e) {
                if (isTooManyPartitions(e)) {
                    throw new TooLarge(e);
                }
                // a smaller INSERT may pass; not when a view ran out of memory after the table stored
                // the rows (a part would store them again): then a retry with the same token, which
                // a table that drops repeats drops while its views take the rows
                boolean smaller = splittable && isTooLarge(e) && !isInAView(e);
                if (smaller && ++tooLarge >= SPLIT_AFTER) {
                    throw new TooLarge(e);
                }
                if (!e.retryable() && !isTooLarge(e)) {
                    throw e;
                }
                failure = e;
            } catch (IOException e) {
                // connection refused, reset, timed out: the server may be back soon
                failure = e;
            }
            if (attempt >= settings.retryMaxAttempts()) {
                throw failed(b, rows, attempt, failure);
            }
            retryLater(b, rows, attempt, failure, backoff);
            backoff = Math.min(backoff * 2, settings.retryMaxBackoff().toMillis());
            if (closed) {
                throw new IOException("sink closed while retrying an INSERT into " + table(b));
            }
        }
    }

    /** Why an attempt failed, for the {@code insertRetries} of its {@code cause}. */
    static String cause(IOException e) {
        if (e instanceof ClickHouseException) {
            ClickHouseException c = (ClickHouseException) e;
            return isTooLarge(c) ? "memory" : c.errorCode() >= 0 ? "clickhouse" : c.httpStatus() == 200 ? "answer" : "http";
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof HttpTimeoutException && !(t instanceof java.net.http.HttpConnectTimeoutException)) {
                return "timeout";
            }
        }
        return "connection";
    }

    private void retryLater(SealedBatch b, int rows, int attempt, IOException e, long backoffMillis)
            throws InterruptedException {
        metrics.retry(cause(e));
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
        try {
            deadLetters.close();
        } finally {
            client.close();
        }
    }
}
