package io.tributary.sink;

import java.io.IOException;
import java.util.Map;

/** What the sink writer needs of ClickHouse: sending INSERT bodies. {@link ClickHouseClient} is the real one. */
interface InsertClient extends AutoCloseable {

    /**
     * Sends one INSERT with its body.
     *
     * @throws ClickHouseException when the server refuses it (with its code and message)
     * @throws IOException when the connection fails
     */
    void insert(String sql, Map<String, String> settings, byte[] body, Compression compression)
            throws IOException, InterruptedException;

    @Override
    void close();
}
