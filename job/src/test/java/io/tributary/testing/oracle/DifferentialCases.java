package io.tributary.testing.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Message;
import io.tributary.schema.SchemaFlavor;
import io.tributary.testing.oracle.Differential;
import io.tributary.tools.loadgen.LoadShape;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The cases every signal's wire path meets against its oracle: generated requests encoded as
 * protobuf-java encodes them and scrambled, loadgen records, and the same records cut and with
 * bits flipped. A signal's test adds its own odd cases.
 */
public abstract class DifferentialCases {

    /** The oracle and the wire path of the signal's table in {@code flavor}. */
    protected abstract Differential paths(SchemaFlavor flavor);

    /** A generated request of the signal. */
    protected abstract Message generate(RandomOtlp gen);

    /** A loadgen record of the signal at {@code timeNanos}. */
    protected abstract byte[] loadgen(LoadShape shape, long timeNanos);

    @ParameterizedTest
    @EnumSource(value = SchemaFlavor.class, names = "COROOT", mode = EnumSource.Mode.EXCLUDE) // the oracles are the exporter's
    void generatedRequestsEncodedEveryWayGiveTheOraclesBytes(SchemaFlavor flavor) {
        Differential d = paths(flavor);
        for (long seed = 0; seed < 1_500; seed++) {
            RandomOtlp gen = new RandomOtlp(seed);
            Message req = generate(gen);
            d.same(gen.encode(req), "seed " + seed + " as protobuf-java encodes it");
            d.same(gen.scramble(req), "seed " + seed + " scrambled");
        }
    }

    @ParameterizedTest
    @EnumSource(value = SchemaFlavor.class, names = "COROOT", mode = EnumSource.Mode.EXCLUDE) // the oracles are the exporter's
    void loadgenRecordsGiveTheOraclesBytes(SchemaFlavor flavor) throws Exception {
        Differential d = paths(flavor);
        LoadShape shape = new LoadShape(3, 100);
        for (int i = 0; i < 50; i++) {
            byte[] record = loadgen(shape, 1_764_460_800_000_000_000L + i * 1_000_000L);
            assertThat(d.oracleRows(record)).isNotEmpty();
            d.same(record, "loadgen record " + i);
        }
    }

    @Test
    void damagedRecordsFailOrReadWhereTheOracleDoes() {
        Differential d = paths(SchemaFlavor.MAP);
        SplittableRandom random = new SplittableRandom(7);
        for (long seed = 0; seed < 1_000; seed++) {
            byte[] record = new RandomOtlp(seed).encode(generate(new RandomOtlp(seed)));
            // cut anywhere: some cuts fall on a field's end and are valid records
            d.same(Arrays.copyOf(record, random.nextInt(record.length + 1)), "seed " + seed + " cut");
            byte[] flipped = record.clone();
            for (int k = 0; k < 3 && flipped.length > 0; k++) {
                flipped[random.nextInt(flipped.length)] ^= (byte) (1 << random.nextInt(8));
            }
            d.same(flipped, "seed " + seed + " bits flipped");
        }
    }
}
