package io.numacol.storage.types;

import java.time.ZoneId;

/** A type whose values a LongDictionary keeps, as signed longs. */
public sealed interface StoredAsLong extends TypeCodec
        permits BooleanCodec, IntegralCodec, DecimalCodec, DateCodec, TimestampCodec, TimestampTzCodec, TimeCodec {

    @Override
    default StorageKind storageKind() {
        return StorageKind.LONG;
    }

    /**
     * The stored long of a non-null Java value, IllegalArgumentException naming the value and the
     * type for a value of another class or out of range; a value without an offset that needs
     * one is read in {@code zone}.
     */
    long toLong(ColumnType type, Object value, ZoneId zone);

    /** A stored long back as its Java value; IllegalArgumentException for a long no value is stored as. */
    Object toJava(ColumnType type, long stored);

    /** A stored long as Calcite's internal value of the type (see {@code io.numacol.exec.InternalValues}). */
    default Object internal(ColumnType type, long stored) {
        return stored;
    }

    /** Whether a whole number lies in the type's range: an integer type's; any long for the others. */
    default boolean holds(long value) {
        return true;
    }
}
