/**
 * One codec per SQL type: what {@link io.numacol.storage.ColumnType} knows about a kind of value
 * beyond its parameters. A {@link io.numacol.storage.types.TypeCodec} holds a type's SQL names,
 * its JDBC type and the name of the Calcite type the adapter gives it, how it is stored, how its
 * values are read from text, and how Java values become stored values and stored values Java or
 * Calcite's internal values again. The codecs are sealed, so a switch over them without a default
 * branch fails to compile until a new type's codec is handled; a new SQL type is one new codec,
 * one {@link io.numacol.storage.ColumnType.Kind} constant and the cases the compiler then asks for.
 *
 * <p>This package and {@code io.numacol.storage} name each other: a ColumnType names its codec,
 * and a codec reads the ColumnType it converts for (precision, scale, length, and its spelling
 * in error messages). The codecs are storage's per-type half, split off so that neither half
 * is a switch over every type.
 */
package io.numacol.storage.types;
