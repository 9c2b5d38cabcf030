package io.tributary.tables.profiles;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.tributary.otlp.InvalidOtlpException;
import io.tributary.otlp.profiles.ExportProfilesServiceRequest;
import io.tributary.otlp.profiles.Function;
import io.tributary.otlp.profiles.KeyValueAndUnit;
import io.tributary.otlp.profiles.Line;
import io.tributary.otlp.profiles.Location;
import io.tributary.otlp.profiles.Profile;
import io.tributary.otlp.profiles.ProfilesDictionary;
import io.tributary.otlp.profiles.Sample;
import io.tributary.otlp.profiles.Stack;
import io.tributary.rowbinary.RowBinaryReader;
import io.tributary.schema.SchemaFlavor;
import io.tributary.tables.OtelTable;
import io.tributary.tables.RecordRows;
import io.tributary.tables.TableLayouts;
import io.tributary.testing.ProfilesFixtures;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The contrib exporter's own test vectors ({@code exporter_profiles_test.go}'s {@code
 * buildTestDictionary} and its integration test's expected row), every column; and the edges its
 * {@code resolveStack}, {@code resolveLink}, {@code stringAt} and {@code FromAttributeIndices} define.
 */
class ProfilesReaderTest {

    private static final long TIME = ProfilesFixtures.TIME;
    private static final long TS = ProfilesFixtures.SAMPLE_TIME;

    private static ProfilesDictionary.Builder dictionary() {
        return ProfilesFixtures.dictionary();
    }

    private static AnyValue str(String s) {
        return ProfilesFixtures.str(s);
    }

    private static Profile.Builder profile() {
        return ProfilesFixtures.profile();
    }

    private static ExportProfilesServiceRequest request(ProfilesDictionary.Builder dict, Profile.Builder... profiles) {
        return ProfilesFixtures.request(dict, profiles);
    }

    /** One row as the columns hold it. */
    record Row(long timestamp, String profileId, String sampleType, String sampleUnit, String serviceName,
               Map<String, String> resourceAttributes, String scopeName, String scopeVersion,
               Map<String, String> profileAttributes, Map<String, String> sampleAttributes, long stackHash,
               List<Long> addresses, List<String> functionNames, List<String> fileNames, List<Integer> lineNumbers,
               List<String> mappingFileNames, List<Long> values, List<Long> timestamps, long durationNano, long period,
               String periodType, String periodUnit, String traceId, String spanId) {}

    static List<Row> rows(ExportProfilesServiceRequest req) throws Exception {
        return rows(req.toByteArray());
    }

    static List<Row> rows(byte[] record) throws Exception {
        TableLayouts layouts = TableLayouts.canonical(SchemaFlavor.MAP);
        RecordRows rows = new RecordRows(layouts);
        new ProfilesReader(layouts.profiles()).transcode(record, rows);
        byte[] b = rows.writer(OtelTable.PROFILES).toByteArray();
        RowBinaryReader in = new RowBinaryReader(b, 0, b.length);
        List<Row> out = new ArrayList<>();
        while (in.hasMore()) {
            out.add(new Row(in.readDateTime64(), in.readString(), in.readString(), in.readString(), in.readString(),
                    map(in), in.readString(), in.readString(), map(in), map(in), in.readUInt64(), longs(in),
                    strings(in), strings(in), ints(in), strings(in), longs(in), longs(in), in.readUInt64(),
                    in.readInt64(), in.readString(), in.readString(), in.readString(), in.readString()));
        }
        assertThat(out).hasSize(rows.rows(OtelTable.PROFILES));
        return out;
    }

    private static Map<String, String> map(RowBinaryReader in) {
        Map<String, String> m = new LinkedHashMap<>();
        for (long n = in.readVarUInt(); n > 0; n--) {
            m.put(in.readString(), in.readString());
        }
        return m;
    }

    private static List<Long> longs(RowBinaryReader in) {
        List<Long> l = new ArrayList<>();
        for (long n = in.readVarUInt(); n > 0; n--) {
            l.add(in.readInt64());
        }
        return l;
    }

    private static List<Integer> ints(RowBinaryReader in) {
        List<Integer> l = new ArrayList<>();
        for (long n = in.readVarUInt(); n > 0; n--) {
            l.add(in.readInt32());
        }
        return l;
    }

