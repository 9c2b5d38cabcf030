package io.tributary.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Message;
import io.tributary.TributaryJob;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.otlp.json.OtlpJsonWriter;
import io.tributary.schema.TableEngine;
import io.tributary.tables.OtelTable;
import io.tributary.testing.RealServices;
import io.tributary.testing.SizedRequests;
import io.tributary.topology.SchemaManager;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code kafka.encoding auto} (the default) on the real services: protobuf records whose first
 * resource block is 123 bytes long (they start with "\n{", a line feed and a brace) or as long as
 * a JSON whitespace byte, mixed with OTLP/JSON records led and followed by every kind of JSON
 * whitespace, all land; every row of every table equals what a run told each record's encoding
 * writes, and nothing is dead-lettered.
 */
class AutoEncodingITCase {

    @RegisterExtension
    static final MiniClusterExtension FLINK = RealServices.miniCluster(2);

    /** The lengths of a first block whose length byte is '{' or JSON whitespace, and some others. */
    private static final int[] FIRST_BLOCKS = {123, 9, 10, 13, 32, 122, 124, 200};
    private static final String[] WHITESPACE = {"", " ", "\n", "\r\n", "\t", " \t\r\n ", "\n\n\n"};

    @Test
    void recordsThatStartLikeJsonButAreProtobufLandAsTheirEncodingSays() throws Exception {
        String mixed = RealServices.uniqueName("it_auto");
        String proto = RealServices.uniqueName("it_auto_proto");
        String json = RealServices.uniqueName("it_auto_json");
        List<String> topics = new ArrayList<>();
        for (String t : new String[] {mixed, proto, json}) {
            for (String signal : new String[] {"traces", "logs", "metrics"}) {
                RealServices.createTopic(t + "_" + signal, 1);
                topics.add(t + "_" + signal);
            }
        }
        int items = 0;
        for (SizedRequests.Kind kind : SizedRequests.Kind.values()) {
            String signal = kind.signal.id();
            List<byte[]> all = new ArrayList<>();
            List<byte[]> protos = new ArrayList<>();
            List<byte[]> jsons = new ArrayList<>();
            for (int i = 0; i < FIRST_BLOCKS.length; i++) {
                Message req = SizedRequests.request(kind, FIRST_BLOCKS[i], 150 + i);
                byte[] p = req.toByteArray();
                byte[] j = (WHITESPACE[i % WHITESPACE.length] + new String(OtlpJsonWriter.write(req), StandardCharsets.UTF_8)
                        + WHITESPACE[(i + 3) % WHITESPACE.length]).getBytes(StandardCharsets.UTF_8);
                all.add(p);
                all.add(j);
                protos.add(p);
                jsons.add(j);
                items += 2 * items(req); // in both encodings
            }
            assertThat(new String(protos.get(0), 0, 2, StandardCharsets.ISO_8859_1)).isEqualTo("\n{");
            RealServices.produce(mixed + "_" + signal, all);
            RealServices.produce(proto + "_" + signal, protos);
            RealServices.produce(json + "_" + signal, jsons);
        }
        String dlq = RealServices.uniqueName("it_auto_dlq");
        RealServices.createTopic(dlq, 1);
        run(mixed, "auto", dlq);
        run(proto, "otlp_proto", dlq);
        run(json, "otlp_json", dlq, proto);

        long rows = 0;
        for (OtelTable t : OtelTable.values()) {
            if (t.signal() == io.tributary.otlp.Signal.PROFILES) {
                continue; // not among the signals that run by default, which these runs move
            }
            List<String> auto = RealServices.rows(mixed, table(t));
            List<String> told = RealServices.rows(proto, table(t));
            assertThat(auto).as(t + ": every column of every row, auto against the encodings told").isEqualTo(told);
            rows += auto.size();
        }
        assertThat(rows).as("every item of every record").isEqualTo(items);
        assertThat(RealServices.consumeAll(dlq)).as("no dead letters").isEmpty();
        RealServices.dropDatabases(mixed, proto);
    }

    /**
     * Spans, log records or data points of a request (here each metric has one point): field 2
     * (the scope blocks) of each resource block, and field 2 of each of those.
     */
    private static int items(Message req) {
        int n = 0;
        for (Object block : (List<?>) req.getField(req.getDescriptorForType().findFieldByNumber(1))) {
            Message b = (Message) block;
            for (Object scope : (List<?>) b.getField(b.getDescriptorForType().findFieldByNumber(2))) {
                Message sc = (Message) scope;
                n += sc.getRepeatedFieldCount(sc.getDescriptorForType().findFieldByNumber(2));
            }
        }
        return n;
    }

    /** The table's default name ({@code otel_traces}, {@code otel_metrics_gauge}, ...). */
    private static String table(OtelTable t) {
        return "otel_" + t.name().toLowerCase(java.util.Locale.ROOT);
    }

    /** A bounded run over the three topics of {@code prefix} into database {@code db} (default: the prefix). */
    private static void run(String prefix, String encoding, String dlq, String... db) throws Exception {
        String database = db.length > 0 ? db[0] : prefix;
        TributaryConfig config = TributaryConfig.fromArgs(new String[] {
            "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
            "--kafka.topics.traces", prefix + "_traces",
            "--kafka.topics.logs", prefix + "_logs",
            "--kafka.topics.metrics", prefix + "_metrics",
            "--kafka.group-id", prefix,
            "--kafka.encoding", encoding,
            "--kafka.bounded", "true",
            "--kafka.starting-offsets", "earliest",
            "--dlq.topic", dlq,
            "--parallelism", "1",
            "--clickhouse.url", RealServices.clickHouseUrl(),
            "--clickhouse.database", database,
            "--checkpoint.interval", "1h"
        });
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, null);
        TributaryJob.run(StreamExecutionEnvironment.getExecutionEnvironment(), config);
    }
}
