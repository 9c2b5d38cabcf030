package io.tributary.tables;

import io.tributary.otlp.InvalidProtobufException;
import io.tributary.otlp.proto.ProtoReader;
import io.tributary.tables.WireValues.IntList;

/**
 * What the envelopes of every OTLP signal share, read where it lies: the {@code Resource} and the
 * {@code InstrumentationScope} of a {@code Resource*} / {@code Scope*} message. A message field
 * that occurs more than once merges (protobuf-java's rule): attributes concatenate, the last name
 * and version win.
 */
public final class WireEnvelope {

    /** A scope's name and version, as ranges of the record, and its dropped attributes count. */
    public static final class Scope {
        public int nameStart;
        public int nameLength;
        public int versionStart;
        public int versionLength;
        public int droppedAttributesCount;
    }

    private WireEnvelope() {}

    /**
     * Reads the occurrences of a {@code Resource} field (ranges of messages below {@code parent}):
     * its attributes into {@code attributes}, its entity refs checked as protobuf-java parses them.
     */
    public static void resource(ProtoReader parent, IntList occurrences, WireAttributes attributes) throws InvalidProtobufException {
        attributes.reset(parent.child(0, 0));
        for (int i = 0; i < occurrences.size(); i += 2) {
            ProtoReader r = parent.child(occurrences.get(i), occurrences.get(i + 1));
            while (r.next()) {
                if (r.is(1, ProtoReader.LEN)) {
                    r.readBytes();
                    attributes.add(r.start(), r.length());
                } else if (r.is(3, ProtoReader.LEN)) {
                    r.readBytes();
                    skimFlat(r.child()); // EntityRef: strings only
                } else {
                    r.skip();
                }
            }
        }
    }

    /**
     * Reads the occurrences of an {@code InstrumentationScope} field into {@code scope}; its
     * attributes, always checked, into {@code attributes} when the signal writes them (else null).
     */
    public static void scope(ProtoReader parent, IntList occurrences, Scope scope, WireAttributes attributes)
            throws InvalidProtobufException {
        scope.nameStart = scope.nameLength = 0;
        scope.versionStart = scope.versionLength = 0;
        scope.droppedAttributesCount = 0;
        if (attributes != null) {
            attributes.reset(parent.child(0, 0));
        }
        for (int i = 0; i < occurrences.size(); i += 2) {
            ProtoReader r = parent.child(occurrences.get(i), occurrences.get(i + 1));
            while (r.next()) {
                if (r.is(1, ProtoReader.LEN)) {
                    r.readBytes();
                    scope.nameStart = r.start();
                    scope.nameLength = r.length();
                } else if (r.is(2, ProtoReader.LEN)) {
                    r.readBytes();
                    scope.versionStart = r.start();
                    scope.versionLength = r.length();
                } else if (r.is(3, ProtoReader.LEN)) {
                    r.readBytes();
                    // parsed as protobuf-java parses it, whether or not a column shows it
                    WireValues.skimKeyValue(r);
                    if (attributes != null) {
                        attributes.add(r.start(), r.length());
                    }
                } else if (r.is(4, ProtoReader.VARINT)) {
                    scope.droppedAttributesCount = (int) r.readVarint(); // uint32: the low 32 bits
                } else {
                    r.skip();
                }
            }
        }
    }

    /** Walks a message of scalar and string fields only, as protobuf-java would parse it. */
    static void skimFlat(ProtoReader r) throws InvalidProtobufException {
        while (r.next()) {
            r.skip();
        }
    }
}
