package io.tributary.udf.it;

import io.tributary.clickhouse.ClickHouseClient;
import io.tributary.testing.RealServices;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The ClickHouse dialect of flink-connector-jdbc against the real ClickHouse, in a JVM whose time
 * zone is Asia/Kolkata: a batched append sink, a scan source and a lookup source with a cache over
 * tables of every listed type, values compared exactly both ways; upserts and plain passwords
 * refused; passwords from a file and from the environment.
 */
class ClickHouseDialectITCase {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = RealServices.miniCluster(2);

    private static final String DB = RealServices.uniqueName("it_jdbc");
    /** A user of the test ClickHouse (io.tributary.services.ClickHouse) whose password is the failsafe environment's. */
    private static final String PW_USER = "tributary_password";
    private static ClickHouseClient ch;

    private static final String CH_COLUMNS = "id Int64, s String, lc LowCardinality(String), i8 Int8, i16 Int16, i32 Int32,"
            + " i64 Int64, u8 UInt8, u16 UInt16, u32 UInt32, u64 UInt64, u64d UInt64, f32 Float32, f64 Float64, b Bool,"
            + " d Date, t3 DateTime64(3), t9 DateTime64(9, 'UTC'), tk DateTime64(9, 'Asia/Tokyo'), dt DateTime('UTC'),"
            + " dec Decimal(18, 4), m Map(LowCardinality(String), String), a_s Array(String), a_i Array(Int64),"
            + " a_t Array(DateTime64(9, 'UTC')), a_m Array(Map(String, String))";
    private static final String FLINK_COLUMNS = "id BIGINT, s STRING, lc STRING, i8 TINYINT, i16 SMALLINT, i32 INT,"
            + " i64 BIGINT, u8 SMALLINT, u16 INT, u32 BIGINT, u64 BIGINT, u64d DECIMAL(20, 0), f32 FLOAT, f64 DOUBLE,"
            + " b BOOLEAN, d DATE, t3 TIMESTAMP(3), t9 TIMESTAMP_LTZ(9), tk TIMESTAMP_LTZ(9), dt TIMESTAMP_LTZ(0),"
            + " `dec` DECIMAL(18, 4), m MAP<STRING, STRING>, a_s ARRAY<STRING>, a_i ARRAY<BIGINT>,"
            + " a_t ARRAY<TIMESTAMP_LTZ(9)>, a_m ARRAY<MAP<STRING, STRING>>";

    private static final Instant T9 = Instant.parse("2024-01-02T03:04:05.123456789Z");

    @BeforeAll
    static void tables() throws Exception {
        ch = RealServices.clickHouse();
        ch.execute("CREATE DATABASE " + DB);
        ch.execute("CREATE TABLE " + DB + ".all_types (" + CH_COLUMNS + ") ENGINE = MergeTree ORDER BY id");
        ch.execute("CREATE TABLE " + DB + ".owners (service String, team LowCardinality(String), tier UInt8)"
                + " ENGINE = MergeTree ORDER BY service");
        ch.execute("INSERT INTO " + DB + ".owners VALUES ('checkout', 'payments', 1), ('cart', 'shop', 2), ('search', 'discovery', 3)");
    }

    @AfterAll
    static void drop() throws Exception {
        ch.execute("DROP DATABASE IF EXISTS " + DB);
    }

    private static String url() {
        return "jdbc:clickhouse:" + RealServices.clickHouseUrl() + "/" + DB;
    }

    private static TableEnvironment batch() {
        TableEnvironment t = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        t.getConfig().set("table.local-time-zone", "UTC"); // how the literals below read
        return t;
    }

