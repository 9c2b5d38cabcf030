package io.tributary.schema;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.schema.Columns;
import io.tributary.schema.Field;
import io.tributary.schema.SchemaFlavor;
import io.tributary.schema.TableLayout;
import io.tributary.schema.TableSchema;
import io.tributary.tables.OtelTable;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * How rows are written into tables the job did not create: exact bytes of each conversion, the
 * header, and the messages of what does not fit; and that a table as {@code schema create} makes
 * it resolves to the canonical layout, with no conversion.
 */
class TableLayoutTest {

    /** A row: flags, duration, time in nanoseconds. */
    record Row(int flags, long duration, long nanos, String name) {}

    private static final TableSchema<Row> SCHEMA = TableSchema.<Row>builder()
            .column(Columns.uint8("Flags", "", Row::flags))
            .column(Columns.uint64("Duration", "", Row::duration))
            .column(Columns.dateTime64Nanos("Ts", "", Row::nanos))
            .column(Columns.dateTimeFromNanos("T", "", Row::nanos))
            .column(Columns.string("Name", "", Row::name))
            .column(Columns.string("EventName", "", Row::name).optional())
            .column(Columns.<Row>int32("AggregationTemporality", "", r -> 2).formerly("AggTemp"))
            .partitionBy("tuple()").orderBy("tuple()").settings("")
            .build();

    private static final Row ROW = new Row(0x81, 1_500L, 1_764_460_800_123_456_789L, "ab");

    private static String hex(TableLayout<Row> l) {
        RowBinaryWriter out = new RowBinaryWriter(64);
        l.writeRow(ROW, out);
        return HexFormat.of().formatHex(out.toByteArray());
    }

    @Test
    void eachValueIsWrittenInTheTablesTypeAndTheHeaderNamesThem() {
        List<String> problems = new ArrayList<>();
        TableLayout<Row> l = TableLayout.resolve(SCHEMA, "t", List.of(
                new ServerColumn("Flags", "UInt32", "", ""),
                new ServerColumn("Duration", "Int64", "", ""),
                new ServerColumn("Ts", "DateTime64(6, 'UTC')", "", ""),
                new ServerColumn("T", "DateTime64(9)", "", ""),
                new ServerColumn("Name", "LowCardinality(Nullable(String))", "", ""),
                new ServerColumn("AggTemp", "Int64", "", ""),
                new ServerColumn("Extra", "UInt8", "DEFAULT", "5")), problems);
        assertThat(problems).isEmpty();
        assertThat(l.columnNames()).containsExactly("Flags", "Duration", "Ts", "T", "Name", "AggTemp");
        assertThat(hex(l)).isEqualTo(
                "81000000" // UInt8 0x81 as UInt32
                        + "dc05000000000000" // 1500 as Int64, the same bytes as UInt64
                        + HexFormat.of().withUpperCase().formatHex(le(1_764_460_800_123_456L)).toLowerCase() // microseconds
                        + HexFormat.of().formatHex(le(1_764_460_800_123_456_789L)) // DateTime as DateTime64(9): every nanosecond
                        + "00" + "026162" // Nullable: not null, then the string
                        + "0200000000000000"); // Int32 2 under its older name, as Int64
        RowBinaryWriter header = new RowBinaryWriter(64);
        header.writeVarUInt(6);
        for (String s : List.of("Flags", "Duration", "Ts", "T", "Name", "AggTemp",
                "UInt32", "Int64", "DateTime64(6, 'UTC')", "DateTime64(9)", "LowCardinality(Nullable(String))", "Int64")) {
            header.writeString(s);
        }
        assertThat(l.header()).isEqualTo(header.toByteArray());
        assertThat(l.skipped()).containsExactly("EventName (String): the table has no column `EventName`");
        assertThat(l.report()).contains("    Flags UInt32  (converted from UInt8)\n")
                .contains("    Name LowCardinality(Nullable(String))  (converted from String)\n")
                .contains("  left to ClickHouse:\n    Extra UInt8 (DEFAULT 5)\n");
    }

