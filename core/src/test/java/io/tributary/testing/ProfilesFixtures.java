package io.tributary.testing;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.tributary.otlp.profiles.ExportProfilesServiceRequest;
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

/**
 * The contrib exporter's profiles test data ({@code exporter_profiles_test.go}'s {@code
 * buildTestDictionary}, its integration test's profile and resource), for the unit tests and the
 * integration tests alike.
 */
public final class ProfilesFixtures {

    /** The profile's time. */
    public static final long TIME = 1_764_460_800_123_456_789L;
    /** The sample's timestamp. */
    public static final long SAMPLE_TIME = TIME + 5_000_000L;

    private ProfilesFixtures() {}

    /**
     * Strings {@code 0:"" 1:cpu 2:nanoseconds 3:main 4:main.go 5:foo 6:foo.go 7:bar 8:bar.go 9:libc.so
     * 10:thread.name 11:profile.tag}; functions 1 main, 2 foo, 3 bar; mapping 1 libc.so; location 1
     * foo at 0x1000, location 2 bar inlined into main at 0x2000; stack 1 = [1, 2]; link 1; attributes
     * 1 thread.name=worker-1, 2 profile.tag=prod.
     */
    public static ProfilesDictionary.Builder dictionary() {
        ProfilesDictionary.Builder d = ProfilesDictionary.newBuilder();
        for (String s : new String[] {"", "cpu", "nanoseconds", "main", "main.go", "foo", "foo.go", "bar", "bar.go",
                "libc.so", "thread.name", "profile.tag"}) {
            d.addStringTable(s);
        }
        d.addFunctionTable(Function.getDefaultInstance())
                .addFunctionTable(Function.newBuilder().setNameStrindex(3).setFilenameStrindex(4))
                .addFunctionTable(Function.newBuilder().setNameStrindex(5).setFilenameStrindex(6))
                .addFunctionTable(Function.newBuilder().setNameStrindex(7).setFilenameStrindex(8));
        d.addMappingTable(Mapping.getDefaultInstance()).addMappingTable(Mapping.newBuilder().setFilenameStrindex(9));
        d.addLocationTable(Location.getDefaultInstance())
                .addLocationTable(Location.newBuilder().setMappingIndex(1).setAddress(0x1000)
                        .addLines(Line.newBuilder().setFunctionIndex(2).setLine(42)))
                .addLocationTable(Location.newBuilder().setMappingIndex(1).setAddress(0x2000)
                        .addLines(Line.newBuilder().setFunctionIndex(3).setLine(10))
                        .addLines(Line.newBuilder().setFunctionIndex(1).setLine(99)));
        d.addStackTable(Stack.getDefaultInstance()).addStackTable(Stack.newBuilder().addLocationIndices(1).addLocationIndices(2));
        byte[] trace = new byte[16];
        for (int i = 0; i < 16; i++) {
            trace[i] = (byte) (i + 1);
        }
        d.addLinkTable(Link.getDefaultInstance()).addLinkTable(Link.newBuilder().setTraceId(ByteString.copyFrom(trace))
                .setSpanId(ByteString.copyFrom(new byte[] {1, 2, 3, 4, 5, 6, 7, 8})));
        d.addAttributeTable(KeyValueAndUnit.getDefaultInstance())
                .addAttributeTable(KeyValueAndUnit.newBuilder().setKeyStrindex(10).setValue(str("worker-1")))
                .addAttributeTable(KeyValueAndUnit.newBuilder().setKeyStrindex(11).setValue(str("prod")));
        return d;
    }

    public static AnyValue str(String s) {
        return AnyValue.newBuilder().setStringValue(s).build();
    }

    public static KeyValue kv(String k, String v) {
        return KeyValue.newBuilder().setKey(k).setValue(str(v)).build();
    }

    /** The test's profile, without samples: cpu/nanoseconds, period 10 ms, 60 s, id 42 00.., attribute 2. */
    public static Profile.Builder profile() {
        byte[] id = new byte[16];
        id[0] = 0x42;
        return Profile.newBuilder().setSampleType(ValueType.newBuilder().setTypeStrindex(1).setUnitStrindex(2))
                .setPeriodType(ValueType.newBuilder().setTypeStrindex(1).setUnitStrindex(2)).setPeriod(10_000_000)
                .setDurationNano(60_000_000_000L).setTimeUnixNano(TIME).setProfileId(ByteString.copyFrom(id))
                .addAttributeIndices(2);
    }

    /** The test's sample: stack 1, link 1, attribute 1, 1.5 ms of CPU, one timestamp. */
    public static Sample.Builder sample() {
        return Sample.newBuilder().setStackIndex(1).setLinkIndex(1).addAttributeIndices(1).addValues(1_500_000)
                .addTimestampsUnixNano(SAMPLE_TIME);
    }

    /** The profiles in one scope of resource test-service (k8s.pod.name pod-1, k8s.namespace.name prod). */
    public static ExportProfilesServiceRequest request(ProfilesDictionary.Builder dict, Profile.Builder... profiles) {
        ScopeProfiles.Builder scope = ScopeProfiles.newBuilder().setScope(
                InstrumentationScope.newBuilder().setName("io.opentelemetry.contrib.clickhouse").setVersion("1.0.0"));
        for (Profile.Builder p : profiles) {
            scope.addProfiles(p);
        }
        return ExportProfilesServiceRequest.newBuilder().setDictionary(dict)
                .addResourceProfiles(ResourceProfiles.newBuilder()
                        .setResource(Resource.newBuilder().addAttributes(kv("service.name", "test-service"))
                                .addAttributes(kv("k8s.pod.name", "pod-1")).addAttributes(kv("k8s.namespace.name", "prod")))
                        .addScopeProfiles(scope))
                .build();
    }
}
