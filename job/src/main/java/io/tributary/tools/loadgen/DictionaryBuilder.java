package io.tributary.tools.loadgen;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.tributary.otlp.profiles.Function;
import io.tributary.otlp.profiles.KeyValueAndUnit;
import io.tributary.otlp.profiles.Line;
import io.tributary.otlp.profiles.Link;
import io.tributary.otlp.profiles.Location;
import io.tributary.otlp.profiles.Mapping;
import io.tributary.otlp.profiles.ProfilesDictionary;
import io.tributary.otlp.profiles.Stack;
import io.tributary.tools.loadgen.ProfiledCode.Call;
import io.tributary.tools.loadgen.ProfiledCode.Code;
import io.tributary.tools.loadgen.ProfiledCode.Fn;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * One request's {@code ProfilesDictionary} as {@link LoadShape#nextProfiles} fills it: every table
 * starts with its zero entry (index 0: the empty string, no mapping, no location, no function, no
 * link, no attribute, the empty stack), and each entry is added once and then referred to by its
 * index, as profilers dedupe them.
 */
final class DictionaryBuilder {

    /** Most lines (one function each, inline frames) a location holds. */
    static final int MAX_LINES = 3;

    private static final long KERNEL_TEXT = 0xffff_ffff_8100_0000L;

    private final Table<String> strings = new Table<>("");
    private final Table<Mapping> mappings = new Table<>(Mapping.getDefaultInstance());
    private final Table<Location> locations = new Table<>(Location.getDefaultInstance());
    private final Table<Function> functions = new Table<>(Function.getDefaultInstance());
    private final Table<Link> links = new Table<>(Link.getDefaultInstance());
    private final Table<KeyValueAndUnit> attributes = new Table<>(KeyValueAndUnit.getDefaultInstance());
    private final Table<Stack> stacks = new Table<>(Stack.getDefaultInstance());
    private final Map<Fn, Integer> functionOf = new HashMap<>();

    /** A table's entries in order, each once. */
    private static final class Table<T> {
        final List<T> entries = new ArrayList<>();
        private final Map<T, Integer> index = new HashMap<>();

        Table(T zero) {
            add(zero);
        }

        int add(T entry) {
            Integer i = index.get(entry);
            if (i == null) {
                i = entries.size();
                entries.add(entry);
                index.put(entry, i);
            }
            return i;
        }
    }

    int string(String s) {
        return strings.add(s);
    }

    int attribute(String key, String value) {
        return attribute(key, AnyValue.newBuilder().setStringValue(value).build());
    }

    int attribute(String key, long value) {
        return attribute(key, AnyValue.newBuilder().setIntValue(value).build());
    }

    private int attribute(String key, AnyValue value) {
        return attributes.add(KeyValueAndUnit.newBuilder().setKeyStrindex(string(key)).setValue(value).build());
    }

    int link(byte[] traceId, byte[] spanId) {
        return links.add(Link.newBuilder().setTraceId(ByteString.copyFrom(traceId)).setSpanId(ByteString.copyFrom(spanId)).build());
    }

    private int function(Fn fn) {
        Integer i = functionOf.get(fn);
        if (i == null) {
            i = functions.add(Function.newBuilder()
                    .setNameStrindex(string(fn.name()))
                    .setSystemNameStrindex(string(fn.systemName()))
                    .setFilenameStrindex(string(fn.file()))
                    .setStartLine(fn.startLine())
                    .build());
            functionOf.put(fn, i);
        }
        return i;
    }

    ProfilesDictionary build() {
        return ProfilesDictionary.newBuilder()
                .addAllMappingTable(mappings.entries)
                .addAllLocationTable(locations.entries)
                .addAllFunctionTable(functions.entries)
                .addAllLinkTable(links.entries)
                .addAllStringTable(strings.entries)
                .addAllAttributeTable(attributes.entries)
                .addAllStackTable(stacks.entries)
                .build();
    }

