package io.tributary.clickhouse;

import java.util.Set;

/**
 * Which ClickHouse errors are worth retrying: the transient ones (overload, timeouts, network,
 * memory pressure, too many parts, replica and keeper trouble). Everything else the server
 * reports — unknown table or column, type mismatch, parse errors, authentication, permissions
 * (READONLY, ACCESS_DENIED) — is permanent: resending the same bytes cannot succeed. Codes from ClickHouse's
 * src/Common/ErrorCodes.cpp.
 */
public final class ClickHouseErrors {

    private static final Set<Integer> RETRYABLE =
            Set.of(
                    3, // UNEXPECTED_END_OF_FILE (body cut off in transit)
                    32, // ATTEMPT_TO_READ_AFTER_EOF
                    33, // CANNOT_READ_ALL_DATA
                    159, // TIMEOUT_EXCEEDED
                    201, // QUOTA_EXCEEDED (the quota's interval ends)
                    202, // TOO_MANY_SIMULTANEOUS_QUERIES
                    203, // NO_FREE_CONNECTION
                    209, // SOCKET_TIMEOUT
                    210, // NETWORK_ERROR
                    225, // NO_ZOOKEEPER
                    236, // ABORTED
                    241, // MEMORY_LIMIT_EXCEEDED
                    242, // TABLE_IS_READ_ONLY
                    243, // NOT_ENOUGH_SPACE (merges and TTL free disk)
                    244, // UNEXPECTED_ZOOKEEPER_ERROR
                    252, // TOO_MANY_PARTS
                    285, // TOO_FEW_LIVE_REPLICAS
                    319, // UNKNOWN_STATUS_OF_INSERT
                    394, // QUERY_WAS_CANCELLED
                    425, // SYSTEM_ERROR
                    439, // CANNOT_SCHEDULE_TASK
                    473, // DEADLOCK_AVOIDED
                    999, // KEEPER_EXCEPTION
                    1000 // POCO_EXCEPTION
                    );

    /**
     * Errors about the values of some rows, raised before ClickHouse stores the block (the table's
     * constraints and its own column expressions), not about the table, the server or the
     * encoding: a batch refused with one of these is split to find the records it comes from, and
     * those go to the dead-letter topic while the rest is written (when a materialized view raises
     * them, the table has stored the block already: see the sink's BatchInserter). Parse errors are
     * not among them: with RowBinary they mean the rows and the table disagree (a changed column
     * type), which is about every row.
     */
    private static final Set<Integer> ABOUT_THE_ROWS =
            Set.of(
                    69, // ARGUMENT_OUT_OF_BOUND
                    321, // VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE
                    395, // FUNCTION_THROW_IF_VALUE_IS_NON_ZERO
                    469 // VIOLATED_CONSTRAINT
                    );

    /**
     * Errors that say the data's columns and the table's disagree: with the header that names
     * every column and its type, a changed or dropped column comes out as one of these.
     */
    private static final Set<Integer> ABOUT_THE_COLUMNS =
            Set.of(
                    16, // NO_SUCH_COLUMN_IN_TABLE
                    47, // UNKNOWN_IDENTIFIER
                    53, // TYPE_MISMATCH
                    117 // INCORRECT_DATA ("Type of 'x' must be ...", "Unknown field found in format header")
                    );

    /**
     * Errors of one server, not of the cluster: its replica is read-only or has lost Keeper, its
     * network failed. With several endpoints the request goes to the next one at once.
     */
    private static final Set<Integer> OF_THE_SERVER =
            Set.of(
                    209, // SOCKET_TIMEOUT
                    210, // NETWORK_ERROR
                    225, // NO_ZOOKEEPER
                    242, // TABLE_IS_READ_ONLY
                    243, // NOT_ENOUGH_SPACE (merges and TTL free disk)
                    244, // UNEXPECTED_ZOOKEEPER_ERROR
                    999, // KEEPER_EXCEPTION
                    1000 // POCO_EXCEPTION
                    );

    private ClickHouseErrors() {}

    /** True when an error is about the server that answered, which another replica may not have. */
    public static boolean isOfTheServer(int errorCode) {
        return OF_THE_SERVER.contains(errorCode);
    }

    /** True when a permanent error says the rows' columns are not the table's. */
    public static boolean isAboutTheColumns(int errorCode) {
        return ABOUT_THE_COLUMNS.contains(errorCode);
    }

    /** True when a permanent error is about some rows' values (see {@link #ABOUT_THE_ROWS}). */
    public static boolean isAboutTheRows(int errorCode) {
        return ABOUT_THE_ROWS.contains(errorCode);
    }

    /**
     * True when a failed INSERT may succeed if sent again. A reply without a ClickHouse error
     * code (a proxy or load balancer answering) is retryable when its status is 5xx or 429.
     */
    public static boolean isRetryable(int httpStatus, int errorCode) {
        if (errorCode >= 0) {
            return RETRYABLE.contains(errorCode);
        }
        return httpStatus >= 500 || httpStatus == 429 || httpStatus == 408;
    }
}
