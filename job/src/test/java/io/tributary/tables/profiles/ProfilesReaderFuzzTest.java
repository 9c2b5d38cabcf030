package io.tributary.tables.profiles;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.OtlpDecoder;
import io.tributary.otlp.profiles.ExportProfilesServiceRequest;
import io.tributary.schema.SchemaFlavor;
import io.tributary.tables.OtelTable;
import io.tributary.tables.RecordRows;
import io.tributary.tables.TableLayouts;
import io.tributary.testing.Fuzzing;
import io.tributary.testing.oracle.Differential;
import io.tributary.testing.oracle.Documented;
import io.tributary.testing.oracle.OracleProfiles;

/**
 * Coverage-guided fuzzing of {@link ProfilesReader} against its oracle (protobuf-java parsing, then
 * {@link OracleProfiles}): for any bytes, the wire path writes exactly the oracle's rows, or fails
 * exactly where the oracle fails (protobuf-java refuses the bytes, the record is of another proto
 * version, an index or id is invalid), and then only with the exceptions it documents.
 */
class ProfilesReaderFuzzTest {

    private static final OtlpDecoder<ExportProfilesServiceRequest> PROTOBUF =
            new OtlpDecoder<>(Encoding.OTLP_PROTO, ExportProfilesServiceRequest.getDefaultInstance());
    private static final Differential PATHS = paths();

    @FuzzTest(maxDuration = Fuzzing.LONG)
    void writesTheOraclesRowsOrFailsWhereItFails(byte[] record) {
        PATHS.same(record, "fuzzed record");
    }

    private static Differential paths() {
        OracleProfiles oracle = new OracleProfiles();
        TableLayouts layouts = TableLayouts.canonical(SchemaFlavor.MAP);
        ProfilesReader wire = new ProfilesReader(layouts.profiles());
        RecordRows rows = new RecordRows(layouts);
        return new Differential(record -> oracle.rows(record, PROTOBUF.decode(record)), Documented.refusalsOnly(record -> {
            try {
                wire.transcode(record, rows);
                return rows.writer(OtelTable.PROFILES).toByteArray();
            } finally {
                rows.clear();
            }
        }));
    }
}