    private static List<String> strings(RowBinaryReader in) {
        List<String> l = new ArrayList<>();
        for (long n = in.readVarUInt(); n > 0; n--) {
            l.add(in.readString());
        }
        return l;
    }

    @Test
    void theExportersTestSampleGivesItsRowInEveryColumn() throws Exception {
        Profile.Builder p = profile().addSamples(ProfilesFixtures.sample());
        List<Row> rows = rows(request(dictionary(), p));
        assertThat(rows).containsExactly(new Row(TIME, "42000000000000000000000000000000", "cpu", "nanoseconds",
                "test-service", ordered("k8s.namespace.name", "prod", "k8s.pod.name", "pod-1", "service.name", "test-service"),
                "io.opentelemetry.contrib.clickhouse", "1.0.0", ordered("profile.tag", "prod"),
                ordered("thread.name", "worker-1"),
                0xA3BB8F435FB4D320L, // XXH64("foo\0foo.go\0bar\0bar.go\0main\0main.go\0")
                List.of(0x1000L, 0x2000L, 0x2000L), List.of("foo", "bar", "main"), List.of("foo.go", "bar.go", "main.go"),
                List.of(42, 10, 99), List.of("libc.so", "libc.so", "libc.so"), List.of(1_500_000L), List.of(TS),
                60_000_000_000L, 10_000_000L, "cpu", "nanoseconds", "0102030405060708090a0b0c0d0e0f10", "0102030405060708"));
    }

    private static Map<String, String> ordered(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void stacksAndLinksOutsideTheirTablesAreEmptyAsResolveStackAndResolveLinkGiveThem() throws Exception {
        Profile.Builder p = profile()
                .addSamples(Sample.newBuilder().setStackIndex(999).setLinkIndex(999).addValues(1)) // out of range
                .addSamples(Sample.newBuilder().setStackIndex(-1).setLinkIndex(-1).addValues(2))
                .addSamples(Sample.newBuilder().setStackIndex(0).setLinkIndex(0).addValues(3)); // the empty stack
        List<Row> rows = rows(request(dictionary(), p));
        assertThat(rows).extracting(Row::stackHash).containsExactly(0L, 0L, 0xEF46DB3751D8E999L); // XXH64("")
        for (Row r : rows) {
            assertThat(r.functionNames()).isEmpty();
            assertThat(r.addresses()).isEmpty();
            assertThat(r.traceId()).isEmpty();
            assertThat(r.spanId()).isEmpty();
        }
    }

    @Test
    void aLocationWithoutLinesIsOneFrameOfEmptyNamesAndIndexesOutsideTheirTablesReadEmpty() throws Exception {
        ProfilesDictionary.Builder d = dictionary();
        d.addLocationTable(Location.newBuilder().setMappingIndex(1).setAddress(0x3000)) // 3: no lines
                .addLocationTable(Location.newBuilder().setMappingIndex(77).setAddress(0x4000) // 4: mapping outside
                        .addLines(Line.newBuilder().setFunctionIndex(55).setLine(7)))       // function outside
                .addLocationTable(Location.newBuilder().setMappingIndex(-3).setAddress(0x5000)
                        .addLines(Line.newBuilder().setFunctionIndex(-2).setLine(1L << 33 | 5))); // int32(line)
        d.addStackTable(Stack.newBuilder().addLocationIndices(3).addLocationIndices(50).addLocationIndices(-1)
                .addLocationIndices(4).addLocationIndices(5));
        d.addFunctionTable(Function.newBuilder().setNameStrindex(500).setFilenameStrindex(-7)); // 4: strings outside
        d.addStackTable(Stack.newBuilder().addLocationIndices(6)); // outside: skipped
        d.addLocationTable(Location.newBuilder().addLines(Line.newBuilder().setFunctionIndex(4).setLine(3))); // 6
        Profile.Builder p = profile().addSamples(Sample.newBuilder().setStackIndex(2).addValues(1))
                .addSamples(Sample.newBuilder().setStackIndex(3).addValues(1));
        List<Row> rows = rows(request(d, p));
        Row r = rows.get(0);
        assertThat(r.addresses()).containsExactly(0x3000L, 0x4000L, 0x5000L);
        assertThat(r.functionNames()).containsExactly("", "", "");
        assertThat(r.fileNames()).containsExactly("", "", "");
        assertThat(r.lineNumbers()).containsExactly(0, 7, 5);
        assertThat(r.mappingFileNames()).containsExactly("libc.so", "", "");
        assertThat(r.stackHash()).isEqualTo(xxh64("\0\0\0\0\0\0"));
        Row s = rows.get(1);
        assertThat(s.functionNames()).containsExactly("");
        assertThat(s.lineNumbers()).containsExactly(3);
        assertThat(s.stackHash()).isEqualTo(xxh64("\0\0"));
    }

    private static long xxh64(String s) {
        Xxh64 h = new Xxh64();
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        h.update(b, 0, b.length);
        return h.digest();
    }

    @Test
    void xxh64MatchesThePublishedValuesWhetherFedAtOnceOrByteByByte() {
        assertThat(xxh64("")).isEqualTo(0xEF46DB3751D8E999L);
        assertThat(xxh64("a")).isEqualTo(0xD24EC4F1A98C6E5BL);
        assertThat(xxh64("abc")).isEqualTo(0x44BC2CF5AD770999L);
        assertThat(xxh64("\0\0")).isEqualTo(0x9AABA41FFA2DA101L);
        String longer = "Nobody inspects the spammish repetition, and the quick brown fox jumps over the lazy dog 0123456789";
        Xxh64 bytes = new Xxh64();
        byte[] b = longer.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < b.length; i++) {
            bytes.update(b[i]);
        }
        Xxh64 chunks = new Xxh64();
        for (int i = 0; i < b.length; i += 13) {
            chunks.update(b, i, Math.min(13, b.length - i));
        }
        assertThat(bytes.digest()).isEqualTo(xxh64(longer)).isEqualTo(chunks.digest());
    }

