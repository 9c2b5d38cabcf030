package io.tributary.udf;

import com.google.protobuf.ByteString;
import io.tributary.otlp.profiles.ExportProfilesServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.tributary.otlp.profiles.Function;
import io.tributary.otlp.profiles.KeyValueAndUnit;
import io.tributary.otlp.profiles.Line;
import io.tributary.otlp.profiles.Link;
import io.tributary.otlp.profiles.Location;
import io.tributary.otlp.profiles.Mapping;
import io.tributary.otlp.profiles.Profile;
import io.tributary.otlp.profiles.ProfilesDictionary;
import io.tributary.otlp.profiles.ResourceProfiles;
import io.tributary.otlp.profiles.Sample;
import io.tributary.otlp.profiles.ScopeProfiles;
import io.tributary.otlp.profiles.Stack;
import io.tributary.otlp.profiles.ValueType;
import io.opentelemetry.proto.resource.v1.Resource;

import java.util.ArrayList;
import java.util.List;

/**
 * An OTLP profiles request (opentelemetry-proto 1.11.0-alpha, {@code v1development}) as an
 * eBPF profiler sends one, built with protobuf-java: one resource ({@code service.name}, {@code
 * host.name}), one scope, one CPU profile ({@code cpu}/{@code nanoseconds}, 20 Hz) of two samples
 * over one dictionary. Every table starts with its zero entry, as the spec asks:
 *
 * <pre>
 * functions  1 main (main.go)   2 handle (server.go)   3 parseQuery (query.go)
 * mappings   1 /usr/bin/checkout
 * locations  1 0x401234 in mapping 1: main:10
 *            2 0x402468 in mapping 1: parseQuery:7 inlined into handle:42 (two lines)
 *            3 0xffffffff81001234, mapping 0, no lines (a kernel frame: 2^63 or more)
 * stacks     1 [2, 1]      2 [3, 2, 1]      (leaf first)
 * links      1 TRACE_ID / SPAN_ID
 * attributes 1 thread.name=worker-1  2 cpu.id=3 (int)  3 profiler.name=ebpf
 *            4 sampling.ratio=0.25 (double)  5 thread.name=worker-2
 * profile    attributes [3]
 * sample 1   stack 1, attributes [1, 2], link 1, three timestamps, a value (VALUE, one period) each
 * sample 2   stack 2, attributes [5, 4], link 0 (none), one timestamp and its value
 * </pre>
 *
 * {@link #request(int, long)} varies the service, the profile id, the values and the times, so
 * records of a topic differ.
 */
public final class ProfilesRequests {

    public static final long TIME = 1_764_460_800_123_456_789L;
    public static final long DURATION = 5_000_000_000L;
    public static final long PERIOD = 50_000_000L;
    /** One period's CPU time, each sample's value per timestamp. */
    public static final long VALUE = PERIOD;
    public static final long MAIN_ADDRESS = 0x401234L;
    public static final long HANDLE_ADDRESS = 0x402468L;
    public static final long KERNEL_ADDRESS = 0xffffffff81001234L;
    public static final String PROFILE_ID_HEX = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";
    public static final String TRACE_ID_HEX = "4bf92f3577b34da6a3ce929d0e0e4736";
    public static final String SPAN_ID_HEX = "00f067aa0ba902b7";

    private ProfilesRequests() {}

    /** The request described above, service {@code checkout}, at {@link #TIME}. */
    public static ExportProfilesServiceRequest request() {
        return request(0, TIME);
    }

