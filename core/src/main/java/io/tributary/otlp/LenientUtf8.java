package io.tributary.otlp;

import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads protobuf records whose string fields hold invalid UTF-8, which protobuf-java refuses but
 * the collector accepts (Go strings are bytes). The record is read with a twin schema in which
 * every string field is bytes; each such value is decoded with invalid sequences replaced by
 * U+FFFD, and the result is parsed as usual. Only records that failed the normal parse for this
 * reason take this path.
 */
public final class LenientUtf8 {

    /** The twin of each message type, by full name of the original. */
    private static final Map<String, Descriptor> TWINS = new ConcurrentHashMap<>();

    private LenientUtf8() {}

    /** True when a parse failed for invalid UTF-8 in a string field. */
    public static boolean isInvalidUtf8(InvalidProtocolBufferException e) {
        return e.getMessage() != null && e.getMessage().contains("invalid UTF-8");
    }

    @SuppressWarnings("unchecked")
    public static <M extends Message> M parse(byte[] value, M defaultInstance) throws InvalidProtocolBufferException {
        Descriptor original = defaultInstance.getDescriptorForType();
        Descriptor twin = TWINS.computeIfAbsent(original.getFullName(), n -> twinOf(original));
        DynamicMessage read = DynamicMessage.parseFrom(twin, value);
        DynamicMessage fixed = fix(read, original);
        return (M) defaultInstance.getParserForType().parseFrom(fixed.toByteArray());
    }

    /** Replaces invalid UTF-8 in the values of fields that are strings in {@code original}. */
    private static DynamicMessage fix(DynamicMessage m, Descriptor original) {
        DynamicMessage.Builder b = m.toBuilder();
        for (Map.Entry<FieldDescriptor, Object> e : m.getAllFields().entrySet()) {
            FieldDescriptor f = e.getKey();
            FieldDescriptor of = original.findFieldByNumber(f.getNumber());
            if (of == null) {
                continue;
            }
            if (of.getType() == FieldDescriptor.Type.STRING) {
                if (f.isRepeated()) {
                    List<?> vs = (List<?>) e.getValue();
                    for (int i = 0; i < vs.size(); i++) {
                        b.setRepeatedField(f, i, valid((ByteString) vs.get(i)));
                    }
                } else {
                    b.setField(f, valid((ByteString) e.getValue()));
                }
            } else if (of.getType() == FieldDescriptor.Type.MESSAGE) {
                if (f.isRepeated()) {
                    List<?> vs = (List<?>) e.getValue();
                    for (int i = 0; i < vs.size(); i++) {
                        b.setRepeatedField(f, i, fix((DynamicMessage) vs.get(i), of.getMessageType()));
                    }
                } else {
                    b.setField(f, fix((DynamicMessage) e.getValue(), of.getMessageType()));
                }
            }
        }
        return b.build();
    }

    private static ByteString valid(ByteString bytes) {
        return bytes.isValidUtf8() ? bytes : ByteString.copyFromUtf8(bytes.toString(StandardCharsets.UTF_8));
    }

    /** The message type with every string field (in it and in all files it uses) made bytes. */
    private static Descriptor twinOf(Descriptor original) {
        Map<String, FileDescriptor> built = new HashMap<>();
        return findNested(twinFile(original.getFile(), built), original.getFullName());
    }

    private static FileDescriptor twinFile(FileDescriptor f, Map<String, FileDescriptor> built) {
        FileDescriptor done = built.get(f.getName());
        if (done != null) {
            return done;
        }
        List<FileDescriptor> deps = f.getDependencies();
        FileDescriptor[] twinDeps = new FileDescriptor[deps.size()];
        for (int i = 0; i < twinDeps.length; i++) {
            twinDeps[i] = twinFile(deps.get(i), built);
        }
        FileDescriptorProto.Builder p = f.toProto().toBuilder();
        for (DescriptorProto.Builder m : p.getMessageTypeBuilderList()) {
            stringsToBytes(m);
        }
        try {
            FileDescriptor twin = FileDescriptor.buildFrom(p.build(), twinDeps);
            built.put(f.getName(), twin);
            return twin;
        } catch (DescriptorValidationException e) {
            throw new IllegalStateException("cannot build the lenient twin of " + f.getName(), e);
        }
    }

    private static void stringsToBytes(DescriptorProto.Builder m) {
        for (FieldDescriptorProto.Builder field : m.getFieldBuilderList()) {
            if (field.getType() == FieldDescriptorProto.Type.TYPE_STRING) {
                field.setType(FieldDescriptorProto.Type.TYPE_BYTES);
            }
        }
        for (DescriptorProto.Builder nested : m.getNestedTypeBuilderList()) {
            stringsToBytes(nested);
        }
    }

    private static Descriptor findNested(FileDescriptor file, String fullName) {
        for (Descriptor d : file.getMessageTypes()) {
            Descriptor found = findNested(d, fullName);
            if (found != null) {
                return found;
            }
        }
        throw new IllegalStateException("no message " + fullName + " in " + file.getName());
    }

    private static Descriptor findNested(Descriptor d, String fullName) {
        if (d.getFullName().equals(fullName)) {
            return d;
        }
        for (Descriptor n : d.getNestedTypes()) {
            Descriptor found = findNested(n, fullName);
            if (found != null) {
                return found;
            }
        }
        return null;
    }
}
