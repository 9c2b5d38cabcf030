package io.tributary.bench;

import com.clickhouse.client.api.internal.ClickHouseLZ4OutputStream;
import io.tributary.clickhouse.ClickHouseClient;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.clickhouse.body.Body;
import io.tributary.clickhouse.body.Compression;
import io.tributary.config.TributaryConfig;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.Signal;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.schema.SchemaFlavor;
import io.tributary.schema.TableEngine;
import io.tributary.tables.OtelTable;
import io.tributary.tables.RecordRows;
import io.tributary.tables.RecordTranscoder;
import io.tributary.tables.TableLayouts;
import io.tributary.tools.loadgen.LoadShape;
import io.tributary.topology.SchemaManager;
import net.jpountz.lz4.LZ4Factory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bench framing}: which compressed body costs less, the job's (an LZ4 frame, HTTP {@code
 * Content-Encoding: lz4}) or ClickHouse's own compressed blocks ({@code decompress=1}: per block a
 * CityHash128 checksum, a method byte and sizes, as ClickHouse's native clients and Rotel send; here
 * written by client-v2's {@code ClickHouseLZ4OutputStream}, 1 MiB blocks as the job's frame). Same
 * RowBinary rows of loadgen spans; on the client side the compression's CPU per span, on the server
 * the CPU ClickHouse spends per span taking the INSERT into a {@code Null} table (its process CPU
 * counters, {@code system.events}), the framings interleaved, the median of {@code --rounds}.
 * Uncompressed is the floor; zstd (level 1, the job's {@code sink.compression zstd}) for comparison.
 */
final class FramingBench {

    private static final int BLOCK = 1 << 20;

    private FramingBench() {}

    static void run(Args o) throws Exception {
        int records = o.integer("records", 2000);
        int rounds = o.integer("rounds", 9);
        String url = o.get("clickhouse.url", "http://localhost:8123");
        // the rows: header + every record's rows, as a batch of the job holds them
        TableLayouts layouts = TableLayouts.canonical(SchemaFlavor.MAP);
        RecordTranscoder transcoder = RecordTranscoder.of(Signal.TRACES, Encoding.AUTO, layouts);
        RecordRows out = new RecordRows(layouts);
        List<byte[]> chunks = new ArrayList<>();
        chunks.add(layouts.traces().header());
        LoadShape shape = new LoadShape(7, 100);
        long now = System.currentTimeMillis() * 1_000_000L;
        long spans = 0;
        long raw = chunks.get(0).length;
        for (int i = 0; i < records; i++) {
            transcoder.transcode(shape.next(now + i * 1_000_000L).toByteArray(), out);
            RowBinaryWriter w = out.writer(OtelTable.TRACES);
            byte[] c = new byte[w.size()];
            System.arraycopy(w.buffer(), 0, c, 0, c.length);
            chunks.add(c);
            spans += out.rows(OtelTable.TRACES);
            raw += c.length;
            out.clear();
        }
        System.out.printf(Locale.ROOT, "bench framing: %,d spans, %,d bytes of RowBinary, %d rounds%n", spans, raw, rounds);
        String format = o.get("format", "rowbinary");
        if (format.equals("native")) {
            // the same rows as one Native block, as a batch of sink.format native sends them
            long t0 = System.nanoTime();
            io.tributary.nativeformat.NativeBlock block = io.tributary.nativeformat.NativeBlock.forHeader(chunks.get(0));
            for (int i = 1; i < chunks.size(); i++) {
                block.addRows(chunks.get(i), 0, chunks.get(i).length, 100);
            }
            byte[] b = block.toByteArray();
            System.out.printf(Locale.ROOT, "bench framing: the rows as one Native block: %,d bytes, %.3f core-µs/span to build"
                    + " (one pass, cold)%n", b.length, (System.nanoTime() - t0) / 1e3 / spans);
            chunks = new ArrayList<>(List.of(b));
        } else if (!format.equals("rowbinary")) {
            throw new IllegalArgumentException("--format: rowbinary or native, not '" + format + "'");
        }

        String db = "bench";
        String table = "framing_" + System.currentTimeMillis();
        TributaryConfig config = TributaryConfig.fromArgs(new String[] {"--signals", "traces", "--clickhouse.url", url,
                "--clickhouse.database", db, "--clickhouse.tables.traces", table, "--clickhouse.schema", "map"});
        SchemaManager.create(ClickHouseEndpoint.of(url), config, TableEngine.NULL, null);
        String[] framings = {"none", "http-lz4", "native-lz4", "http-zstd"};
        Map<String, List<Double>> clientNs = new HashMap<>();
        Map<String, List<Double>> serverUs = new HashMap<>();
        Map<String, Long> wire = new HashMap<>();
        HttpClient http = HttpClient.newHttpClient();
        try (ClickHouseClient ch = new ClickHouseClient(ClickHouseEndpoint.of(url), java.time.Duration.ofMinutes(2))) {
            for (int round = -2; round < rounds; round++) { // two rounds warm up
                for (String f : framings) {
                    long t0 = System.nanoTime();
                    byte[] body = compress(f, chunks);
                    double ns = (System.nanoTime() - t0) / (double) spans;
                    wire.put(f, (long) body.length);
                    long cpu0 = clickHouseCpuMicros(ch);
                    post(http, url, db, table, f, body, format);
                    double us = (clickHouseCpuMicros(ch) - cpu0) / (double) spans;
                    if (round >= 0) {
                        clientNs.computeIfAbsent(f, k -> new ArrayList<>()).add(ns);
                        serverUs.computeIfAbsent(f, k -> new ArrayList<>()).add(us);
                    }
                }
            }
            ch.execute("DROP TABLE IF EXISTS `" + db + "`.`" + table + "`");
        }
        double base = median(serverUs.get("http-lz4"));
        for (String f : framings) {
            double c = median(clientNs.get(f));
            double s = median(serverUs.get(f));
            System.out.printf(Locale.ROOT, "bench framing %-10s: client %.3f core-µs/span to compress, %.1f wire bytes/span;"
                            + " ClickHouse %.3f core-µs/span to take it (%.2fx http-lz4)%n",
                    f, c / 1e3, wire.get(f) / (double) spans, s, s / base);
            Results.append(o, "framing", Results.fields("framing", f, "format", format, "spans", spans, "client_core_us_per_span", c / 1e3,
                    "wire_bytes_per_span", wire.get(f) / (double) spans, "clickhouse_core_us_per_span", s));
        }
    }

    private static byte[] compress(String framing, List<byte[]> chunks) throws IOException {
        switch (framing) {
            case "none": {
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                for (byte[] c : chunks) {
                    b.write(c);
                }
                return b.toByteArray();
            }
            case "http-lz4":
            case "http-zstd": {
                Body body = (framing.equals("http-lz4") ? Compression.LZ4 : Compression.ZSTD).compress(chunks);
                byte[] bytes = body.toByteArray();
                body.release();
                return bytes;
            }
            default: {
                ByteArrayOutputStream b = new ByteArrayOutputStream(16 << 20);
                try (ClickHouseLZ4OutputStream lz4 = new ClickHouseLZ4OutputStream(b,
                        LZ4Factory.fastestInstance().fastCompressor(), BLOCK)) {
                    for (byte[] c : chunks) {
                        lz4.write(c, 0, c.length);
                    }
                }
                return b.toByteArray();
            }
        }
    }

    private static void post(HttpClient http, String url, String db, String table, String framing, byte[] body, String format)
            throws IOException, InterruptedException {
        String sql = "INSERT INTO `" + db + "`.`" + table + "` FORMAT "
                + (format.equals("native") ? "Native" : "RowBinaryWithNamesAndTypes");
        String q = "?query=" + URLEncoder.encode(sql, StandardCharsets.UTF_8) + (framing.equals("native-lz4") ? "&decompress=1" : "");
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(url + "/" + q)).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (framing.startsWith("http-")) {
            r.header("Content-Encoding", framing.substring(5));
        }
        HttpResponse<String> resp = http.send(r.build(), HttpResponse.BodyHandlers.ofString());
        if (resp.statusCode() != 200) {
            throw new IOException("bench framing " + framing + ": HTTP " + resp.statusCode() + ": " + resp.body());
        }
    }

    private static long clickHouseCpuMicros(ClickHouseClient ch) throws IOException, InterruptedException {
        return Long.parseLong(ch.query("SELECT sum(value) FROM system.events WHERE event IN ('UserTimeMicroseconds',"
                + " 'SystemTimeMicroseconds') FORMAT TSV").trim());
    }

    private static double median(List<Double> v) {
        List<Double> s = new ArrayList<>(v);
        s.sort(null);
        return s.get(s.size() / 2);
    }
}