    @Test
    void attributesResolveThroughTheTableTheLastValueOfAKeyWinningSortedByKeyAsStrings() throws Exception {
        ProfilesDictionary.Builder d = dictionary();
        d.addStringTable("a.count"); // 12
        d.addAttributeTable(KeyValueAndUnit.newBuilder().setKeyStrindex(12).setValue(AnyValue.newBuilder().setIntValue(7))
                .setUnitStrindex(2)) // 3
                .addAttributeTable(KeyValueAndUnit.newBuilder().setKeyStrindex(10).setValue(str("worker-2"))) // 4
                .addAttributeTable(KeyValueAndUnit.newBuilder().setKeyStrindex(11)
                        .setValue(AnyValue.newBuilder().setDoubleValue(1e21))); // 5
        Profile.Builder p = profile().clearAttributeIndices().addAttributeIndices(5).addAttributeIndices(0)
                .addSamples(Sample.newBuilder().addAttributeIndices(1).addAttributeIndices(3).addAttributeIndices(4)
                        .addValues(1));
        Row r = rows(request(d, p)).get(0);
        assertThat(r.sampleAttributes()).containsExactly(Map.entry("a.count", "7"), Map.entry("thread.name", "worker-2"));
        assertThat(r.profileAttributes()).containsExactly(Map.entry("", ""), Map.entry("profile.tag", "1e+21"));
    }

    @Test
    void anAttributeOrKeyIndexOutsideItsTableRefusesTheRecordAsFromAttributeIndicesFailsTheBatch() {
        assertThatThrownBy(() -> rows(request(dictionary(), profile().addSamples(Sample.newBuilder().addAttributeIndices(3)
                .addValues(1))))).isInstanceOf(InvalidOtlpException.class).hasMessage("attribute index 3 out of bounds [0, 3)");
        ProfilesDictionary.Builder d = dictionary();
        d.addAttributeTable(KeyValueAndUnit.newBuilder().setKeyStrindex(40).setValue(str("x")));
        assertThatThrownBy(() -> rows(request(d, profile().clearAttributeIndices().addAttributeIndices(3))))
                .isInstanceOf(InvalidOtlpException.class).hasMessage("key string index 40 out of bounds [0, 12)");
    }

