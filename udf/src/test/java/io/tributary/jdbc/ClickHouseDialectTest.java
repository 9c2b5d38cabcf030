package io.tributary.jdbc;

import org.apache.flink.connector.jdbc.core.database.JdbcFactoryLoader;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.LogicalType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClickHouseDialectTest {

    private final ClickHouseDialect dialect = new ClickHouseDialect();

    @Test
    void foundThroughTheConnectorsFactorySpi() {
        assertThat(JdbcFactoryLoader.loadDialect("jdbc:clickhouse://h:8123/db", getClass().getClassLoader(), null))
                .isInstanceOf(ClickHouseDialect.class);
        assertThat(JdbcFactoryLoader.loadDialect("jdbc:ch:https://h:8443", getClass().getClassLoader(), null).dialectName())
                .isEqualTo("ClickHouse");
        assertThat(dialect.defaultDriverName()).contains(ClickHouseSecretsDriver.class.getName());
    }

    @Test
    void typesTheConverterCannotCarryAreRefusedWhenPlannedNestedOnesToo() {
        dialect.validate((org.apache.flink.table.types.logical.RowType) DataTypes.ROW(
                DataTypes.FIELD("m", DataTypes.MAP(DataTypes.STRING(), DataTypes.ARRAY(DataTypes.TIMESTAMP_LTZ(9))))).getLogicalType());
        assertThatThrownBy(() -> dialect.validate((org.apache.flink.table.types.logical.RowType) DataTypes.ROW(
                DataTypes.FIELD("a", DataTypes.ARRAY(DataTypes.ROW(DataTypes.FIELD("x", DataTypes.INT()))))).getLogicalType()))
                .isInstanceOf(org.apache.flink.table.api.ValidationException.class)
                .hasMessageContaining("inside column 'a'");
        assertThatThrownBy(() -> dialect.validate((org.apache.flink.table.types.logical.RowType) DataTypes.ROW(
                DataTypes.FIELD("b", DataTypes.BYTES())).getLogicalType()))
                .hasMessageContaining("doesn't support type");
    }

    @Test
    void statements() {
        assertThat(dialect.getInsertIntoStatement("otel_metrics_sum", new String[] {"MetricName", "Value"}))
                .isEqualTo("INSERT INTO `otel_metrics_sum`(`MetricName`, `Value`) VALUES (:MetricName, :Value)");
        assertThat(dialect.getSelectFromStatement("owners", new String[] {"service", "team"}, new String[] {"service"}))
                .isEqualTo("SELECT `service`, `team` FROM `owners` WHERE `service` = :service");
        assertThat(dialect.quoteIdentifier("we`ird\\")).isEqualTo("`we\\`ird\\\\`");
        assertThat(dialect.getLimitClause(10)).isEqualTo("LIMIT 10");
    }

    @Test
    void upsertsUpdatesAndDeletesAreRefused() {
        assertThatThrownBy(() -> dialect.getUpsertStatement("t", new String[] {"a", "b"}, new String[] {"a"}))
                .isInstanceOf(ClickHouseRefusalException.class)
                .hasMessageStartingWith("ClickHouse has no UPSERT")
                .hasMessageContaining("Declare it without PRIMARY KEY")
                .hasMessageContaining("primary key a");
        assertThatThrownBy(() -> dialect.getUpdateStatement("t", new String[] {"b"}, new String[] {"a"}))
                .isInstanceOf(ClickHouseRefusalException.class);
        assertThatThrownBy(() -> dialect.getDeleteStatement("t", new String[] {"a"}))
                .isInstanceOf(ClickHouseRefusalException.class);
    }

    @Test
    void valuesToTheDriverAndBack() throws SQLException {
        LogicalType ltz = DataTypes.TIMESTAMP_LTZ(9).getLogicalType();
        Instant i = Instant.parse("2024-01-02T03:04:05.123456789Z");
        assertThat(ClickHouseDialectConverter.toJdbc(ltz, TimestampData.fromInstant(i)))
                .isEqualTo(ZonedDateTime.ofInstant(i, ZoneOffset.UTC));
        LogicalType ts = DataTypes.TIMESTAMP(3).getLogicalType();
        assertThat(ClickHouseDialectConverter.toJdbc(ts, TimestampData.fromLocalDateTime(LocalDateTime.of(2024, 1, 2, 3, 4, 5))))
                .isEqualTo(ZonedDateTime.of(2024, 1, 2, 3, 4, 5, 0, ZoneOffset.UTC));
        LogicalType map = DataTypes.MAP(DataTypes.STRING(), DataTypes.STRING()).getLogicalType();
        Map<Object, Object> m = new LinkedHashMap<>();
        m.put(StringData.fromString("k"), StringData.fromString("v"));
        assertThat(ClickHouseDialectConverter.toJdbc(map, new GenericMapData(m))).isEqualTo(Map.of("k", "v"));
        LogicalType arr = DataTypes.ARRAY(DataTypes.MAP(DataTypes.STRING(), DataTypes.STRING())).getLogicalType();
        assertThat(ClickHouseDialectConverter.toJdbc(arr, new GenericArrayData(new Object[] {new GenericMapData(m)})))
                .isEqualTo(List.of(Map.of("k", "v")));

        // back: the driver's UInt64 is a BigInteger, its array elements are Timestamps of the column's wall clock
        assertThat(ClickHouseDialectConverter.toInternal(DataTypes.BIGINT().getLogicalType(), BigInteger.valueOf(5), ZoneOffset.UTC))
                .isEqualTo(5L);
        assertThatThrownBy(() -> ClickHouseDialectConverter.toInternal(DataTypes.BIGINT().getLogicalType(),
                new BigInteger("18446744073709551615"), ZoneOffset.UTC)).hasMessageContaining("DECIMAL(20, 0)");
        assertThat(ClickHouseDialectConverter.toInternal(DataTypes.DECIMAL(20, 0).getLogicalType(),
                new BigInteger("18446744073709551615"), ZoneOffset.UTC).toString()).isEqualTo("18446744073709551615");
        Timestamp wallClock = Timestamp.valueOf(LocalDateTime.of(2024, 1, 2, 12, 4, 5, 123456789)); // Tokyo's 03:04:05Z
        Object back = ClickHouseDialectConverter.toInternal(DataTypes.ARRAY(DataTypes.TIMESTAMP_LTZ(9)).getLogicalType(),
                new Object[] {wallClock}, ZoneId.of("Asia/Tokyo"));
        assertThat(((GenericArrayData) back).toObjectArray()).containsExactly(TimestampData.fromInstant(i));
        assertThat(ClickHouseDialectConverter.zone("Array(DateTime64(9, 'Asia/Tokyo'))")).isEqualTo(ZoneId.of("Asia/Tokyo"));
        assertThat(ClickHouseDialectConverter.zone("DateTime('Europe/Paris')")).isEqualTo(ZoneId.of("Europe/Paris"));
        assertThat(ClickHouseDialectConverter.zone("Array(DateTime64(9))")).isEqualTo(ZoneOffset.UTC);
    }

    @Test
    void passwordsFromTheEnvironmentOrAFileNeverTheTableOptions(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("pw");
        Files.writeString(f, "s3cret\n");
        ClickHouseSecretsDriver.Resolved r = ClickHouseSecretsDriver.resolve(
                "jdbc:clickhouse://h:8123/db?user=w&password-file=" + f + "&compress=1");
        assertThat(r).isEqualTo(new ClickHouseSecretsDriver.Resolved("jdbc:clickhouse://h:8123/db?user=w&compress=1", "s3cret"));
        String someVariable = "PATH"; // set wherever Maven runs, one line
        assertThat(ClickHouseSecretsDriver.resolve("jdbc:clickhouse://h/db?password-env=" + someVariable).password())
                .isEqualTo(System.getenv(someVariable));
        assertThat(ClickHouseSecretsDriver.resolve("jdbc:clickhouse://h/db")).isEqualTo(new ClickHouseSecretsDriver.Resolved("jdbc:clickhouse://h/db", null));
        assertThatThrownBy(() -> ClickHouseSecretsDriver.resolve("jdbc:clickhouse://h/db?password-env=TRIBUTARY_NO_SUCH_VARIABLE_X"))
                .hasMessage("password-env: environment variable 'TRIBUTARY_NO_SUCH_VARIABLE_X' is not set");
        assertThatThrownBy(() -> ClickHouseSecretsDriver.resolve("jdbc:clickhouse://h/db?password-env=A&password-file=B"))
                .hasMessageContaining("not both");
        Properties plain = new Properties();
        plain.setProperty("password", "hunter2");
        assertThatThrownBy(() -> new ClickHouseSecretsDriver().connect("jdbc:clickhouse://h/db", plain))
                .isInstanceOf(ClickHouseRefusalException.class)
                .hasMessageStartingWith("'password': a ClickHouse password is never in a table's options")
                .hasMessageNotContaining("hunter2");
        assertThat(new ClickHouseSecretsDriver().connect("jdbc:mysql://h/db", new Properties())).isNull();
        assertThatThrownBy(() -> ClickHouseSecretsDriver.resolve("jdbc:clickhouse://h/db?user=w&password=hunter2"))
                .isInstanceOf(ClickHouseRefusalException.class)
                .hasMessageStartingWith("'url': holds a query parameter named like a secret (holding 'password'), refused")
                .hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> ClickHouseSecretsDriver.resolve("jdbc:clickhouse:http://w:hunter2@h:8123/db"))
                .isInstanceOf(ClickHouseRefusalException.class).hasMessageNotContaining("hunter2");
        for (String url : new String[] {"jdbc:clickhouse://h/db?access_token=hunter2", "jdbc:ch://h/db?key_store_password=hunter2",
            "jdbc:clickhouse://h/db?password-env=CH&Password=hunter2"}) {
            assertThatThrownBy(() -> ClickHouseSecretsDriver.resolve(url)).as(url)
                    .isInstanceOf(ClickHouseRefusalException.class).hasMessageNotContaining("hunter2");
        }
        // the file as the job reads it: one final line end dropped, any other control character refused unquoted
        Files.writeString(f, "s3cret\r\n");
        assertThat(ClickHouseSecretsDriver.resolve("jdbc:clickhouse://h/db?password-file=" + f).password()).isEqualTo("s3cret");
        Files.writeString(f, "s3cret\u001b[0m\n");
        assertThatThrownBy(() -> ClickHouseSecretsDriver.resolve("jdbc:clickhouse://h/db?password-file=" + f))
                .hasMessageStartingWith("password-file: the value of '" + f + "' holds the control character U+001B")
                .hasMessageNotContaining("s3cret");
        // the client certificate's files are paths, which pass
        assertThat(ClickHouseSecretsDriver.resolve("jdbc:clickhouse:https://h:8443/db?user=w&sslcert=%2Fc.pem&ssl_key=%2Fc.key").url())
                .isEqualTo("jdbc:clickhouse:https://h:8443/db?user=w&sslcert=%2Fc.pem&ssl_key=%2Fc.key");
    }
}