    @Test
    void appendThenScanEveryTypeExactly() throws Exception {
        TableEnvironment t = batch();
        t.executeSql("CREATE TABLE all_types (" + FLINK_COLUMNS + ") WITH ('connector' = 'jdbc', 'url' = '" + url()
                + "', 'table-name' = 'all_types', 'sink.buffer-flush.max-rows' = '1000')");
        t.executeSql("INSERT INTO all_types VALUES "
                + "(1, 'it''s \"quoted\" ünï 😀', 'Server', CAST(-128 AS TINYINT), CAST(-32768 AS SMALLINT), -2147483648,"
                + " -9223372036854775808, CAST(255 AS SMALLINT), 65535, 4294967295, 9223372036854775807,"
                + " CAST('18446744073709551615' AS DECIMAL(20, 0)), CAST(1.5 AS FLOAT), -0.1, TRUE, DATE '2024-02-29',"
                + " TIMESTAMP '2024-01-02 03:04:05.123', CAST(TIMESTAMP '2024-01-02 03:04:05.123456789' AS TIMESTAMP_LTZ(9)),"
                + " CAST(TIMESTAMP '2024-01-02 03:04:05.123456789' AS TIMESTAMP_LTZ(9)),"
                + " CAST(TIMESTAMP '2024-01-02 03:04:05' AS TIMESTAMP_LTZ(0)), CAST(-12345678901234.5678 AS DECIMAL(18, 4)),"
                + " MAP['service.name', 'checkout', 'quote''s', 'a\\b'], ARRAY['x', '', 'z'], ARRAY[CAST(1 AS BIGINT), -2],"
                + " ARRAY[CAST(TIMESTAMP '2024-01-02 03:04:05.123456789' AS TIMESTAMP_LTZ(9)), CAST(TIMESTAMP '1970-01-01 00:00:00.000000001' AS TIMESTAMP_LTZ(9))],"
                + " ARRAY[MAP['k', 'v'], MAP['k2', 'v2']]),"
                + "(2, '', '', CAST(0 AS TINYINT), CAST(0 AS SMALLINT), 0, 0, CAST(0 AS SMALLINT), 0, 0, 0,"
                + " CAST(0 AS DECIMAL(20, 0)), CAST(0 AS FLOAT), 0.0, FALSE, DATE '1970-01-01', TIMESTAMP '1970-01-01 00:00:00.000',"
                + " CAST(TIMESTAMP '1970-01-01 00:00:00' AS TIMESTAMP_LTZ(9)), CAST(TIMESTAMP '2100-12-31 23:59:59.999999999' AS TIMESTAMP_LTZ(9)),"
                + " CAST(TIMESTAMP '2106-02-07 06:28:15' AS TIMESTAMP_LTZ(0)), CAST(0 AS DECIMAL(18, 4)),"
                + " CAST(MAP['a', 'b'] AS MAP<STRING, STRING>), CAST(ARRAY['only'] AS ARRAY<STRING>), ARRAY[CAST(0 AS BIGINT)],"
                + " ARRAY[CAST(TIMESTAMP '1970-01-01 00:00:00' AS TIMESTAMP_LTZ(9))], ARRAY[MAP['', '']])").await();

        // what ClickHouse stored, in its own words
        String stored = ch.query("SELECT id, s, lc, i8, i16, i32, i64, u8, u16, u32, u64, u64d, f32, f64, b, d, t3,"
                + " toUnixTimestamp64Nano(t9), toUnixTimestamp64Nano(tk), toUnixTimestamp(dt), dec, m, a_s, a_i,"
                + " arrayMap(x -> toUnixTimestamp64Nano(x), a_t), a_m FROM " + DB + ".all_types ORDER BY id FORMAT TSV");
        assertThat(stored.split("\n")).containsExactly(
                "1\tit\\'s \"quoted\" ünï 😀\tServer\t-128\t-32768\t-2147483648\t-9223372036854775808\t255\t65535\t4294967295"
                        + "\t9223372036854775807\t18446744073709551615\t1.5\t-0.1\ttrue\t2024-02-29\t2024-01-02 03:04:05.123"
                        + "\t1704164645123456789\t1704164645123456789\t1704164645\t-12345678901234.5678"
                        + "\t{'service.name':'checkout','quote\\'s':'a\\\\b'}\t['x','','z']\t[1,-2]"
                        + "\t[1704164645123456789,1]\t[{'k':'v'},{'k2':'v2'}]",
                "2\t\t\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\tfalse\t1970-01-01\t1970-01-01 00:00:00.000\t0\t4133980799999999999"
                        + "\t4294967295\t0\t{'a':'b'}\t['only']\t[0]\t[0]\t[{'':''}]");

        // and read back through the scan source
        List<Row> rows = SqlTesting.collect(t.executeSql("SELECT * FROM all_types ORDER BY id"));
        assertThat(rows).hasSize(2);
        Row r = rows.get(0);
        assertThat(Arrays.asList(r.getField("id"), r.getField("s"), r.getField("lc"), r.getField("i8"), r.getField("i16"),
                r.getField("i32"), r.getField("i64"), r.getField("u8"), r.getField("u16"), r.getField("u32"), r.getField("u64"),
                r.getField("u64d"), r.getField("f32"), r.getField("f64"), r.getField("b"), r.getField("d"), r.getField("t3"),
                r.getField("t9"), r.getField("tk"), r.getField("dt"), r.getField("dec"), r.getField("m")))
                .containsExactly(1L, "it's \"quoted\" ünï 😀", "Server", (byte) -128, (short) -32768, Integer.MIN_VALUE,
                        Long.MIN_VALUE, (short) 255, 65535, 4294967295L, Long.MAX_VALUE, new BigDecimal("18446744073709551615"),
                        1.5f, -0.1, true, LocalDate.of(2024, 2, 29), LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_000_000), T9, T9,
                        Instant.parse("2024-01-02T03:04:05Z"), new BigDecimal("-12345678901234.5678"),
                        Map.of("service.name", "checkout", "quote's", "a\\b"));
        assertThat((String[]) r.getField("a_s")).containsExactly("x", "", "z");
        assertThat((Long[]) r.getField("a_i")).containsExactly(1L, -2L);
        assertThat((Instant[]) r.getField("a_t")).containsExactly(T9, Instant.ofEpochSecond(0, 1));
        assertThat((Map<?, ?>[]) r.getField("a_m")).containsExactly(Map.of("k", "v"), Map.of("k2", "v2"));
        Row r2 = rows.get(1);
        assertThat(r2.getField("tk")).isEqualTo(Instant.parse("2100-12-31T23:59:59.999999999Z"));
        assertThat(r2.getField("dt")).isEqualTo(Instant.ofEpochSecond(4294967295L));
        assertThat((Map<?, ?>[]) r2.getField("a_m")).containsExactly(Map.of("", ""));
    }

    @Test
    void lookupJoinWithACache() throws Exception {
        String topic = RealServices.uniqueName("it_jdbc_probe");
        RealServices.createTopic(topic, 1);
        RealServices.produce(topic, List.of("checkout", "cart", "checkout", "unknown", "checkout", "search", "cart").stream()
                .map(s -> s.getBytes(java.nio.charset.StandardCharsets.UTF_8)).toList());
        long withCache = lookups(topic, "'lookup.cache' = 'PARTIAL', 'lookup.partial-cache.max-rows' = '100',"
                + " 'lookup.partial-cache.expire-after-write' = '1 h'");
        long without = lookups(topic, "'lookup.max-retries' = '1'");
        // 7 probes of 4 keys (one missing, cached too): the cache saves the 3 repeats
        assertThat(without - withCache).isEqualTo(3);
    }

    /** Runs the enrichment; returns the SELECTs ClickHouse served meanwhile. */
    private static long lookups(String topic, String cacheOptions) throws Exception {
        TableEnvironment t = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        t.getConfig().set("parallelism.default", "1");
        t.executeSql("CREATE TABLE probe (service STRING, proc AS PROCTIME()) WITH ('connector' = 'kafka', 'topic' = '"
                + topic + "', 'properties.bootstrap.servers' = '" + RealServices.kafkaBootstrap() + "',"
                + " 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'raw')");
        t.executeSql("CREATE TABLE owners (service STRING, team STRING, tier SMALLINT) WITH ('connector' = 'jdbc',"
                + " 'url' = '" + url() + "', 'table-name' = 'owners', " + cacheOptions + ")");
        long before = selects();
        List<Row> rows = SqlTesting.collect(t.executeSql("SELECT p.service, o.team, o.tier FROM probe AS p"
                + " LEFT JOIN owners FOR SYSTEM_TIME AS OF p.proc AS o ON p.service = o.service"));
        long after = selects();
        assertThat(rows).containsExactly(Row.of("checkout", "payments", (short) 1), Row.of("cart", "shop", (short) 2),
                Row.of("checkout", "payments", (short) 1), Row.of("unknown", null, null), Row.of("checkout", "payments", (short) 1),
                Row.of("search", "discovery", (short) 3), Row.of("cart", "shop", (short) 2));
        return after - before;
    }

    private static long selects() throws Exception {
        return Long.parseLong(ch.query("SELECT value FROM system.events WHERE event = 'SelectQuery' FORMAT TSV").strip());
    }

    @Test
    void upsertsAreRefusedWithAClearMessage() throws Exception {
        ch.execute("CREATE TABLE " + DB + ".kv (k Int64, v String) ENGINE = MergeTree ORDER BY k");
        TableEnvironment t = batch();
        t.executeSql("CREATE TABLE kv (k BIGINT, v STRING, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'jdbc',"
                + " 'url' = '" + url() + "', 'table-name' = 'kv')");
        assertThatThrownBy(() -> t.executeSql("INSERT INTO kv VALUES (1, 'a')").await())
                .rootCause().hasMessageStartingWith("ClickHouse has no UPSERT, UPDATE or row DELETE")
                .hasMessageEndingWith("(table kv, primary key k)");
        assertThat(RealServices.count(DB, "kv")).isZero();
    }

    @Test
    void passwordsComeFromAFileOrTheEnvironmentNeverTheDdl(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path file = dir.resolve("password");
        Files.writeString(file, "pw-from-the-environment\n");
        TableEnvironment t = batch();
        String base = url() + "?user=" + PW_USER;
        t.executeSql("CREATE TABLE owners_file (service STRING, team STRING) WITH ('connector' = 'jdbc', 'url' = '" + base
                + "&password-file=" + file + "', 'table-name' = 'owners')");
        t.executeSql("CREATE TABLE owners_env (service STRING, team STRING) WITH ('connector' = 'jdbc', 'url' = '" + base
                + "&password-env=TRIBUTARY_IT_CLICKHOUSE_PASSWORD', 'table-name' = 'owners')");
        t.executeSql("CREATE TABLE owners_none (service STRING, team STRING) WITH ('connector' = 'jdbc', 'url' = '" + base
                + "', 'table-name' = 'owners')");
        t.executeSql("CREATE TABLE owners_plain (service STRING, team STRING) WITH ('connector' = 'jdbc', 'url' = '" + url()
                + "', 'table-name' = 'owners', 'username' = '" + PW_USER + "', 'password' = 'pw-from-the-environment')");
        assertThat(SqlTesting.collect(t.executeSql("SELECT team FROM owners_file WHERE service = 'cart'"))).containsExactly(Row.of("shop"));
        assertThat(SqlTesting.collect(t.executeSql("SELECT count(*) FROM owners_env"))).containsExactly(Row.of(3L));
        assertThatThrownBy(() -> SqlTesting.collect(t.executeSql("SELECT * FROM owners_none")))
                .hasStackTraceContaining(PW_USER); // ClickHouse refuses the user without its password
        assertThatThrownBy(() -> SqlTesting.collect(t.executeSql("SELECT * FROM owners_plain")))
                .rootCause().hasMessageStartingWith("'password': a ClickHouse password is never in a table's options");
    }

    @Test
    void theScriptsJdbcUrlSpeaksMutualTlsWithTheJobsCertificates(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        io.tributary.testing.TlsFiles files = io.tributary.testing.TlsFiles.make(dir.resolve("tls"));
        try (io.tributary.testing.Socat mtls = new io.tributary.testing.Socat(files.serverCert, files.serverKey, files.ca,
                java.net.URI.create(RealServices.clickHouseUrl()).getPort())) {
            String jdbc = io.tributary.sql.SqlRunner.jdbcUrl(io.tributary.config.TributaryConfig.fromArgs(new String[] {
                "--clickhouse.url", mtls.url("localhost"), "--clickhouse.database", DB,
                "--clickhouse.tls.ca-file", files.ca.toString(),
                "--clickhouse.tls.client-cert-file", files.clientCert.toString(),
                "--clickhouse.tls.client-key-file", files.clientKey.toString()}));
            TableEnvironment t = batch();
            t.executeSql("CREATE TABLE owners_tls (service STRING, team STRING) WITH ('connector' = 'jdbc', 'url' = '" + jdbc
                    + "', 'table-name' = 'owners')");
            assertThat(SqlTesting.collect(t.executeSql("SELECT team FROM owners_tls WHERE service = 'cart'")))
                    .containsExactly(Row.of("shop"));
        }
    }
}
