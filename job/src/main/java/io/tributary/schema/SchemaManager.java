package io.tributary.schema;

import io.tributary.sink.ClickHouseClient;
import io.tributary.sink.ClickHouseEndpoint;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Creates the database and tables the job writes, if missing. */
public final class SchemaManager {

    private SchemaManager() {}

    /** Every statement, in order, that {@link #create} runs. */
    public static List<String> statements(
            String database, String tracesTable, TableEngine engine, Duration ttl) {
        List<String> out = new ArrayList<>();
        out.add("CREATE DATABASE IF NOT EXISTS " + Sql.ident(database));
        out.addAll(TracesSchema.createStatements(database, tracesTable, engine, ttl));
        return out;
    }

    /** The statements as one SQL script, each ending with ';' (what {@code schema print} shows). */
    public static String script(String database, String tracesTable, TableEngine engine, Duration ttl) {
        StringBuilder sb = new StringBuilder();
        for (String sql : statements(database, tracesTable, engine, ttl)) {
            sb.append(sql.strip()).append(";\n\n");
        }
        return sb.toString();
    }

    /** Runs {@link #statements} against the server. */
    public static void create(
            ClickHouseEndpoint endpoint, String database, String tracesTable, TableEngine engine, Duration ttl)
            throws IOException, InterruptedException {
        ClickHouseClient client = new ClickHouseClient(endpoint, Duration.ofMinutes(1));
        for (String sql : statements(database, tracesTable, engine, ttl)) {
            client.execute(sql);
        }
    }
}