    /** The address space of a process whose samples go in this dictionary, its code loaded where {@code random} says. */
    AddressSpace addressSpace(SplittableRandom random) {
        return new AddressSpace(random);
    }

    /** One process's address space: where it loaded each mapping (its entry made when first used), its stacks. */
    final class AddressSpace {
        private final long[] start = new long[Code.values().length];
        private final int[] mapping = new int[Code.values().length];
        private final Map<StackKey, Integer> stackOf = new HashMap<>();

        /** A path by identity: the paths are {@link ProfiledCode}'s constants. */
        private record StackKey(Call[] path, int depth) {}

        private AddressSpace(SplittableRandom random) {
            for (Code c : Code.values()) {
                // a position-independent executable low, shared libraries high, page aligned
                long base = c == Code.ENVOY ? 0x5500_0000_0000L : 0x7f00_0000_0000L;
                start[c.ordinal()] = base + ((long) random.nextInt(1 << 26) << 12);
            }
        }

        /**
         * The stack of the first {@code depth} calls of {@code path} (root first): its locations,
         * leaf first, inlined calls in their caller's location.
         */
        int stack(Call[] path, int depth) {
            StackKey key = new StackKey(path, depth);
            Integer i = stackOf.get(key);
            if (i == null) {
                List<Integer> rootFirst = new ArrayList<>();
                int from = 0;
                while (from < depth) {
                    int to = from + 1;
                    while (to < depth && to - from < MAX_LINES && path[to].inlined()) {
                        to++;
                    }
                    rootFirst.add(location(path, from, to, to < depth ? path[to].fn() : null));
                    from = to;
                }
                Stack.Builder s = Stack.newBuilder();
                for (int l = rootFirst.size() - 1; l >= 0; l--) {
                    s.addLocationIndices(rootFirst.get(l));
                }
                i = stacks.add(s.build());
                stackOf.put(key, i);
            }
            return i;
        }

        /**
         * The location of calls {@code [from, to)} of {@code path}: one function and those inlined
         * into it, its lines innermost first; at the call to {@code callee} (null: the leaf).
         */
        private int location(Call[] path, int from, int to, Fn callee) {
            Fn fn = path[to - 1].fn();
            Code code = fn.code();
            // a return address differs with the call site; a leaf's instruction is somewhere in its function
            long pc = fn.offset() + (callee == null ? 0x24 : 0x40 + ((callee.name().hashCode() & 0xff) << 2));
            Location.Builder l = Location.newBuilder();
            if (code.file != null) {
                l.setMappingIndex(mapping(code)).setAddress(start[code.ordinal()] + pc);
            } else if (code == Code.KERNEL) {
                l.setAddress(KERNEL_TEXT + pc);
            }
            for (int c = to - 1; c >= from; c--) {
                l.addLines(Line.newBuilder().setFunctionIndex(function(path[c].fn())).setLine(path[c].line()));
            }
            l.addAttributeIndices(attribute("profile.frame.type", code.frameType));
            return locations.add(l.build());
        }

        private int mapping(Code code) {
            int c = code.ordinal();
            if (mapping[c] == 0) {
                mapping[c] = mappings.add(Mapping.newBuilder()
                        .setMemoryStart(start[c])
                        .setMemoryLimit(start[c] + code.size)
                        .setFileOffset(code.fileOffset)
                        .setFilenameStrindex(string(code.file))
                        .addAttributeIndices(attribute("process.executable.build_id.gnu", buildId(code.file)))
                        .build());
            }
            return mapping[c];
        }
    }

    /** A GNU build id (20 bytes in hex) that stays the file's from run to run. */
    private static String buildId(String file) {
        byte[] name = file.getBytes(StandardCharsets.UTF_8);
        return UUID.nameUUIDFromBytes(name).toString().replace("-", "") + HexFormat.of().toHexDigits(file.hashCode());
    }
}
