package io.tributary.schema;

import java.io.Serializable;

/**
 * A table's name in the database and the setting that gives it, for messages that tell users
 * what to change.
 *
 * @param name the table's name
 * @param setting the key of the setting that names it ({@code clickhouse.tables.*})
 */
public record TableName(String name, String setting) implements Serializable {}
