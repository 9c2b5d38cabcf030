package io.tributary.testing.oracle;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.tributary.otlp.profiles.ExportProfilesServiceRequest;
import io.tributary.otlp.profiles.Function;
import io.tributary.otlp.profiles.KeyValueAndUnit;
import io.tributary.otlp.profiles.Line;
import io.tributary.otlp.profiles.Location;
import io.tributary.otlp.profiles.Mapping;
import io.tributary.otlp.profiles.Profile;
import io.tributary.otlp.profiles.ProfilesDictionary;
import io.tributary.otlp.profiles.ResourceProfiles;
import io.tributary.otlp.profiles.Sample;
import io.tributary.otlp.profiles.ScopeProfiles;
import io.tributary.otlp.profiles.Stack;
import io.tributary.otlp.profiles.ValueType;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Generated OTLP for the differential tests: requests with every value type and odd corner, and a
 * scrambler that encodes a message in ways protobuf-java reads as the same message (fields out of
 * order, singular fields repeated with earlier decoys, embedded messages split into several
 * occurrences that merge, unknown fields of every wire type), so that the wire readers meet the
 * wire format's freedom, not just protobuf-java's own encoding.
 */
public final class RandomOtlp {

    /** Marks a string value whose bytes the test replaces with invalid UTF-8 after encoding. */
    public static final String BAD_UTF8 = "\u0001BAD\u0001";

    private final SplittableRandom random;

    public RandomOtlp(long seed) {
        this.random = new SplittableRandom(seed);
    }

    // ---- values

    private static final String[] KEYS = {
        "service.name", "http.method", "http.status_code", "a", "b", "A", "z", "dup", "ünïcödé", "\uD83D\uDE00emoji",
        "\uE000private", "", "k.with.dots", "x"
    };

    String string() {
        switch (random.nextInt(9)) {
            case 0:
                return "";
            case 1:
                return "ünïcödé \uD83D\uDE00 " + random.nextInt(100);
            case 2:
                return "quote\" back\\slash \n\t\u0000 control " + random.nextInt(10);
            case 3:
                return BAD_UTF8;
            case 4:
                return "x".repeat(random.nextInt(300));
            default:
                return "v" + random.nextInt(1000);
        }
    }