    @Test
    void whatDoesNotFitIsNamedWithBothTypes() {
        List<String> problems = new ArrayList<>();
        TableLayout<Row> l = TableLayout.resolve(SCHEMA, "`db`.`t`", List.of(
                new ServerColumn("Flags", "Int8", "", ""),
                new ServerColumn("Duration", "UInt32", "", ""),
                new ServerColumn("Ts", "DateTime", "", ""),
                new ServerColumn("T", "String", "", ""),
                new ServerColumn("Name", "String", "MATERIALIZED", "'x'"),
                new ServerColumn("AggregationTemporality", "UInt32", "", "")), problems);
        assertThat(l).isNull();
        assertThat(problems).containsExactly(
                "`db`.`t` has column `Flags` as Int8; the job writes it as UInt8 and cannot convert that to Int8 without loss",
                "`db`.`t` has column `Duration` as UInt32; the job writes it as UInt64 and cannot convert that to UInt32 without loss",
                "`db`.`t` has column `Ts` as DateTime; the job writes it as DateTime64(9) and cannot convert that to DateTime without loss",
                "`db`.`t` has column `T` as String; the job writes it as DateTime and cannot convert that to String without loss",
                "`db`.`t` computes `Name` (MATERIALIZED 'x'), which the job must write (String)",
                "`db`.`t` has column `AggregationTemporality` as UInt32; the job writes it as Int32 and cannot convert that to UInt32 without loss");
    }

    /** A row with arrays, a map and nested fields. */
    record Nested(List<Long> counts, io.tributary.tables.Attributes attributes, long[] times, String[] names) {}

    private static final TableSchema<Nested> NESTED = TableSchema.<Nested>builder()
            .column(Columns.uint64Array("Counts", "", Nested::counts))
            .columns(Columns.attributes("Attributes", "", SchemaFlavor.MAP, Nested::attributes))
            .column(Columns.nested("Events", "", r -> r.times().length,
                    Columns.nestedDateTime64Nanos("Timestamp", (r, i) -> r.times()[i]),
                    Columns.nestedString("Name", (r, i) -> r.names()[i])))
            .partitionBy("tuple()").orderBy("tuple()").settings("")
            .build();

    @Test
    void arraysMapsAndNestedFieldsConvertElementByElement() {
        io.tributary.tables.Attributes attrs = io.tributary.tables.Attributes.of(List.of(
                io.opentelemetry.proto.common.v1.KeyValue.newBuilder().setKey("k")
                        .setValue(io.opentelemetry.proto.common.v1.AnyValue.newBuilder().setIntValue(7)).build()));
        Nested row = new Nested(List.of(1L, 2L), attrs, new long[] {3_000_000_000L, 4_000_123_456L}, new String[] {"a", "b"});
        List<String> problems = new ArrayList<>();
        TableLayout<Nested> l = TableLayout.resolve(NESTED, "t", List.of(
                new ServerColumn("Counts", "Array(Int64)", "", ""),
                new ServerColumn("Attributes", "Map(String, LowCardinality(String))", "", ""),
                new ServerColumn("Events.Timestamp", "Array(DateTime64(3))", "", ""),
                new ServerColumn("Events.Name", "Array(Nullable(String))", "", "")), problems);
        assertThat(problems).isEmpty();
        RowBinaryWriter out = new RowBinaryWriter(64);
        l.writeRow(row, out);
        assertThat(HexFormat.of().formatHex(out.toByteArray())).isEqualTo(
                "02" + "0100000000000000" + "0200000000000000" // Array(Int64) [1, 2]
                        + "01" + "016b" + "0137" // Map {'k': '7'}
                        + "02" + "b80b000000000000" + "a00f000000000000" // milliseconds 3000, 4000 (truncated)
                        + "02" + "00" + "0161" + "00" + "0162"); // Nullable elements: not null, then the string
        problems.clear();
        assertThat(TableLayout.resolve(NESTED, "t", List.of(
                new ServerColumn("Counts", "Array(UInt32)", "", ""),
                new ServerColumn("Attributes", "Map(String, UInt64)", "", ""),
                new ServerColumn("Events.Timestamp", "DateTime64(9)", "", ""),
                new ServerColumn("Events.Name", "Array(String)", "", "")), problems)).isNull();
        assertThat(problems).containsExactly(
                "t has column `Counts` as Array(UInt32); the job writes it as Array(UInt64) and cannot convert that to Array(UInt32) without loss",
                "t has column `Attributes` as Map(String, UInt64); the job writes it as Map(LowCardinality(String), String) and cannot"
                        + " convert that to Map(String, UInt64) without loss",
                "t has column `Events.Timestamp` as DateTime64(9); the job writes it as Array(DateTime64(9)) and cannot convert that"
                        + " to DateTime64(9) without loss");
    }

