package io.numacol.storage.types;

import java.sql.JDBCType;
import java.time.ZoneId;
import java.util.List;

/**
 * What one SQL type is, apart from a column's parameters: its names, how it maps to JDBC and
 * Calcite, how its values are stored, read from text and converted. The codec of a ColumnType
 * is {@link ColumnType#codec()}; methods that depend on the parameters (a DECIMAL's scale, a
 * VARCHAR's length, a TIMESTAMP's fraction digits) take that ColumnType.
 *
 * <p>Each storage kind has its sealed sub-interface with the conversions of its stored form,
 * so a switch may also go by storage kind and still be checked for exhaustiveness.
 */
public sealed interface TypeCodec permits StoredAsLong, StoredAsDouble, StoredAsString {

    /** The SQL name the type prints as, e.g. {@code TIMESTAMP}; {@link #spell} adds the parameters. */
    String name();

    /** Further names the type-name parser reads as this type, e.g. {@code INT} and {@code INT4} for INTEGER. */
    default List<String> aliases() {
        return List.of();
    }

    /** Which parameters the type takes: none, a length, fraction digits, or precision and scale. */
    default TypeParameters parameters() {
        return TypeParameters.NONE;
    }

    /** The type as JDBC's metadata names it. */
    JDBCType jdbcType();

    /**
     * The name of the Calcite {@code SqlTypeName} the adapter gives columns of this type (the engine
     * does not depend on Calcite, so the adapter looks the name up).
     */
    default String calciteTypeName() {
        return name();
    }

    /** How a Dictionary keeps the values. */
    StorageKind storageKind();

    /** Whether the values are numbers, to be computed with (arithmetic, SUM, a number given as text). */
    default boolean numeric() {
        return false;
    }

    /** The SQL spelling of {@code type}, which is of this codec, e.g. {@code DECIMAL(15,2)}; the type-name parser reads it back. */
    default String spell(ColumnType type) {
        return parameters().spell(name(), type);
    }

    /**
     * The Java value {@code text} (not null) stands for in a text input such as COPY's, as the
     * conversions of this codec take it: a number or a boolean parsed, other texts mostly as the
     * (stripped) text the conversions read. NumberFormatException for a text that is no value of
     * the type where this method already knows it, IllegalArgumentException with the reason where
     * the reason is worth more than "not a valid TYPE".
     */
    Object valueOfText(ColumnType type, String text, ZoneId zone);

    /**
     * A value as text that {@link #valueOfText} reads back as the same value: {@code value} is a
     * Java value of the type as the codec's {@code toJava} gives it. Java's own text of the value
     * where SQL writes it so (numbers, ISO dates and times, a UUID's text).
     */
    default String toText(ColumnType type, Object value) {
        return value.toString();
    }

    /**
     * A value as Calcite's generated code carries it (a DATE as its epoch day in an Integer, a
     * TIMESTAMP as milliseconds in a Long) as the Java value the conversions take; any other value
     * unchanged.
     */
    default Object fromInternal(Object internal) {
        return internal;
    }
}
