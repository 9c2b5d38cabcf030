package io.tributary.sink;

import io.tributary.clickhouse.ClickHouseClient;
import io.tributary.schema.SchemaFlavor;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The query settings every INSERT of the sink carries, whatever the user's settings profile says,
 * and what each is for. ClickHouse answers UNKNOWN_SETTING to a query that names a setting it does
 * not know, so they are checked once against the server ({@link ServerFacts}): one it lacks is
 * left out when the sink does without it, replaced by its older name where it has one, and fails
 * the start, naming it, when the sink needs it.
 */
public final class InsertSettings {

    /** The per-INSERT token setting; exactly once needs it, at least once uses it when known. */
    static final String TOKEN = "insert_deduplication_token";

    /**
     * One pinned setting.
     *
     * @param name the setting
     * @param value its value
     * @param neededFor why the sink cannot do without it (for the message), or null when it can
     * @param olderName the name older releases know it by, or null
     * @param httpParameter a parameter of the HTTP interface itself ({@code wait_end_of_query}):
     *     not in {@code system.settings}, taken by every release
     */
    record Pin(String name, String value, String neededFor, String olderName, boolean httpParameter) {

        /** A query setting. */
        Pin(String name, String value, String neededFor, String olderName) {
            this(name, value, neededFor, olderName, false);
        }
    }

    private InsertSettings() {}

    /** The settings pinned for {@code s}'s INSERTs, in the order they are sent. */
    static List<Pin> pins(SinkSettings s) {
        List<Pin> p = new ArrayList<>();
        // The data's header names the columns and their types: ClickHouse maps the columns by
        // name, checks each type against the table's, refuses a column the table lacks, and fills
        // the columns left out with their defaults; no row is skipped as bad.
        String header = "rows carry their columns' names and types";
        p.add(new Pin("input_format_with_names_use_header", "1", header, null));
        p.add(new Pin("input_format_with_types_use_header", "1", header, null));
        p.add(new Pin("input_format_skip_unknown_fields", "0", header, null));
        p.add(new Pin("input_format_defaults_for_omitted_fields", "1", header, null));
        // A Native block's columns must have the table's types (LowCardinality aside): with the
        // conversion on, ClickHouse would CAST a column of another type, and a table altered to a
        // narrower type (Int64 to UInt8) would store 300 as 44 instead of refusing the INSERT. A
        // server without the setting predates the conversion.
        p.add(new Pin("input_format_native_allow_types_conversion", "0", null, null));
        String noSkips = "no row may be skipped as bad";
        p.add(new Pin("input_format_allow_errors_num", "0", noSkips, null));
        p.add(new Pin("input_format_allow_errors_ratio", "0", noSkips, null));
        p.add(new Pin("input_format_binary_read_json_as_string", "0",
                s.flavor() == SchemaFlavor.JSON ? "clickhouse.schema = json writes JSON columns in their binary form" : null,
                null));
        p.add(new Pin("input_format_binary_decode_types_in_binary_format", "0", null, null));
        // The answer comes when the INSERT has ended, so its status is its outcome: with progress
        // headers ClickHouse sends 200 before the end and reports a later failure only in the body.
        String outcome = "the HTTP status must be the INSERT's outcome";
        p.add(new Pin("send_progress_in_http_headers", "0", outcome, null));
        p.add(new Pin("wait_end_of_query", "1", outcome, null, true));
        p.add(new Pin("async_insert", s.asyncInsert() ? "1" : "0", s.asyncInsert() ? "sink.async-insert = true" : null,
                null));
        p.add(new Pin("wait_for_async_insert", "1", s.asyncInsert() ? "sink.async-insert = true" : null, null));
        // One batch is one block: ClickHouse stores (or refuses) it as a whole, and a view's refusal
        // of a batch comes after the table stored all of it
        String rows = Long.toString(Math.max(BatchInserter.SINGLE_BLOCK_ROWS, s.maxRows()));
        p.add(new Pin("max_insert_block_size", rows, null, null));
        p.add(new Pin("max_insert_block_size_rows", rows, null, null));
        p.add(new Pin("max_insert_block_size_bytes", "0", null, null));
        // Into a Distributed table: the INSERT returns once the shards have the rows (not once
        // they are queued on this node), so its answer means stored, its failure is seen, and
        // its deduplication token reaches the local tables.
        p.add(new Pin("distributed_foreground_insert", "1", null, "insert_distributed_sync"));
        // A repeated INSERT is dropped by its token, and the rows a materialized view derives
        // from it with it.
        String exactlyOnce = s.delivery() == Delivery.EXACTLY_ONCE ? "sink.delivery = exactly-once" : null;
        p.add(new Pin("insert_deduplicate", "1", exactlyOnce, null));
        p.add(new Pin("deduplicate_blocks_in_dependent_materialized_views", "1", exactlyOnce, null));
        for (Map.Entry<String, String> e : s.insertSettings().entrySet()) {
            p.add(new Pin(e.getKey(), e.getValue(), null, null));
        }
        return p;
    }

    /** Every setting name the server is asked about. */
    static Set<String> names(List<Pin> pins) {
        Set<String> out = new LinkedHashSet<>();
        for (Pin p : pins) {
            if (p.httpParameter()) {
                continue;
            }
            out.add(p.name());
            if (p.olderName() != null) {
                out.add(p.olderName());
            }
        }
        out.add(TOKEN);
        return out;
    }

    /**
     * The settings to send to a server with {@code facts}: each pin the server knows, under its
     * older name where only that is known; what it lacks and the sink needs goes to {@code
     * problems}.
     */
    static Map<String, String> resolve(List<Pin> pins, ServerFacts facts, boolean exactlyOnce, List<String> problems) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Pin p : pins) {
            if (p.httpParameter() || facts.knows(p.name())) {
                out.put(p.name(), p.value());
            } else if (p.olderName() != null && facts.knows(p.olderName())) {
                out.put(p.olderName(), p.value());
            } else if (p.neededFor() != null) {
                problems.add(p.name() + " (" + p.neededFor() + ")");
            }
        }
        if (exactlyOnce && !facts.knows(TOKEN)) {
            problems.add(TOKEN + " (sink.delivery = exactly-once)");
        }
        return out;
    }

    /**
     * Fails, naming what is missing, when the server of {@code client} lacks a setting the sink's
     * INSERTs need ({@code settings}); for the start-up check before a job is submitted. A server
     * that cannot be asked passes: the sinks ask again where they run.
     */
    public static void checkServer(SinkSettings settings, ClickHouseClient client) throws IOException, InterruptedException {
        List<Pin> pins = pins(settings);
        ServerFacts facts = ServerFacts.read(client, names(pins), settings.tables().size());
        List<String> problems = new ArrayList<>();
        resolve(pins, facts, settings.delivery() == Delivery.EXACTLY_ONCE, problems);
        if (!problems.isEmpty()) {
            throw new IOException(unsupported(facts, problems));
        }
    }

    /** The message for a server that lacks settings the sink needs. */
    static String unsupported(ServerFacts facts, List<String> problems) {
        return "ClickHouse " + (facts.version() == null ? "" : facts.version() + " ") + "does not know "
                + String.join(", ", problems) + "; the job supports ClickHouse 25.8 and later (see docs/tables.md,"
                + " ClickHouse releases)";
    }
}
