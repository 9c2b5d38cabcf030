package io.tributary.sink;

import io.tributary.clickhouse.ClickHouseClient;
import io.tributary.schema.Sql;

import java.io.IOException;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.StringJoiner;

/**
 * What the sink learns of the server and its tables once, when a writer or committer starts: the
 * server's version, which of the settings the INSERTs pin it knows ({@code system.settings}), and
 * which tables drop a repeated INSERT (a deduplication window), so that fewer rows written than
 * sent can be told apart from rows lost. Unknown facts (the server could not be asked) are null:
 * every setting is then sent, and no table is taken to deduplicate.
 *
 * @param version the server's {@code version()}, or null
 * @param settings the names among those asked for that the server knows, or null
 * @param deduplicates per table ({@link io.tributary.tables.OtelTable} ordinal): whether it drops
 *     repeated INSERTs; null entries (or a null array) where unknown
 */
record ServerFacts(String version, Set<String> settings, Boolean[] deduplicates) {

    /** Nothing known. */
    static ServerFacts unknown(int tables) {
        return new ServerFacts(null, null, new Boolean[tables]);
    }

    /** True when the server knows the setting, or when its settings could not be read. */
    boolean knows(String setting) {
        return settings == null || settings.contains(setting);
    }

    /** True only when the table is known to drop a repeated INSERT. */
    boolean deduplicates(int table) {
        return deduplicates != null && table < deduplicates.length && Boolean.TRUE.equals(deduplicates[table]);
    }

    /** These facts with the table's deduplication known. */
    ServerFacts withDeduplicates(int table, boolean dedup) {
        Boolean[] d = deduplicates == null ? new Boolean[table + 1] : Arrays.copyOf(deduplicates,
                Math.max(deduplicates.length, table + 1));
        d[table] = dedup;
        return new ServerFacts(version, settings, d);
    }

    /**
     * Asks the server for its version and which of {@code names} it knows.
     *
     * @throws IOException when it cannot be asked
     */
    static ServerFacts read(ClickHouseClient client, Collection<String> names, int tables)
            throws IOException, InterruptedException {
        StringJoiner in = new StringJoiner(", ");
        names.forEach(n -> in.add(Sql.string(n)));
        String[] row = client.query("SELECT version(), arrayStringConcat(groupArray(name), ',') FROM system.settings"
                + " WHERE name IN (" + in + ") FORMAT TSVRaw").strip().split("\t", 2);
        Set<String> known = new HashSet<>();
        if (row.length > 1 && !row[1].isEmpty()) {
            known.addAll(Arrays.asList(row[1].split(",")));
        }
        String version = row[0];
        return new ServerFacts(version, Set.copyOf(known), new Boolean[tables]);
    }
}
