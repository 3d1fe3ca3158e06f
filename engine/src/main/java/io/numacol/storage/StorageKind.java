package io.numacol.storage;

/**
 * How a {@link ColumnType}'s values are kept in a {@link Dictionary}: as signed longs
 * ({@link LongDictionary}), doubles ({@link DoubleDictionary}) or UTF-8 strings
 * ({@link StringDictionary}).
 */
public enum StorageKind {
    /** BOOLEAN as 0/1, INTEGER, BIGINT, DECIMAL as its unscaled value, DATE as its epoch day, TIMESTAMP as epoch milliseconds. */
    LONG,
    DOUBLE,
    STRING
}
