package io.tributary.bench.jmh;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.tributary.otlp.profiles.ExportProfilesServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.tributary.otlp.profiles.KeyValueAndUnit;
import io.tributary.otlp.profiles.Profile;
import io.tributary.otlp.profiles.ProfilesDictionary;
import io.tributary.otlp.profiles.ResourceProfiles;
import io.tributary.otlp.profiles.Sample;
import io.tributary.otlp.profiles.ScopeProfiles;
import io.tributary.clickhouse.body.Body;
import io.tributary.clickhouse.body.BodyWriter;
import io.tributary.clickhouse.body.Compression;
import io.tributary.clickhouse.body.SegmentPool;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.Signal;
import io.tributary.otlp.json.OtlpJsonWriter;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.schema.SchemaFlavor;
import io.tributary.tables.OtelTable;
import io.tributary.tables.RecordRows;
import io.tributary.tables.RecordTranscoder;
import io.tributary.tables.TableLayouts;
import io.tributary.tools.loadgen.LoadShape;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The job's hot path per Kafka record, one thread: OTLP in, each table's rows in RowBinary, copied
 * into the table's batch, which compresses as it grows (LZ4, a batch closed every 500 records), as
 * the sink does. One operation is one item (span, log record, data point or sample): every record
 * holds {@value #ITEMS}. {@code -prof gc} gives the bytes allocated per item. With {@code -p
 * attributes=doubles} every item also carries double-heavy attributes ({@value #DOUBLES} doubles,
 * an array and a map of doubles, and a log body that is a map of them; a sample its own entries of
 * them in the dictionary's attribute table), which the exporter renders as text: the cost of
 * formatting doubles and rendering maps and arrays. Profiles have one table in both schema
 * flavours, so their {@code schema} runs measure the same thing twice.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class HotPath {

    static final int ITEMS = 100;
    private static final int RECORDS = 500;

    @Param({"traces", "logs", "metrics", "profiles"})
    public String signal;

    @Param({"map", "json"})
    public String schema;

    @Param({"proto", "json"})
    public String encoding;

    /** {@code loadgen}: the load generator's items; {@code doubles}: each with double-heavy attributes added. */
    @Param({"loadgen", "doubles"})
    public String attributes;

    static final int DOUBLES = 12;

    private byte[][] records;
    private int next;
    private RecordTranscoder transcoder;
    private RecordRows rows;
    private final SegmentPool pool = new SegmentPool(64);
    private final BodyWriter[] batches = new BodyWriter[OtelTable.values().length];
    private final int[] batchRecords = new int[batches.length];

    @Setup(Level.Trial)
    public void setUp() {
        Signal s = Signal.valueOf(signal.toUpperCase(Locale.ROOT));
        LoadShape shape = new LoadShape(42, ITEMS);
        records = new byte[RECORDS][];
        long now = 1_760_000_000_000_000_000L;
        for (int i = 0; i < RECORDS; i++) {
            Message m = shape.next(s, now + i * 1_000_000L);
            if (attributes.equals("doubles") && m instanceof ExportProfilesServiceRequest p) {
                m = withDoubles(p, new SplittableRandom(i));
            } else if (attributes.equals("doubles")) {
                m = withDoubles(m, new SplittableRandom(i));
            }
            records[i] = encoding.equals("json") ? OtlpJsonWriter.write(m) : m.toByteArray();
        }
        TableLayouts layouts = TableLayouts.canonical(SchemaFlavor.parse(schema));
        transcoder = RecordTranscoder.of(s, Encoding.AUTO, layouts);
        rows = new RecordRows(layouts);
    }

    /** {@code m} with double-heavy attributes added to every span, log record and data point (and a map body to every log record). */
    static Message withDoubles(Message m, SplittableRandom random) {
        String type = m.getDescriptorForType().getName();
        boolean item = type.equals("Span") || type.equals("LogRecord") || type.endsWith("DataPoint");
        Message.Builder b = m.toBuilder();
        for (FieldDescriptor f : m.getDescriptorForType().getFields()) {
            if (f.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
                continue;
            }
            if (f.isRepeated()) {
                List<Object> out = new ArrayList<>();
                for (Object v : (List<?>) m.getField(f)) {
                    out.add(withDoubles((Message) v, random));
                }
                b.setField(f, out);
            } else if (m.hasField(f) && !f.getName().equals("body")) {
                b.setField(f, withDoubles((Message) m.getField(f), random));
            }
        }
        if (item) {
            FieldDescriptor attrs = m.getDescriptorForType().findFieldByName("attributes");
            KeyValueList.Builder map = KeyValueList.newBuilder();
            ArrayValue.Builder array = ArrayValue.newBuilder();
            for (int i = 0; i < DOUBLES; i++) {
                b.addRepeatedField(attrs, KeyValue.newBuilder().setKey("d." + i).setValue(dbl(random)).build());
                if (i < 8) {
                    array.addValues(dbl(random));
                }
                if (i < 4) {
                    map.addValues(KeyValue.newBuilder().setKey("m" + i).setValue(dbl(random)));
                }
            }
            b.addRepeatedField(attrs, KeyValue.newBuilder().setKey("d.array").setValue(AnyValue.newBuilder().setArrayValue(array)).build());
            b.addRepeatedField(attrs, KeyValue.newBuilder().setKey("d.map").setValue(AnyValue.newBuilder().setKvlistValue(map)).build());
            FieldDescriptor body = m.getDescriptorForType().findFieldByName("body");
            if (body != null) {
                b.setField(body, AnyValue.newBuilder().setKvlistValue(map).build());
            }
        }
        return b.build();
    }

    /**
     * {@code r} with double-heavy attributes added to every sample: a sample holds indices into the
     * dictionary's attribute table, so each gets entries of its own there (the keys shared in the
     * string table), as many as {@link #withDoubles(Message, SplittableRandom)} gives an item.
     */
    static ExportProfilesServiceRequest withDoubles(ExportProfilesServiceRequest r, SplittableRandom random) {
        ExportProfilesServiceRequest.Builder b = r.toBuilder();
        ProfilesDictionary.Builder d = b.getDictionaryBuilder();
        int[] keys = new int[DOUBLES + 2];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = d.getStringTableCount();
            d.addStringTable(i < DOUBLES ? "d." + i : i == DOUBLES ? "d.array" : "d.map");
        }
        for (ResourceProfiles.Builder rp : b.getResourceProfilesBuilderList()) {
            for (ScopeProfiles.Builder sp : rp.getScopeProfilesBuilderList()) {
                for (Profile.Builder p : sp.getProfilesBuilderList()) {
                    for (Sample.Builder s : p.getSamplesBuilderList()) {
                        KeyValueList.Builder map = KeyValueList.newBuilder();
                        ArrayValue.Builder array = ArrayValue.newBuilder();
                        for (int i = 0; i < DOUBLES; i++) {
                            s.addAttributeIndices(d.getAttributeTableCount());
                            d.addAttributeTable(KeyValueAndUnit.newBuilder().setKeyStrindex(keys[i]).setValue(dbl(random)));
                            if (i < 8) {
                                array.addValues(dbl(random));
                            }
                            if (i < 4) {
                                map.addValues(KeyValue.newBuilder().setKey("m" + i).setValue(dbl(random)));
                            }
                        }
                        s.addAttributeIndices(d.getAttributeTableCount());
                        d.addAttributeTable(KeyValueAndUnit.newBuilder().setKeyStrindex(keys[DOUBLES])
                                .setValue(AnyValue.newBuilder().setArrayValue(array)));
                        s.addAttributeIndices(d.getAttributeTableCount());
                        d.addAttributeTable(KeyValueAndUnit.newBuilder().setKeyStrindex(keys[DOUBLES + 1])
                                .setValue(AnyValue.newBuilder().setKvlistValue(map)));
                    }
                }
            }
        }
        return b.build();
    }

    /** Doubles as telemetry has them: measurements with a few decimals, ratios, whole numbers, tiny and huge ones. */
    private static AnyValue dbl(SplittableRandom random) {
        double d;
        switch (random.nextInt(4)) {
            case 0:
                d = random.nextInt(1_000_000) / 1000.0;
                break;
            case 1:
                d = random.nextDouble();
                break;
            case 2:
                d = random.nextInt(100_000);
                break;
            default:
                d = random.nextDouble() * Math.pow(10, random.nextInt(60) - 30);
        }
        return AnyValue.newBuilder().setDoubleValue(d).build();
    }

    /** Decode and rows only. */
    @Benchmark
    @OperationsPerInvocation(ITEMS)
    public int decode() throws Exception {
        byte[] value = records[next];
        next = (next + 1) % RECORDS;
        transcoder.transcode(value, rows);
        int n = rows.total();
        rows.clear();
        return n;
    }

    /** Decode, rows, and the sink's batch: copy and LZ4 as it grows. */
    @Benchmark
    @OperationsPerInvocation(ITEMS)
    public long decodeAndBatch() throws Exception {
        byte[] value = records[next];
        next = (next + 1) % RECORDS;
        transcoder.transcode(value, rows);
        long bytes = 0;
        for (OtelTable t : OtelTable.values()) {
            int i = t.ordinal();
            if (rows.rows(t) > 0) {
                RowBinaryWriter w = rows.writer(t);
                if (batches[i] == null) {
                    batches[i] = Compression.LZ4.open(pool);
                }
                batches[i].write(w.buffer(), 0, w.size());
                if (++batchRecords[i] == 500) {
                    Body body = batches[i].finish();
                    bytes += body.length();
                    body.release();
                    batches[i] = null;
                    batchRecords[i] = 0;
                }
            }
        }
        rows.clear();
        return bytes;
    }
}
