package io.tributary.clickhouse;

import io.tributary.clickhouse.body.Body;
import io.tributary.clickhouse.body.Compression;

import java.io.IOException;
import java.util.Map;

/** What the sink writer needs of ClickHouse: sending INSERT bodies. {@link ClickHouseClient} is the real one. */
public interface InsertClient extends AutoCloseable {

    /**
     * Sends one INSERT with its body.
     *
     * @return the rows ClickHouse says it wrote ({@code written_rows} of {@code X-ClickHouse-Summary},
     *     which counts rows a materialized view derived too)
     * @throws ClickHouseException when the server refuses it (with its code and message), or a reply
     *     that does not come from ClickHouse
     * @throws IOException when the connection fails
     */
    long insert(String sql, Map<String, String> settings, Body body, Compression compression)
            throws IOException, InterruptedException;

    /** {@link #insert(String, Map, Body, Compression)} of a body in one array. */
    default long insert(String sql, Map<String, String> settings, byte[] body, Compression compression)
            throws IOException, InterruptedException {
        return insert(sql, settings, Body.of(body), compression);
    }

    @Override
    void close();
}
