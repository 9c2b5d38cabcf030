package io.tributary.tables.profiles;

import com.google.protobuf.Message;
import io.tributary.otlp.profiles.ExportProfilesServiceRequest;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.OtlpDecoder;
import io.tributary.schema.SchemaFlavor;
import io.tributary.tables.OtelTable;
import io.tributary.tables.RecordRows;
import io.tributary.tables.TableLayouts;
import io.tributary.testing.oracle.Differential;
import io.tributary.testing.oracle.DifferentialCases;
import io.tributary.testing.oracle.OracleProfiles;
import io.tributary.testing.oracle.RandomOtlp;
import io.tributary.tools.loadgen.LoadShape;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The profiles wire path against its oracle: for generated requests with every dictionary feature
 * (inline frames, locations without lines, indexes at 0, negative and past their tables, links,
 * attributes of every value type, invalid UTF-8, several resources, scopes and profiles), scrambled
 * encodings (fields out of order, repeated scalars unpacked, messages split in occurrences that
 * merge), loadgen records, and damaged records, {@link ProfilesReader} writes exactly the bytes
 * {@link OracleProfiles} writes over protobuf-java messages, or fails where it fails.
 */
class ProfilesReaderDifferentialTest extends DifferentialCases {

    private static final OtlpDecoder<ExportProfilesServiceRequest> PROTOBUF =
            new OtlpDecoder<>(Encoding.OTLP_PROTO, ExportProfilesServiceRequest.getDefaultInstance());

    @Override
    protected Differential paths(SchemaFlavor flavor) {
        OracleProfiles oracle = new OracleProfiles();
        TableLayouts layouts = TableLayouts.canonical(flavor);
        ProfilesReader wire = new ProfilesReader(layouts.profiles());
        RecordRows rows = new RecordRows(layouts);
        return new Differential(record -> oracle.rows(record, PROTOBUF.decode(record)), record -> {
            try {
                wire.transcode(record, rows);
                return rows.writer(OtelTable.PROFILES).toByteArray();
            } finally {
                rows.clear();
            }
        });
    }

    /** The generated cases read mostly, so the comparisons above are of rows, not of two refusals. */
    @Test
    void mostGeneratedRequestsAreReadAndSomeRefused() {
        OracleProfiles oracle = new OracleProfiles();
        int read = 0;
        int rows = 0;
        for (long seed = 0; seed < 500; seed++) {
            RandomOtlp gen = new RandomOtlp(seed);
            byte[] record = gen.encode(gen.profiles());
            try {
                rows += oracle.rows(record, PROTOBUF.decode(record)).length > 0 ? 1 : 0;
                read++;
            } catch (Exception e) {
                // refused: an attribute index past its table, an id of a wrong size
            }
        }
        assertThat(read).isBetween(300, 499);
        assertThat(rows).isGreaterThan(200);
    }

    @Override
    protected Message generate(RandomOtlp gen) {
        return gen.profiles();
    }

    @Override
    protected byte[] loadgen(LoadShape shape, long timeNanos) {
        return shape.nextProfiles(timeNanos).toByteArray();
    }
}