    /**
     * The request described above, {@code variant} 0 as documented; another variant has service
     * {@code checkout-<variant>}, the profile id's last byte XOR {@code variant}, each sample's first
     * value and the first sample's last timestamp plus {@code variant}.
     */
    public static ExportProfilesServiceRequest request(int variant, long time) {
        Strings s = new Strings();
        ProfilesDictionary.Builder d = ProfilesDictionary.newBuilder();
        d.addMappingTable(Mapping.getDefaultInstance());
        d.addMappingTable(Mapping.newBuilder().setMemoryStart(0x400000).setMemoryLimit(0x800000)
                .setFilenameStrindex(s.index("/usr/bin/checkout")));
        d.addFunctionTable(Function.getDefaultInstance());
        d.addFunctionTable(function(s, "main", "main.go"));
        d.addFunctionTable(function(s, "handle", "server.go"));
        d.addFunctionTable(function(s, "parseQuery", "query.go"));
        d.addLocationTable(Location.getDefaultInstance());
        d.addLocationTable(Location.newBuilder().setMappingIndex(1).setAddress(MAIN_ADDRESS)
                .addLines(Line.newBuilder().setFunctionIndex(1).setLine(10)));
        d.addLocationTable(Location.newBuilder().setMappingIndex(1).setAddress(HANDLE_ADDRESS)
                .addLines(Line.newBuilder().setFunctionIndex(3).setLine(7))
                .addLines(Line.newBuilder().setFunctionIndex(2).setLine(42)));
        d.addLocationTable(Location.newBuilder().setAddress(KERNEL_ADDRESS));
        d.addStackTable(Stack.getDefaultInstance());
        d.addStackTable(Stack.newBuilder().addLocationIndices(2).addLocationIndices(1));
        d.addStackTable(Stack.newBuilder().addLocationIndices(3).addLocationIndices(2).addLocationIndices(1));
        d.addLinkTable(Link.getDefaultInstance());
        d.addLinkTable(Link.newBuilder().setTraceId(hex(TRACE_ID_HEX)).setSpanId(hex(SPAN_ID_HEX)));
        d.addAttributeTable(KeyValueAndUnit.getDefaultInstance());
        d.addAttributeTable(attribute(s, "thread.name", AnyValue.newBuilder().setStringValue("worker-1")));
        d.addAttributeTable(attribute(s, "cpu.id", AnyValue.newBuilder().setIntValue(3)));
        d.addAttributeTable(attribute(s, "profiler.name", AnyValue.newBuilder().setStringValue("ebpf")));
        d.addAttributeTable(attribute(s, "sampling.ratio", AnyValue.newBuilder().setDoubleValue(0.25)));
        d.addAttributeTable(attribute(s, "thread.name", AnyValue.newBuilder().setStringValue("worker-2")));
        ValueType cpu = ValueType.newBuilder().setTypeStrindex(s.index("cpu")).setUnitStrindex(s.index("nanoseconds")).build();
        byte[] profileId = hex(PROFILE_ID_HEX).toByteArray();
        profileId[15] ^= (byte) variant;
        Profile profile = Profile.newBuilder()
                .setSampleType(cpu)
                .setTimeUnixNano(time)
                .setDurationNano(DURATION)
                .setPeriodType(cpu)
                .setPeriod(PERIOD)
                .setProfileId(ByteString.copyFrom(profileId))
                .addAttributeIndices(3)
                .addSamples(Sample.newBuilder().setStackIndex(1).addAttributeIndices(1).addAttributeIndices(2)
                        .setLinkIndex(1).addValues(VALUE + variant).addValues(VALUE).addValues(VALUE)
                        .addTimestampsUnixNano(time + 1_000_000).addTimestampsUnixNano(time + 2_000_000)
                        .addTimestampsUnixNano(time + 3_000_000 + variant))
                .addSamples(Sample.newBuilder().setStackIndex(2).addAttributeIndices(5).addAttributeIndices(4)
                        .addValues(VALUE + variant).addTimestampsUnixNano(time + 4_000_000))
                .build();
        d.addAllStringTable(s.table);
        return ExportProfilesServiceRequest.newBuilder()
                .addResourceProfiles(ResourceProfiles.newBuilder()
                        .setResource(Resource.newBuilder()
                                .addAttributes(kv("service.name", variant == 0 ? "checkout" : "checkout-" + variant))
                                .addAttributes(kv("host.name", "node-1")))
                        .addScopeProfiles(ScopeProfiles.newBuilder()
                                .setScope(InstrumentationScope.newBuilder().setName("otel-ebpf-profiler").setVersion("v0.0.202547"))
                                .addProfiles(profile)))
                .setDictionary(d)
                .build();
    }

    /** The string table being built: "" first, each string once. */
    private static final class Strings {
        final List<String> table = new ArrayList<>(List.of(""));

        int index(String v) {
            int i = table.indexOf(v);
            if (i < 0) {
                table.add(v);
                i = table.size() - 1;
            }
            return i;
        }
    }

    private static Function function(Strings s, String name, String file) {
        return Function.newBuilder().setNameStrindex(s.index(name)).setFilenameStrindex(s.index(file)).build();
    }

    private static KeyValueAndUnit attribute(Strings s, String key, AnyValue.Builder value) {
        return KeyValueAndUnit.newBuilder().setKeyStrindex(s.index(key)).setValue(value).build();
    }

    private static KeyValue kv(String key, String value) {
        return KeyValue.newBuilder().setKey(key).setValue(AnyValue.newBuilder().setStringValue(value)).build();
    }

    private static ByteString hex(String h) {
        byte[] b = new byte[h.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
        }
        return ByteString.copyFrom(b);
    }
}
