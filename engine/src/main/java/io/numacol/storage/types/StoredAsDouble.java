package io.numacol.storage.types;

/** A type whose values a DoubleDictionary keeps, as doubles. */
public sealed interface StoredAsDouble extends TypeCodec permits RealCodec, DoubleCodec {

    @Override
    default StorageKind storageKind() {
        return StorageKind.DOUBLE;
    }

    @Override
    default boolean numeric() {
        return true;
    }

    /** The stored double of a non-null Number; NaN and infinities are values, overflow to infinity is not. */
    double toDouble(ColumnType type, Object value);

    /** A stored double back as its Java value. */
    Object toJava(ColumnType type, double stored);

    /**
     * A stored double as Calcite's internal value; + 0.0 turns -0.0 into 0.0, equal in SQL but two
     * keys to the hash sets of Calcite's operators.
     */
    default Object internal(ColumnType type, double stored) {
        return stored + 0.0;
    }
}
