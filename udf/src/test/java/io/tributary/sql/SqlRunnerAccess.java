package io.tributary.sql;

import org.apache.flink.api.common.JobID;

import java.util.List;

/** Lets the integration tests of other packages run a script as {@code bin/tributary sql} does, on their MiniCluster. */
public final class SqlRunnerAccess {

    private SqlRunnerAccess() {}

    public static List<JobID> run(String[] argv) throws Exception {
        return SqlRunner.run(argv);
    }
}
