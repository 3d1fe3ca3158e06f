package io.numacol.storage.types;

/**
 * A type whose values a StringDictionary keeps, as strings in code point order; the stored
 * string of a value is chosen so that this order is the type's SQL order.
 */
public sealed interface StoredAsString extends TypeCodec permits CharCodec, VarcharCodec, VarbinaryCodec, UuidCodec {

    @Override
    default StorageKind storageKind() {
        return StorageKind.STRING;
    }

    @Override
    default TypeParameters parameters() {
        return TypeParameters.LENGTH;
    }

    /** The stored string of a non-null Java value, checked against the type's length. */
    String toStringValue(ColumnType type, Object value);

    /** A stored string back as its Java value, which is the string itself for text. */
    default Object toJava(ColumnType type, String stored) {
        return stored;
    }
}
