package io.numacol.storage.types;

/**
 * How a {@link ColumnType}'s values are kept in a column's dictionary: as signed longs
 * ({@code LongDictionary}), doubles ({@code DoubleDictionary}) or UTF-8 strings
 * ({@code StringDictionary}).
 */
public enum StorageKind {
    /** BOOLEAN as 0/1, INTEGER, BIGINT, DECIMAL as its unscaled value, DATE as its epoch day, TIMESTAMP as epoch milliseconds. */
    LONG,
    DOUBLE,
    STRING
}