    @Test
    void aProfileWithoutSamplesWritesNoRowAndSeveralValuesStayInOneRow() throws Exception {
        assertThat(rows(request(dictionary(), profile()))).isEmpty();
        Row r = rows(request(dictionary(), profile().addSamples(Sample.newBuilder().setStackIndex(1).addValues(3)
                .addValues(-4).addValues(Long.MIN_VALUE).addTimestampsUnixNano(1).addTimestampsUnixNano(-1)))).get(0);
        assertThat(r.values()).containsExactly(3L, -4L, Long.MIN_VALUE);
        assertThat(r.timestamps()).containsExactly(1L, -1L);
    }

    @Test
    void aV190SampleIsRefusedNamingTheVersionNeverReadAsAWrongRow() {
        // v1.9.0: values in 2 (packed), attribute_indices in 3 (packed), link_index in 4
        byte[] v19Sample = {0x08, 0x01, 0x12, 0x02, 0x05, 0x06, 0x1A, 0x01, 0x01, 0x20, 0x01};
        assertThatThrownBy(() -> rows(withSample(v19Sample))).isInstanceOf(InvalidOtlpException.class)
                .hasMessageContaining("another proto version").hasMessageContaining("v1.9.0 Sample")
                .hasMessageContaining(ProfilesVersion.READS);
        // values only, the commonest v1.9 shape: field 2 without values (4) or timestamps (5)
        byte[] valuesOnly = {0x08, 0x01, 0x12, 0x01, 0x05};
        assertThatThrownBy(() -> rows(withSample(valuesOnly))).isInstanceOf(InvalidOtlpException.class)
                .hasMessageContaining("v1.9.0 Sample");
        // a v1.8 Profile field (attribute_indices moved to 12)
        Profile v18 = profile().build();
        byte[] p = v18.toByteArray();
        byte[] withField12 = java.util.Arrays.copyOf(p, p.length + 3);
        withField12[p.length] = 0x62; // field 12, LEN
        withField12[p.length + 1] = 0x01;
        withField12[p.length + 2] = 0x02;
        assertThatThrownBy(() -> rows(requestWithProfileBytes(withField12))).isInstanceOf(InvalidOtlpException.class)
                .hasMessageContaining("Profile field 12").hasMessageContaining("v1.8.0 or older");
    }

    private static byte[] withSample(byte[] sample) {
        byte[] p = profile().clearAttributeIndices().build().toByteArray();
        byte[] withSample = new byte[p.length + 2 + sample.length];
        System.arraycopy(p, 0, withSample, 0, p.length);
        withSample[p.length] = 0x12; // Profile.samples
        withSample[p.length + 1] = (byte) sample.length;
        System.arraycopy(sample, 0, withSample, p.length + 2, sample.length);
        return requestWithProfileBytes(withSample);
    }

