package io.tributary.schema;

import java.util.List;

/**
 * One column of the INSERT: a plain column, or one field of a {@code Nested} column ({@code
 * Events.Timestamp}, an {@code Array}). It knows the type the job writes and how to write its value
 * in another type that holds it without loss ({@link Binder}).
 *
 * @param names the column's name, then older names it had in earlier exporter versions
 * @param type the type {@code schema create} gives it, as the server prints it
 * @param optional true when tables of earlier exporter versions lack it: such a table is written
 *     without it (with a warning) instead of refused
 * @param binder the encoder for a table's type
 */
public record Field<R>(List<String> names, String type, boolean optional, Binder<R> binder) {

    public Field {
        names = List.copyOf(names);
    }

    public String name() {
        return names.get(0);
    }

    /** The encoder for the field's own type. */
    public ColumnWriter<R> canonicalWriter() {
        ColumnWriter<R> w = binder.bind(ChType.parse(type));
        if (w == null) {
            throw new IllegalStateException("field " + name() + " cannot write its own type " + type);
        }
        return w;
    }

    /** This field, marked optional. */
    Field<R> asOptional() {
        return new Field<>(names, type, true, binder);
    }

    /** This field, also found under an older name. */
    Field<R> formerly(String oldName) {
        List<String> ns = new java.util.ArrayList<>(names);
        ns.add(oldName);
        return new Field<>(ns, type, optional, binder);
    }

    /** The encoder of a value for a ClickHouse type, or null when that type cannot hold it without loss. */
    @FunctionalInterface
    public interface Binder<R> {
        ColumnWriter<R> bind(ChType target);
    }
}
