package io.tributary.sink;

import io.tributary.clickhouse.Body;
import io.tributary.clickhouse.ClickHouseErrors;
import io.tributary.clickhouse.ClickHouseException;
import io.tributary.clickhouse.InsertClient;
import io.tributary.kafka.RefusedRecords;
import io.tributary.metrics.SinkMetrics;

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
 * <p><b>Refusals</b>. A batch refused for good because of what it holds (a constraint, a
 * materialized view that throws, a value out of range, any refusal not about the table) is split
 * in halves until the refused rows are those of single Kafka records; those records go to the
 * dead-letter topic with ClickHouse's message (read back from Kafka by their coordinates),
 * whatever their share of the batch, and the rest is written. A refusal about the table itself
 * (unknown table or columns, columns whose types the rows do not match, no permission, a setting
 * the server refuses) is not split. The table is taken to be the problem when it refuses that way,
 * or when it has refused every record of {@value #STRIKES} batches in a row ({@value
 * #STRIKE_RECORDS} records or more together), one by one: then, with {@code sink.table-refusal =
 * fail} (the default), the job stops once with a failure that suppresses restarts, naming the
 * table and ClickHouse's message — no restart would change the answer; with {@code dead-letter}
 * the records go to the dead-letter topic and the job goes on. Two exceptions restart instead of
 * stopping: at least once, a batch encoded in columns the table no longer has (the restarted
 * decoders read the table again), and retries exhausted (ClickHouse away).
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

    private final SinkSettings settings;
    private final InsertClient client;
    private final SinkMetrics metrics;
    private final RefusedRecords deadLetters;
    private final ServerFacts facts;
    private final LiveTables liveTables;
    private final boolean tokens;
    private final Map<String, String> querySettings;
    private final Map<String, String> isolationSettings;
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
        Parts parts = new Parts(b);
        List<Integer> refused = new ArrayList<>();
        Map<Integer, Exception> reasons = new HashMap<>();
        try {
            send(parts, 0, b.records(), token, refused, reasons);
        } catch (TableRefusal t) {
            tableRefused(b, t.getCause());
            return;
        }
        if (refused.isEmpty()) {
            clearStrikes(b.table);
            return;
        }
        if (refused.size() == b.records() && strike(b.table, b.records())) {
            ClickHouseException e = (ClickHouseException) reasons.get(refused.get(0));
            tableRefused(b, new ClickHouseException("every record of the last " + STRIKES + " batches into "
                    + table(b) + " was refused, one by one; the last: " + e.getMessage(), e.httpStatus(), e.errorCode(),
                    false));
            return;
        } else if (refused.size() < b.records()) {
            clearStrikes(b.table);
        }
        LOG.warn("ClickHouse refused the rows of {} of the {} records of a batch into {}; sending them to the dead-letter"
                + " topic", refused.size(), b.records(), table(b));
        for (int i : refused) {
            deadLetter(b, i, reasons.get(i));
        }
    }

    /** A refusal about the table itself, carried out of the split. */
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

    /** The records of a batch as parts to send: their rows uncompressed, made when a split needs them. */
    private static final class Parts {
        final SealedBatch batch;
        private List<byte[]> chunks;

        Parts(SealedBatch batch) {
            this.batch = batch;
        }

        Body body(int from, int to) {
            if (chunks == null) {
                chunks = batch.chunks();
            }
            return batch.body(chunks.subList(from, to));
        }
    }

    /**
     * Sends records {@code [from, to)} of a batch as one INSERT; when refused for what they hold, or
     * for memory or size again and again, sends them in halves, down to single records, whose
     * refusals it collects. The whole batch goes with its token and the INSERT settings; a part
     * with the token plus its range of records, synchronously (a refusal must be about that part).
     *
     * @throws TableRefusal a refusal about the table, which no split changes
     */
    private void send(Parts parts, int from, int to, String token, List<Integer> refused, Map<Integer, Exception> reasons)
            throws IOException, InterruptedException, TableRefusal {
        SealedBatch b = parts.batch;
        boolean whole = from == 0 && to == b.records();
        int rows = b.rows(from, to);
        try {
            if (whole) {
                insert(b, b.body, rows, b.rawBytes, querySettings, token);
            } else {
                insert(b, parts.body(from, to), rows, b.bytes(from, to), isolationSettings,
                        token == null ? null : token + "/" + from + "-" + to);
            }
            return;
        } catch (ClickHouseException e) { // refused for good (retryable ones come out as IOException)
            if (isAboutTheTable(e)) {
                throw new TableRefusal(e);
            }
            if (to - from == 1) {
                refused.add(from);
                reasons.put(from, e);
                return;
            }
            if (whole) {
                LOG.warn("INSERT into {} refused ({}); looking for the records it is about", table(b), e.getMessage());
            }
        } catch (TooLarge e) {
            if (to - from == 1) {
                refused.add(from);
                reasons.put(from, e.getCause());
                return;
            }
            LOG.warn("INSERT of {} rows into {} refused for memory or size ({}); sending it in halves", rows, table(b),
                    e.getCause().getMessage());
            metrics.batchesSplit.inc();
        }
        int mid = (from + to) >>> 1;
        send(parts, from, mid, token, refused, reasons);
        send(parts, mid, to, token, refused, reasons);
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
     * The table refused the batch as a whole: restarts where a restart changes the outcome, dead
     * letters with {@code sink.table-refusal = dead-letter} where that is the user's choice, else
     * stops the job once.
     */
    private void tableRefused(SealedBatch b, ClickHouseException e) throws IOException, InterruptedException {
        boolean columns = ClickHouseErrors.isAboutTheColumns(e.errorCode());
        if (columns && settings.delivery() == Delivery.AT_LEAST_ONCE && b.header != null && layoutChanged(b)) {
            throw new IOException("INSERT of " + b.rows + " rows into " + table(b) + " refused: the table's columns changed"
                    + " after the job read them; the job restarts and reads them again: " + e.getMessage(), e);
        }
        boolean aboutRows = !columns && !isAboutTheTable(e); // the strikes rule
        if ((columns || aboutRows) && settings.tableRefusal() == TableRefusalAction.DEAD_LETTER) {
            LOG.warn("{} refused the {} records of a batch as a whole (sink.table-refusal = dead-letter: they go to the"
                    + " dead-letter topic): {}", table(b), b.records(), e.getMessage());
            for (int i = 0; i < b.records(); i++) {
                deadLetter(b, i, e);
            }
            return;
        }
        String why = columns ? " (the table's columns are not those the rows were encoded in: the table changed"
                + " incompatibly, or the batch comes from a checkpoint taken before it changed; change the table back, or"
                + " rerun with --sink.table-refusal dead-letter to send such batches' records to the dead-letter topic)"
                : aboutRows ? " (rerun with --sink.table-refusal dead-letter to send them to the dead-letter topic and go on)"
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
     * @throws ClickHouseException a permanent refusal
     * @throws TooLarge refused for memory or size {@value #SPLIT_AFTER} times
     * @throws IOException retries exhausted
     */
    private void insert(SealedBatch b, Body body, int rows, long bytes, Map<String, String> query, String token)
            throws IOException, InterruptedException, TooLarge {
        if (token != null) {
            Map<String, String> q = new HashMap<>(query);
            q.put(InsertSettings.TOKEN, token);
            query = q;
        }
        boolean async = "1".equals(query.get("async_insert"));
        String sql = b.legacy() ? settings.legacyInsertSql(b.table) : settings.insertSql(b.table);
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
                if (isTooLarge(e) && ++tooLarge >= SPLIT_AFTER) {
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
                if (failure instanceof ClickHouseException && isTooLarge((ClickHouseException) failure)) {
                    throw new TooLarge((ClickHouseException) failure);
                }
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
