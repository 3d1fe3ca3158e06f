/**
 * One codec per SQL type: what {@link io.numacol.storage.types.ColumnType} knows about a kind of value
 * beyond its parameters. A {@link io.numacol.storage.types.TypeCodec} holds a type's SQL names,
 * its JDBC type and the name of the Calcite type the adapter gives it, how it is stored, how its
 * values are read from text, and how Java values become stored values and stored values Java or
 * Calcite's internal values again. The codecs are sealed, so a switch over them without a default
 * branch fails to compile until a new type's codec is handled; a new SQL type is one new codec,
 * one {@link io.numacol.storage.types.ColumnType.Kind} constant and the cases the compiler then asks for.
 *
 * <p>The package holds the type descriptor itself ({@link io.numacol.storage.types.ColumnType}, {@link
 * io.numacol.storage.types.StorageKind}) and the helpers its codecs share (UTF-8 order and
 * checks, values described in messages), so that it depends on no other numacol package and
 * {@code io.numacol.storage} builds on it.
 */
package io.numacol.storage.types;