    @Test
    void jsonColumnsWithTypedOrSkippedPathsAreRefused() {
        TableSchema<Nested> json = TableSchema.<Nested>builder()
                .columns(Columns.attributes("Attributes", "", SchemaFlavor.JSON, Nested::attributes))
                .partitionBy("tuple()").orderBy("tuple()").settings("").build();
        for (String ok : List.of("JSON", "JSON(max_dynamic_paths=1024)", "JSON(max_dynamic_paths = 16, max_dynamic_types = 4)")) {
            List<String> problems = new ArrayList<>();
            TableLayout.resolve(json, "t", List.of(new ServerColumn("Attributes", ok, "", "")), problems);
            assertThat(problems).as(ok).isEmpty();
        }
        for (String typed : List.of("JSON(a.b UInt32)", "JSON(SKIP a.c)", "JSON(max_dynamic_paths=10, SKIP REGEXP 'x.*')")) {
            List<String> problems = new ArrayList<>();
            TableLayout.resolve(json, "t", List.of(new ServerColumn("Attributes", typed, "", "")), problems);
            assertThat(problems).as(typed).singleElement().asString().contains("has column `Attributes` as " + typed);
        }
    }

    /** Tables exactly as {@code schema create} makes them: no conversion, the canonical header. */
    @ParameterizedTest
    @EnumSource(SchemaFlavor.class)
    void tablesAsSchemaCreateMakesThemResolveToTheCanonicalLayout(SchemaFlavor flavor) {
        for (OtelTable t : OtelTable.values()) {
            check(t.schema(flavor), flavor + " " + t);
        }
    }

    private static <R> void check(TableSchema<R> schema, String what) {
        List<ServerColumn> columns = new ArrayList<>();
        for (Field<R> f : schema.fields()) {
            columns.add(new ServerColumn(f.name(), f.type(), "", ""));
        }
        List<String> problems = new ArrayList<>();
        TableLayout<R> l = TableLayout.resolve(schema, "t", columns, problems);
        assertThat(problems).as(what).isEmpty();
        assertThat(l.header()).as(what).isEqualTo(TableLayout.canonical(schema, "t").header());
        assertThat(l.report()).as(what).doesNotContain("converted");
        assertThat(l.columnNames()).as(what).isEqualTo(schema.insertColumns());
    }

    /**
     * Exactly-once batches of release 0.1's checkpoints are plain RowBinary of the columns of that
     * release's tables, inserted with {@link TableSchema#insertSql}: those lists must not change. If
     * this fails, the schema changed: freeze the old lists for those batches instead of changing
     * the fixture.
     */
    @Test
    void theColumnsOfRelease01BatchesAreTheInsertColumnsOfTheTablesAsCreated() throws Exception {
        StringBuilder now = new StringBuilder();
        for (SchemaFlavor f : SchemaFlavor.values()) {
            if (f == SchemaFlavor.COROOT) {
                continue; // a flavour after release 0.1
            }
            for (OtelTable t : OtelTable.values()) {
                if (t == OtelTable.PROFILES) {
                    continue; // a table after release 0.1: no checkpoint of that release holds a batch of it
                }
                now.append(f).append('\t').append(t).append('\t').append(String.join(",", t.schema(f).insertColumns())).append('\n');
            }
        }
        assertThat(now.toString()).isEqualTo(Files.readString(Path.of("src/test/resources/committable-v1-columns.tsv"),
                StandardCharsets.UTF_8));
    }

    private static byte[] le(long v) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (v >>> (8 * i));
        }
        return b;
    }
}
