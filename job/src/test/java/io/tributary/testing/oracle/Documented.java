package io.tributary.testing.oracle;

import io.tributary.testing.Fuzzing;
import io.tributary.testing.oracle.Differential;

/** A wire path held to its documented refusals: any other throwable fails the test, as a finding. */
public final class Documented {

    private Documented() {}

    public static Differential.Path refusalsOnly(Differential.Path wire) {
        return record -> {
            try {
                return wire.rows(record);
            } catch (Throwable e) {
                if (Fuzzing.documented(e)) {
                    throw (Exception) e;
                }
                throw Fuzzing.finding(e);
            }
        };
    }
}