    private static byte[] requestWithProfileBytes(byte[] profile) {
        try {
            Profile parsed = Profile.parseFrom(profile); // unknown fields kept: written back as they were
            return request(dictionary(), parsed.toBuilder()).toByteArray();
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aStackThatMultipliesIntoMoreFramesThanTheRecordMayHoldIsRefusedBeforeItIsResolved() {
        ProfilesDictionary.Builder d = dictionary();
        Location.Builder wide = Location.newBuilder().setMappingIndex(1);
        for (int i = 0; i < 1_000; i++) {
            wide.addLines(Line.newBuilder().setFunctionIndex(1).setLine(i));
        }
        d.addLocationTable(wide); // 3
        Stack.Builder deep = Stack.newBuilder();
        for (int i = 0; i < 100_000; i++) {
            deep.addLocationIndices(3);
        }
        d.addStackTable(deep); // 2: 10^8 frames from 300 KB
        byte[] record = request(d, profile().addSamples(Sample.newBuilder().setStackIndex(2).addValues(1))).toByteArray();
        assertThat(record.length).isLessThan(1 << 20);
        assertThatThrownBy(() -> rows(record)).isInstanceOf(io.tributary.tables.OversizedRecordException.class)
                .hasMessageContaining("decode.max-bytes-per-record");
    }

    @Test
    void manyAttributesOfRepeatedKeysResolveInKeyOrderTheLastValueWinning() throws Exception {
        ProfilesDictionary.Builder d = dictionary();
        int base = d.getStringTableCount();
        for (int k = 0; k < 3_000; k++) {
            d.addStringTable(String.format("k%05d", 2_999 - k));
        }
        int attrs = d.getAttributeTableCount();
        Sample.Builder s = Sample.newBuilder().addValues(1);
        for (int round = 0; round < 2; round++) {
            for (int k = 0; k < 3_000; k++) {
                d.addAttributeTable(KeyValueAndUnit.newBuilder().setKeyStrindex(base + k).setValue(str("r" + round)));
                s.addAttributeIndices(attrs++);
            }
        }
        Map<String, String> m = rows(request(d, profile().addSamples(s))).get(0).sampleAttributes();
        assertThat(m).hasSize(3_000);
        assertThat(new java.util.ArrayList<>(m.keySet())).isSorted();
        assertThat(m.values()).containsOnly("r1");
    }

    @Test
    void longNamesCountTowardsTheBoundAsTheyWouldInTheRow() {
        ProfilesDictionary.Builder d = dictionary();
        int big = d.getStringTableCount();
        d.addStringTable("f".repeat(1 << 20));
        int fn = d.getFunctionTableCount();
        d.addFunctionTable(Function.newBuilder().setNameStrindex(big).setFilenameStrindex(big));
        Location.Builder wide = Location.newBuilder();
        for (int i = 0; i < 1_000; i++) {
            wide.addLines(Line.newBuilder().setFunctionIndex(fn));
        }
        int loc = d.getLocationTableCount();
        d.addLocationTable(wide);
        Stack.Builder deep = Stack.newBuilder();
        for (int i = 0; i < 4_000; i++) {
            deep.addLocationIndices(loc);
        }
        int stack = d.getStackTableCount();
        d.addStackTable(deep);
        byte[] record = request(d, profile().addSamples(Sample.newBuilder().setStackIndex(stack).addValues(1))).toByteArray();
        long start = System.nanoTime();
        assertThatThrownBy(() -> rows(record)).isInstanceOf(io.tributary.tables.OversizedRecordException.class);
        // refused after some 32 frames of 2 MiB, not after hashing 4 million of them
        assertThat(java.time.Duration.ofNanos(System.nanoTime() - start)).isLessThan(java.time.Duration.ofSeconds(20));
    }

    @Test
    void oneLongKeyListedHalfAMillionTimesIsOneEntryAndInvalidUtf8ReplacedOnce() throws Exception {
        for (boolean invalid : new boolean[] {false, true}) {
            ProfilesDictionary.Builder d = dictionary();
            int key = d.getStringTableCount();
            d.addStringTable("k".repeat(400_000));
            int attr = d.getAttributeTableCount();
            d.addAttributeTable(KeyValueAndUnit.newBuilder().setKeyStrindex(key).setValue(str("v")));
            Sample.Builder s = Sample.newBuilder().addValues(1);
            for (int i = 0; i < 500_000; i++) {
                s.addAttributeIndices(attr);
            }
            byte[] record = request(d, profile().addSamples(s)).toByteArray();
            if (invalid) {
                byte[] run = "k".repeat(400_000).getBytes(StandardCharsets.US_ASCII);
                int at = indexOf(record, run);
                java.util.Arrays.fill(record, at, at + run.length, (byte) 0xFF);
            }
            Map<String, String> m = rows(record).get(0).sampleAttributes();
            assertThat(m).hasSize(1);
            assertThat(m.keySet().iterator().next()).hasSize(400_000)
                    .startsWith(invalid ? "\uFFFD" : "k");
        }
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < 64; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new IllegalStateException("not found");
    }

    @Test
    void profilesWithoutSamplesCheckTheirAttributeIndexesButRenderNothing() throws Exception {
        ProfilesDictionary.Builder d = dictionary();
        d.addAttributeTable(KeyValueAndUnit.newBuilder().setKeyStrindex(10).setValue(str("v".repeat(500_000)))); // 3
        Profile.Builder[] empty = new Profile.Builder[20_000];
        java.util.Arrays.setAll(empty, i -> Profile.newBuilder().addAttributeIndices(3));
        assertThat(rows(request(d, empty))).isEmpty();
        assertThatThrownBy(() -> rows(request(dictionary(), Profile.newBuilder().addAttributeIndices(7))))
                .isInstanceOf(InvalidOtlpException.class).hasMessage("attribute index 7 out of bounds [0, 3)");
    }
}