    AnyValue value(int depth) {
        AnyValue.Builder b = AnyValue.newBuilder();
        int kind = random.nextInt(depth > 3 ? 7 : 10);
        switch (kind) {
            case 0:
                return b.build(); // no value
            case 1:
                return b.setBoolValue(random.nextBoolean()).build();
            case 2: {
                long[] ints = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 42, -123456789012L};
                return b.setIntValue(ints[random.nextInt(ints.length)]).build();
            }
            case 3: {
                double[] ds = {0.0, -0.0, 1.5, 1e21, 1e20, 1e-7, 123456.789, Double.NaN, Double.POSITIVE_INFINITY,
                    Double.NEGATIVE_INFINITY, Double.MIN_VALUE, Double.MAX_VALUE, 100.0, 0.1};
                return b.setDoubleValue(ds[random.nextInt(ds.length)]).build();
            }
            case 4: {
                byte[] bytes = new byte[random.nextInt(7)];
                random.nextBytes(bytes);
                return b.setBytesValue(ByteString.copyFrom(bytes)).build();
            }
            case 7: {
                ArrayValue.Builder a = ArrayValue.newBuilder();
                for (int i = random.nextInt(4); i > 0; i--) {
                    a.addValues(value(depth + 1));
                }
                return b.setArrayValue(a).build();
            }
            case 8: {
                KeyValueList.Builder m = KeyValueList.newBuilder();
                for (int i = random.nextInt(4); i > 0; i--) {
                    m.addValues(keyValue(depth + 1));
                }
                return b.setKvlistValue(m).build();
            }
            default:
                return b.setStringValue(string()).build();
        }
    }

    KeyValue keyValue(int depth) {
        String key = random.nextInt(10) == 0 ? BAD_UTF8 : KEYS[random.nextInt(KEYS.length)];
        return KeyValue.newBuilder().setKey(key).setValue(value(depth)).build();
    }

    List<KeyValue> attributes(int max) {
        List<KeyValue> out = new ArrayList<>();
        for (int i = random.nextInt(max + 1); i > 0; i--) {
            out.add(keyValue(0));
        }
        return out;
    }

    ByteString id(int length) {
        switch (random.nextInt(6)) {
            case 0:
                return ByteString.EMPTY;
            case 1:
                return ByteString.copyFrom(new byte[length]); // all zero
            default:
                byte[] b = new byte[length];
                random.nextBytes(b);
                return ByteString.copyFrom(b);
        }
    }

    long time() {
        long[] ts = {0, 1, 1_764_460_800_123_456_789L, Long.MAX_VALUE, -1L};
        return random.nextInt(3) == 0 ? ts[random.nextInt(ts.length)] : 1_764_460_800_000_000_000L + random.nextInt(1_000_000_000);
    }

    /** A traces request with every value type, several resources, scopes and spans. */
    public ExportTraceServiceRequest traces() {
        ExportTraceServiceRequest.Builder req = ExportTraceServiceRequest.newBuilder();
        for (int r = random.nextInt(3) + 1; r > 0; r--) {
            ResourceSpans.Builder rs = ResourceSpans.newBuilder();
            if (random.nextInt(5) > 0) {
                Resource.Builder res = Resource.newBuilder().addAllAttributes(attributes(6));
                if (random.nextBoolean()) {
                    res.addAttributes(KeyValue.newBuilder().setKey("service.name").setValue(value(0)));
                }
                res.setDroppedAttributesCount(random.nextInt(3));
                rs.setResource(res);
            }
            rs.setSchemaUrl(random.nextBoolean() ? "" : "https://opentelemetry.io/schemas/1.26.0");
            for (int s = random.nextInt(3); s >= 0; s--) {
                ScopeSpans.Builder ss = ScopeSpans.newBuilder();
                if (random.nextInt(4) > 0) {
                    ss.setScope(InstrumentationScope.newBuilder().setName(string()).setVersion(string())
                            .addAllAttributes(attributes(2)));
                }
                for (int n = random.nextInt(4); n > 0; n--) {
                    ss.addSpans(span());
                }
                rs.addScopeSpans(ss);
            }
            req.addResourceSpans(rs);
        }
        return req.build();
    }

    /** A logs request with every value type as body and attribute, several resources, scopes and records. */
    public ExportLogsServiceRequest logs() {
        ExportLogsServiceRequest.Builder req = ExportLogsServiceRequest.newBuilder();
        for (int r = random.nextInt(3) + 1; r > 0; r--) {
            ResourceLogs.Builder rl = ResourceLogs.newBuilder();
            if (random.nextInt(5) > 0) {
                Resource.Builder res = Resource.newBuilder().addAllAttributes(attributes(6));
                if (random.nextBoolean()) {
                    res.addAttributes(KeyValue.newBuilder().setKey("service.name").setValue(value(0)));
                }
                rl.setResource(res);
            }
            rl.setSchemaUrl(random.nextBoolean() ? "" : string());
            for (int s = random.nextInt(3); s >= 0; s--) {
                ScopeLogs.Builder sl = ScopeLogs.newBuilder();
                if (random.nextInt(4) > 0) {
                    sl.setScope(InstrumentationScope.newBuilder().setName(string()).setVersion(string())
                            .addAllAttributes(attributes(3)).setDroppedAttributesCount(random.nextInt(2)));
                }
                sl.setSchemaUrl(random.nextBoolean() ? "" : string());
                for (int n = random.nextInt(4); n > 0; n--) {
                    sl.addLogRecords(logRecord());
                }
                rl.addScopeLogs(sl);
            }
            req.addResourceLogs(rl);
        }
        return req.build();
    }

    /** A metrics request of every type, with exemplars and odd values: see {@link RandomMetrics}. */
    public ExportMetricsServiceRequest metrics() {
        return new RandomMetrics(this, random).request();
    }

    /**
     * A profiles request with every dictionary feature: strings (invalid UTF-8 among them),
     * functions, mappings, locations with no, one or several lines (inline frames), stacks, links,
     * attributes of every value type; indexes inside their tables mostly, and 0, negative or past
     * the end now and then (stack, link, location, mapping, function and string indexes read as
     * empty there; an attribute index past its table refuses the record, as in the exporter).
     */
    public ExportProfilesServiceRequest profiles() {
        ExportProfilesServiceRequest.Builder req = ExportProfilesServiceRequest.newBuilder();
        ProfilesDictionary.Builder d = ProfilesDictionary.newBuilder();
        int strings = 1 + random.nextInt(12);
        d.addStringTable("");
        for (int i = 1; i < strings; i++) {
            d.addStringTable(random.nextInt(6) == 0 ? string() : "fn_" + random.nextInt(50) + (random.nextBoolean() ? ".go" : ""));
        }
        int functions = random.nextInt(6);
        for (int i = 0; i < functions; i++) {
            d.addFunctionTable(Function.newBuilder().setNameStrindex(index(strings)).setSystemNameStrindex(index(strings))
                    .setFilenameStrindex(index(strings)).setStartLine(random.nextInt(100)));
        }
        int mappings = random.nextInt(4);
        for (int i = 0; i < mappings; i++) {
            d.addMappingTable(Mapping.newBuilder().setMemoryStart(random.nextLong()).setMemoryLimit(random.nextInt(1 << 20))
                    .setFileOffset(random.nextInt(4096)).setFilenameStrindex(index(strings)).addAttributeIndices(random.nextInt(3)));
        }
        int locations = random.nextInt(7);
        for (int i = 0; i < locations; i++) {
            Location.Builder l = Location.newBuilder().setMappingIndex(index(mappings)).setAddress(random.nextLong() >>> random.nextInt(64));
            for (int n = random.nextInt(4); n > 0; n--) {
                l.addLines(Line.newBuilder().setFunctionIndex(index(functions)).setLine(random.nextInt(5) == 0 ? random.nextLong() : random.nextInt(2000))
                        .setColumn(random.nextInt(80)));
            }
            d.addLocationTable(l);
        }
        int stacks = random.nextInt(5);
        for (int i = 0; i < stacks; i++) {
            Stack.Builder s = Stack.newBuilder();
            for (int n = random.nextInt(8); n > 0; n--) {
                s.addLocationIndices(index(locations));
            }
            d.addStackTable(s);
        }
        int links = random.nextInt(4);
        for (int i = 0; i < links; i++) {
            d.addLinkTable(io.tributary.otlp.profiles.Link.newBuilder().setTraceId(id(16)).setSpanId(id(8)));
        }
        int attrs = random.nextInt(6);
        for (int i = 0; i < attrs; i++) {
            KeyValueAndUnit.Builder kv = KeyValueAndUnit.newBuilder().setKeyStrindex(random.nextInt(strings)).setUnitStrindex(index(strings));
            if (random.nextInt(5) > 0) {
                kv.setValue(value(0));
            }
            d.addAttributeTable(kv);
        }
        if (random.nextInt(8) > 0) {
            req.setDictionary(d);
        }
        for (int r = random.nextInt(3) + 1; r > 0; r--) {
            ResourceProfiles.Builder rp = ResourceProfiles.newBuilder();
            if (random.nextInt(5) > 0) {
                Resource.Builder res = Resource.newBuilder().addAllAttributes(attributes(6));
                if (random.nextBoolean()) {
                    res.addAttributes(KeyValue.newBuilder().setKey("service.name").setValue(value(0)));
                }
                rp.setResource(res);
            }
            rp.setSchemaUrl(random.nextBoolean() ? "" : string());
            for (int s = random.nextInt(3); s >= 0; s--) {
                ScopeProfiles.Builder sp = ScopeProfiles.newBuilder();
                if (random.nextInt(4) > 0) {
                    sp.setScope(InstrumentationScope.newBuilder().setName(string()).setVersion(string()).addAllAttributes(attributes(2)));
                }
                for (int n = random.nextInt(3); n > 0; n--) {
                    sp.addProfiles(profile(strings, stacks, links, attrs));
                }
                rp.addScopeProfiles(sp);
            }
            req.addResourceProfiles(rp);
        }
        return req.build();
    }

    /** An index into a table of {@code size} entries: inside mostly, now and then 0, negative or past the end. */
    private int index(int size) {
        switch (random.nextInt(12)) {
            case 0:
                return -1 - random.nextInt(3);
            case 1:
                return size + random.nextInt(3);
            case 2:
                return random.nextInt(20) == 0 ? Integer.MIN_VALUE : 0;
            default:
                return size == 0 ? 0 : random.nextInt(size);
        }
    }

    /** Attribute indexes: inside their table, but one list in 150 has one past it. */
    private void attributeIndices(int attrs, java.util.function.IntConsumer add) {
        if (random.nextInt(150) == 0) {
            add.accept(attrs + random.nextInt(2));
        }
        for (int n = attrs == 0 ? 0 : random.nextInt(4); n > 0; n--) {
            add.accept(random.nextInt(attrs));
        }
    }

    private Profile profile(int strings, int stacks, int links, int attrs) {
        Profile.Builder p = Profile.newBuilder()
                .setSampleType(ValueType.newBuilder().setTypeStrindex(index(strings)).setUnitStrindex(index(strings)))
                .setTimeUnixNano(time()).setDurationNano(random.nextInt(3) == 0 ? random.nextLong() : random.nextInt(60_000))
                .setPeriod(random.nextInt(4) == 0 ? -random.nextInt(100) : 10_000_000L).setProfileId(id(16))
                .setDroppedAttributesCount(random.nextInt(2))
                .setOriginalPayloadFormat(random.nextInt(4) == 0 ? "pprof" : "");
        if (random.nextBoolean()) {
            p.setPeriodType(ValueType.newBuilder().setTypeStrindex(index(strings)).setUnitStrindex(index(strings)));
        }
        if (random.nextInt(6) == 0) {
            p.setOriginalPayload(ByteString.copyFrom(new byte[] {1, 2, 3}));
        }
        attributeIndices(attrs, p::addAttributeIndices);
        for (int n = random.nextInt(5); n > 0; n--) {
            Sample.Builder s = Sample.newBuilder().setStackIndex(index(stacks)).setLinkIndex(index(links));
            attributeIndices(attrs, s::addAttributeIndices);
            for (int v = random.nextInt(3); v > 0; v--) {
                s.addValues(random.nextInt(5) == 0 ? random.nextLong() : random.nextInt(1_000_000));
            }
            for (int t = random.nextInt(3); t > 0; t--) {
                s.addTimestampsUnixNano(time());
            }
            if (s.getValuesCount() == 0 && s.getTimestampsUnixNanoCount() == 0 && random.nextInt(10) > 0) {
                s.addValues(1); // a sample must have one or the other (else its attribute indexes read as v1.9 values)
            }
            p.addSamples(s);
        }
        return p.build();
    }

    LogRecord logRecord() {
        LogRecord.Builder l = LogRecord.newBuilder()
                .setTimeUnixNano(random.nextInt(4) == 0 ? 0 : time())
                .setObservedTimeUnixNano(time())
                .setSeverityNumberValue(random.nextInt(5) == 0 ? random.nextInt(600) - 100 : random.nextInt(25))
                .setSeverityText(random.nextBoolean() ? string() : "INFO")
                .addAllAttributes(attributes(6))
                .setDroppedAttributesCount(random.nextInt(2))
                .setFlags(random.nextInt(3) == 0 ? random.nextInt() : random.nextInt(2))
                .setTraceId(id(16)).setSpanId(id(8))
                .setEventName(random.nextInt(3) == 0 ? string() : "");
        if (random.nextInt(6) > 0) {
            l.setBody(value(0));
        }
        return l.build();
    }

    Span span() {
        Span.Builder s = Span.newBuilder()
                .setTraceId(id(16)).setSpanId(id(8)).setParentSpanId(id(8))
                .setTraceState(random.nextBoolean() ? "" : "rojo=00f067aa0ba902b7")
                .setName(string())
                .setKindValue(random.nextInt(8) - 1)
                .setStartTimeUnixNano(time()).setEndTimeUnixNano(time())
                .addAllAttributes(attributes(8))
                .setDroppedAttributesCount(random.nextInt(2))
                .setFlags(random.nextInt(0x300));
        for (int e = random.nextInt(3); e > 0; e--) {
            s.addEvents(Span.Event.newBuilder().setTimeUnixNano(time()).setName(string()).addAllAttributes(attributes(3)));
        }
        for (int l = random.nextInt(3); l > 0; l--) {
            s.addLinks(Span.Link.newBuilder().setTraceId(id(16)).setSpanId(id(8)).setTraceState(string())
                    .addAllAttributes(attributes(2)).setFlags(random.nextInt(3)));
        }
        if (random.nextInt(3) > 0) {
            s.setStatus(Status.newBuilder().setMessage(string()).setCodeValue(random.nextInt(5) - 1));
        }
        return s.build();
    }

    // ---- encoding

    /** The message encoded as protobuf-java encodes it, then the marked strings made invalid UTF-8. */
    public byte[] encode(Message m) {
        return invalidate(m.toByteArray());
    }

    /** The message encoded in one of the many ways that protobuf-java reads as the same message. */
    public byte[] scramble(Message m) {
        try {
            ByteArrayOutputStream bos = new ByteArrayOutputStream();
            CodedOutputStream out = CodedOutputStream.newInstance(bos);
            writeScrambled(m, out);
            out.flush();
            return invalidate(bos.toByteArray());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private void writeScrambled(Message m, CodedOutputStream out) throws IOException {
        List<Runnable> parts = new ArrayList<>();
        List<IOException> failures = new ArrayList<>();
        for (Map.Entry<FieldDescriptor, Object> e : m.getAllFields().entrySet()) {
            FieldDescriptor f = e.getKey();
            if (f.isRepeated()) {
                for (Object v : (List<?>) e.getValue()) {
                    parts.add(() -> write(f, v, out, failures));
                }
            } else {
                Object decoy = random.nextInt(4) == 0 && f.getType() != FieldDescriptor.Type.MESSAGE ? decoy(f) : null;
                parts.add(() -> {
                    if (decoy != null) {
                        // a decoy first: of a singular field the last occurrence counts
                        write(f, decoy, out, failures);
                    }
                    write(f, e.getValue(), out, failures);
                });
            }
        }
        // the profiles messages refuse fields of other versions (ProfilesVersion): seldom there
        boolean strict = m.getDescriptorForType().getFullName().contains(".profiles.");
        for (int u = strict && random.nextInt(20) > 0 ? 0 : random.nextInt(3); u > 0; u--) {
            parts.add(() -> unknown(out, failures));
        }
        // fields of any order, but repeated fields keep theirs (and decoys stay before their value)
        List<Runnable> ordered = interleave(parts);
        for (Runnable p : ordered) {
            p.run();
        }
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
    }

    /** A random order of the parts that keeps the parts of each field in their order. */
    private List<Runnable> interleave(List<Runnable> parts) {
        // simple: shuffle blocks of consecutive parts, each block in order
        List<List<Runnable>> blocks = new ArrayList<>();
        for (Runnable p : parts) {
            if (blocks.isEmpty() || random.nextInt(3) == 0) {
                blocks.add(new ArrayList<>());
            }
            blocks.get(blocks.size() - 1).add(p);
        }
        if (random.nextBoolean()) {
            // fields in the encoder's order usually; reversed blocks sometimes (never within a field)
            Collections.reverse(blocks);
        }
        List<Runnable> out = new ArrayList<>();
        blocks.forEach(out::addAll);
        return out;
    }

    private void write(FieldDescriptor f, Object v, CodedOutputStream out, List<IOException> failures) {
        try {
            if (f.getType() == FieldDescriptor.Type.MESSAGE) {
                Message sub = (Message) v;
                if (!f.isRepeated() && random.nextInt(3) == 0) {
                    // split in two occurrences that merge back into it: each field in one of them,
                    // a repeated field's elements partly in the first, the rest in the second
                    Message.Builder first = sub.newBuilderForType();
                    Message.Builder second = sub.newBuilderForType();
                    for (Map.Entry<FieldDescriptor, Object> e : sub.getAllFields().entrySet()) {
                        FieldDescriptor g = e.getKey();
                        if (g.isRepeated()) {
                            List<?> vs = (List<?>) e.getValue();
                            int cut = random.nextInt(vs.size() + 1);
                            for (int i = 0; i < vs.size(); i++) {
                                (i < cut ? first : second).addRepeatedField(g, vs.get(i));
                            }
                        } else {
                            (random.nextBoolean() ? first : second).setField(g, e.getValue());
                        }
                    }
                    out.writeByteArray(f.getNumber(), scrambledBytes(first.build()));
                    out.writeByteArray(f.getNumber(), scrambledBytes(second.build()));
                } else {
                    out.writeByteArray(f.getNumber(), scrambledBytes(sub));
                }
            } else {
                writeScalar(f, v, out);
            }
        } catch (IOException e) {
            failures.add(e);
        }
    }

    private byte[] scrambledBytes(Message m) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        CodedOutputStream o = CodedOutputStream.newInstance(bos);
        writeScrambled(m, o);
        o.flush();
        return bos.toByteArray();
    }

    private static void writeScalar(FieldDescriptor f, Object v, CodedOutputStream out) throws IOException {
        int n = f.getNumber();
        switch (f.getType()) {
            case STRING:
                out.writeString(n, (String) v);
                break;
            case BYTES:
                out.writeBytes(n, (ByteString) v);
                break;
            case FIXED64:
                out.writeFixed64(n, (Long) v);
                break;
            case FIXED32:
                out.writeFixed32(n, (Integer) v);
                break;
            case UINT32:
                out.writeUInt32(n, (Integer) v);
                break;
            case INT64:
                out.writeInt64(n, (Long) v);
                break;
            case BOOL:
                out.writeBool(n, (Boolean) v);
                break;
            case DOUBLE:
                out.writeDouble(n, (Double) v);
                break;
            case ENUM:
                out.writeEnum(n, ((com.google.protobuf.Descriptors.EnumValueDescriptor) v).getNumber());
                break;
            case INT32:
                out.writeInt32(n, (Integer) v);
                break;
            case SINT32:
                out.writeSInt32(n, (Integer) v);
                break;
            case UINT64:
                out.writeUInt64(n, (Long) v);
                break;
            case SFIXED64:
                out.writeSFixed64(n, (Long) v);
                break;
            default:
                throw new IllegalStateException("no scrambling for " + f.getType());
        }
    }

    private Object decoy(FieldDescriptor f) {
        switch (f.getType()) {
            case STRING:
                return "decoy";
            case BYTES:
                return ByteString.copyFrom(new byte[] {9, 9, 9});
            case FIXED64:
            case INT64:
            case UINT64:
            case SFIXED64:
                return 77L;
            case FIXED32:
            case UINT32:
            case INT32:
            case SINT32:
                return 77;
            case BOOL:
                return Boolean.TRUE;
            case DOUBLE:
                return 7.5;
            default:
                return null; // enums: left alone
        }
    }

    /** A field no OTLP message has, of a random wire type. */
    private void unknown(CodedOutputStream out, List<IOException> failures) {
        int n = 1000 + random.nextInt(1000);
        try {
            switch (random.nextInt(5)) {
                case 0:
                    out.writeUInt64(n, random.nextLong());
                    break;
                case 1:
                    out.writeFixed64(n, random.nextLong());
                    break;
                case 2:
                    out.writeFixed32(n, random.nextInt());
                    break;
                case 3:
                    out.writeByteArray(n, "unknown bytes \u00ff".getBytes(StandardCharsets.UTF_8));
                    break;
                default:
                    out.writeTag(n, 3); // a group, with a field inside
                    out.writeUInt64(n + 1, 5);
                    out.writeTag(n, 4);
            }
        } catch (IOException e) {
            failures.add(e);
        }
    }

    /** Replaces every marked string's bytes with invalid UTF-8 of the same length. */
    static byte[] invalidate(byte[] b) {
        byte[] marker = BAD_UTF8.getBytes(StandardCharsets.UTF_8);
        byte[][] bad = {
            {(byte) 0xC3, 0x28, 'B', 'A', 'D'}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80, 'A', 'D'},
            {(byte) 0xC0, (byte) 0xAF, 'B', 'A', 'D'}, {(byte) 0xF8, 'x', 'B', 'A', 'D'}, {'o', 'k', 0x01, (byte) 0x80, (byte) 0xFF}
        };
        int k = 0;
        for (int i = 0; i + marker.length <= b.length; i++) {
            if (java.util.Arrays.equals(b, i, i + marker.length, marker, 0, marker.length)) {
                System.arraycopy(bad[k++ % bad.length], 0, b, i, marker.length);
            }
        }
        return b;
    }
}
