package io.tributary.testing.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HexFormat;

/** Holds a wire path to its oracle, record by record: the same bytes, or a failure on both sides. */
public final class Differential {

    /** Record bytes to the rows in RowBinary; throws where the record is refused. */
    @FunctionalInterface
    public interface Path {
        byte[] rows(byte[] record) throws Exception;
    }

    private final Path oracle;
    private final Path wire;

    public Differential(Path oracle, Path wire) {
        this.oracle = oracle;
        this.wire = wire;
    }

    /** The path's bytes, or null when the record fails there. */
    private static byte[] run(Path p, byte[] record) {
        try {
            return p.rows(record);
        } catch (Exception | StackOverflowError e) {
            return null;
        }
    }

    /** The wire path writes the oracle's bytes for {@code record}, or fails exactly where it fails. */
    public void same(byte[] record, String what) {
        byte[] expected = run(oracle, record);
        byte[] actual = run(wire, record);
        if (expected == null || actual == null) {
            assertThat(actual == null).as("%s: fails in the wire path exactly when it fails in the oracle (oracle %s)",
                    what, expected == null ? "fails" : "writes " + expected.length + " bytes").isEqualTo(expected == null);
            return;
        }
        if (!Arrays.equals(expected, actual)) {
            int at = Arrays.mismatch(expected, actual);
            assertThat(HexFormat.of().formatHex(actual, Math.max(0, at - 32), Math.min(actual.length, at + 32)))
                    .as("%s: first difference at byte %d of %d", what, at, expected.length)
                    .isEqualTo(HexFormat.of().formatHex(expected, Math.max(0, at - 32), Math.min(expected.length, at + 32)));
        }
    }

    /** The oracle's bytes for a record it must accept. */
    byte[] oracleRows(byte[] record) throws Exception {
        return oracle.rows(record);
    }
}
