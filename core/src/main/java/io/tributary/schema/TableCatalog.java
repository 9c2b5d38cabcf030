package io.tributary.schema;

import java.io.IOException;
import java.io.Serializable;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Where the columns of the tables come from: the server, asked when the operators open (so a
 * restarted task sees a table as it is then). Implemented by the ClickHouse client; the decode
 * operator only knows this interface.
 */
public interface TableCatalog extends Serializable {

    /** The database of the tables. */
    String database();

    /** The columns of each of {@code tables} that exists, in table order; a missing table has no entry. */
    Map<String, List<ServerColumn>> columns(Collection<String> tables) throws IOException;
}
