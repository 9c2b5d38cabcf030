package io.tributary.sink;

import java.util.Locale;

/**
 * The format of an INSERT's body ({@code sink.format}). Both start from the same rows: the
 * decoders write RowBinary, which a RowBinary batch sends as it is and a Native batch turns into
 * columns when it closes ({@link io.tributary.nativeformat.NativeBlock}).
 */
public enum InsertFormat {
    /**
     * {@code RowBinaryWithNamesAndTypes}: the rows as the decoders wrote them, after a header
     * naming the columns and their types. https://clickhouse.com/docs/interfaces/formats/RowBinaryWithNamesAndTypes
     */
    ROWBINARY("RowBinaryWithNamesAndTypes"),
    /**
     * {@code Native}: one block of columns, {@code LowCardinality} columns as dictionaries; what
     * ClickHouse reads with the least work. A table with a column type it is not written for here
     * (JSON) gets RowBinary batches. https://clickhouse.com/docs/interfaces/formats/Native
     */
    NATIVE("Native");

    private final String clickHouseName;

    InsertFormat(String clickHouseName) {
        this.clickHouseName = clickHouseName;
    }

    /** The name in {@code INSERT ... FORMAT <name>}. */
    public String clickHouseName() {
        return clickHouseName;
    }

    /** Parses {@code native|rowbinary}. */
    public static InsertFormat parse(String s) {
        switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "native":
                return NATIVE;
            case "rowbinary":
                return ROWBINARY;
            default:
                throw new IllegalArgumentException("must be one of native, rowbinary; got '" + s + "'");
        }
    }
}
