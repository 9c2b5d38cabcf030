package io.tributary.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.imageio.ImageIO;

/**
 * {@code bench charts}: draws docs/benchmarks' PNG charts from the JSON lines the bench commands
 * appended ({@code --results}), the newest figure of each kind: the hot path per case, the job's
 * throughput and CPU per span per sink, scaling with the decode threads, and the burn-in over time.
 */
final class Charts {

    private static final Color[] PALETTE = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c),
        new Color(0xd62728), new Color(0x9467bd), new Color(0x8c564b)};
    private static final Pattern FIELD = Pattern.compile("\"([^\"]+)\":\\s*(\"((?:[^\"\\\\]|\\\\.)*)\"|[-0-9.eE]+|true|false)");

    private Charts() {}

    static void run(Args o) throws Exception {
        Path data = Path.of(o.get("data", "docs/benchmarks/data"));
        Path out = Path.of(o.get("out", "docs/benchmarks"));
        Files.createDirectories(out);
        List<Map<String, String>> runs = read(data);
        List<String> drawn = new ArrayList<>();

        // the hot path: one thread, every case (the newest run of each)
        Map<String, Double> hot = new LinkedHashMap<>();
        for (Map<String, String> r : runs) {
            if (r.get("kind").equals("decode") && r.get("threads").equals("1") && r.get("compression").equals("lz4")
                    && !"scaling".equals(r.get("label"))) {
                hot.put(r.get("signal") + " " + r.get("schema") + " " + r.get("encoding"), num(r, "items_per_s") / 1e6);
            }
        }
        if (!hot.isEmpty()) {
            bars(out.resolve("hot-path.png"), "Hot path, one thread (decode + RowBinary + LZ4 batch)",
                    "million items/s (spans, log records, data points)", hot, 1.5, "goal for traces map proto");
            drawn.add("hot-path.png");
        }

        // the job per sink: throughput, and CPU per span of the job and of ClickHouse
        Map<String, Double> rate = new LinkedHashMap<>();
        Map<String, Double> jobCpu = new LinkedHashMap<>();
        Map<String, Double> chCpu = new LinkedHashMap<>();
        for (Map<String, String> r : runs) {
            // the side-by-side runs (label "sinks", or none), not the scaling or settings experiments
            if (r.get("kind").equals("job") && List.of("sinks", "").contains(r.getOrDefault("label", ""))) {
                rate.put(r.get("sink"), num(r, "spans_per_s") / 1e3);
                jobCpu.put(r.get("sink"), num(r, "job_core_us_per_span"));
                chCpu.put(r.get("sink"), num(r, "clickhouse_core_us_per_span"));
            }
        }
        if (!rate.isEmpty()) {
            bars(out.resolve("job-throughput.png"), "Job, steady state: spans stored per second", "thousand spans/s",
                    rate, 0, null);
            Map<String, Double> both = new LinkedHashMap<>();
            jobCpu.forEach((k, v) -> both.put(k + " job", v));
            chCpu.forEach((k, v) -> both.put(k + " ClickHouse", v));
            bars(out.resolve("job-cpu.png"), "CPU per span, steady state (Rotel's whole gateway: 1.96)", "core-µs per span",
                    both, 1.96, "Rotel");
            drawn.add("job-throughput.png");
            drawn.add("job-cpu.png");
        }

        // the INSERT formats side by side (labels formats-*): the newest run of each signal, engine and format
        Map<String, Double> formats = new LinkedHashMap<>();
        for (Map<String, String> r : runs) {
            if (r.get("kind").equals("job") && r.getOrDefault("label", "").startsWith("formats-")) {
                String key = r.getOrDefault("signal", "traces") + " " + r.get("engine") + " " + r.get("sink");
                formats.put(key + " ClickHouse", num(r, "clickhouse_core_us_per_span"));
                formats.put(key + " job", num(r, "job_core_us_per_span"));
            }
        }
        if (!formats.isEmpty()) {
            bars(out.resolve("formats.png"), "CPU per item by INSERT format (sink.format), steady state",
                    "core-µs per span, log record or data point", formats, 0, null);
            drawn.add("formats.png");
        }

        // scaling: decode threads
        Map<String, Double> scaling = new LinkedHashMap<>();
        for (Map<String, String> r : runs) {
            if (r.get("kind").equals("decode") && r.get("signal").equals("traces") && r.get("schema").equals("map")
                    && r.get("encoding").equals("proto") && r.get("compression").equals("lz4") && "scaling".equals(r.get("label"))) {
                scaling.put("hot path, " + r.get("threads") + " thread(s)", num(r, "items_per_s") / 1e6);
            }
            if (r.get("kind").equals("job") && "scaling".equals(r.get("label"))) {
                scaling.put("job, parallelism " + r.get("parallelism"), num(r, "spans_per_s") / 1e6);
            }
        }
        if (!scaling.isEmpty()) {
            bars(out.resolve("scaling.png"), "Scaling on this 2-core machine", "million spans/s", scaling, 0, null);
            drawn.add("scaling.png");
        }

        // the burn-in: the newest one's samples over time
        String newest = null;
        for (Map<String, String> r : runs) {
            if (r.get("kind").equals("burnin-sample")) {
                newest = r.get("name");
            }
        }
        if (newest != null) {
            List<double[]> s = new ArrayList<>();
            for (Map<String, String> r : runs) {
                if (r.get("kind").equals("burnin-sample") && r.get("name").equals(newest)) {
                    s.add(new double[] {num(r, "t_s") / 60, num(r, "stored_spans_per_s") / 1e3, num(r, "lag_spans") / 1e3,
                        num(r, "heap_mib"), num(r, "old_after_gc_mib")});
                }
            }
            burnIn(out.resolve("burn-in.png"), s);
            drawn.add("burn-in.png");
        }
        System.out.println("bench charts: " + drawn + " in " + out);
    }

    static List<Map<String, String>> read(Path dir) throws IOException {
        List<Map<String, String>> runs = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return runs;
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList();
        }
        for (Path f : files) {
            for (String line : Files.readAllLines(f)) {
                if (line.isBlank()) {
                    continue;
                }
                Map<String, String> m = new LinkedHashMap<>();
                Matcher x = FIELD.matcher(line);
                while (x.find()) {
                    m.put(x.group(1), x.group(3) != null ? x.group(3) : x.group(2));
                }
                runs.add(m);
            }
        }
        runs.sort((a, b) -> a.getOrDefault("date", "").compareTo(b.getOrDefault("date", "")));
        return runs;
    }

    private static double num(Map<String, String> r, String k) {
        return Double.parseDouble(r.getOrDefault(k, "0"));
    }

    private static Graphics2D canvas(BufferedImage img) {
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, img.getWidth(), img.getHeight());
        return g;
    }

    /** Horizontal bars, one per entry, with an optional reference line. */
    static void bars(Path file, String title, String axis, Map<String, Double> values, double reference, String refLabel)
            throws IOException {
        int rowH = 34;
        int left = 260;
        int w = 900;
        int h = 90 + rowH * values.size() + 40;
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = canvas(img);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        g.drawString(title, 20, 30);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        double max = Math.max(reference, values.values().stream().mapToDouble(Double::doubleValue).max().orElse(1)) * 1.15;
        int plotW = w - left - 60;
        int y = 60;
        int i = 0;
        for (Map.Entry<String, Double> e : values.entrySet()) {
            int bw = (int) (plotW * e.getValue() / max);
            g.setColor(PALETTE[i++ % PALETTE.length]);
            g.fillRect(left, y, Math.max(1, bw), rowH - 10);
            g.setColor(Color.BLACK);
            g.drawString(e.getKey(), 20, y + rowH / 2 + 2);
            g.drawString(String.format(Locale.ROOT, "%.3g", e.getValue()), left + bw + 6, y + rowH / 2 + 2);
            y += rowH;
        }
        g.setColor(Color.GRAY);
        g.drawLine(left, 55, left, y);
        g.drawString(axis, left, y + 25);
        if (reference > 0) {
            int x = left + (int) (plotW * reference / max);
            g.setColor(new Color(0xd62728));
            g.setStroke(new BasicStroke(2, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {6, 4}, 0));
            g.drawLine(x, 50, x, y);
            g.drawString(refLabel + " " + reference, x + 4, 50);
        }
        g.dispose();
        ImageIO.write(img, "png", file.toFile());
    }

    /** Three panels over minutes: spans stored per second, lag, heap. */
    static void burnIn(Path file, List<double[]> s) throws IOException {
        int w = 900;
        int panel = 200;
        BufferedImage img = new BufferedImage(w, 3 * panel + 60, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = canvas(img);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        g.drawString("Burn-in: the job under constant load", 20, 30);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        String[] titles = {"thousand spans/s stored", "lag: thousand spans acknowledged by Kafka, not yet in ClickHouse",
            "heap MiB (used; old generation after GC)"};
        double tMax = s.isEmpty() ? 1 : s.get(s.size() - 1)[0];
        for (int p = 0; p < 3; p++) {
            int top = 50 + p * panel;
            int left = 80;
            int plotW = w - left - 30;
            int plotH = panel - 60;
            int[] cols = p == 0 ? new int[] {1} : p == 1 ? new int[] {2} : new int[] {3, 4};
            double max = 1;
            for (double[] r : s) {
                for (int c : cols) {
                    max = Math.max(max, r[c]);
                }
            }
            max *= 1.1;
            g.setColor(Color.BLACK);
            g.drawString(titles[p], left, top + 12);
            g.setColor(Color.LIGHT_GRAY);
            g.drawRect(left, top + 20, plotW, plotH);
            g.setColor(Color.DARK_GRAY);
            g.drawString(String.format(Locale.ROOT, "%.0f", max), 10, top + 30);
            g.drawString("0", 10, top + 20 + plotH);
            g.drawString(String.format(Locale.ROOT, "%.0f min", tMax), left + plotW - 40, top + 20 + plotH + 15);
            for (int ci = 0; ci < cols.length; ci++) {
                g.setColor(PALETTE[ci]);
                g.setStroke(new BasicStroke(1.5f));
                int px = -1;
                int py = -1;
                for (double[] r : s) {
                    int x = left + (int) (plotW * r[0] / Math.max(tMax, 1e-9));
                    int y = top + 20 + plotH - (int) (plotH * r[cols[ci]] / max);
                    if (px >= 0) {
                        g.drawLine(px, py, x, y);
                    }
                    px = x;
                    py = y;
                }
            }
        }
        g.dispose();
        ImageIO.write(img, "png", file.toFile());
    }
}
