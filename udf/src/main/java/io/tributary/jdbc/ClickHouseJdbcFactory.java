package io.tributary.jdbc;

import org.apache.flink.connector.jdbc.core.database.JdbcFactory;
import org.apache.flink.connector.jdbc.core.database.catalog.JdbcCatalog;
import org.apache.flink.connector.jdbc.core.database.dialect.JdbcDialect;

/**
 * flink-connector-jdbc's factory SPI for ClickHouse: tables whose {@code 'url'} starts with {@code
 * jdbc:clickhouse:} or {@code jdbc:ch:} get the {@link ClickHouseDialect}, over ClickHouse's JDBC
 * driver ({@code clickhouse-jdbc}) through {@link ClickHouseSecretsDriver}. There is no JDBC
 * catalog for ClickHouse: declare tables with {@code CREATE TABLE ... WITH ('connector' = 'jdbc')}.
 */
public final class ClickHouseJdbcFactory implements JdbcFactory {

    @Override
    public boolean acceptsURL(String url) {
        return ClickHouseSecretsDriver.accepts(url);
    }

    @Override
    public JdbcDialect createDialect() {
        return new ClickHouseDialect();
    }

    @Override
    public JdbcCatalog createCatalog(ClassLoader classLoader, String catalogName, String defaultDatabase,
            String username, String pwd, String baseUrl) {
        throw new UnsupportedOperationException("no JDBC catalog for ClickHouse: declare its tables with"
                + " CREATE TABLE ... WITH ('connector' = 'jdbc', 'url' = 'jdbc:clickhouse://...', 'table-name' = '...')");
    }
}
