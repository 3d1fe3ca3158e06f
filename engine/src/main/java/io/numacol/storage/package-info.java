/**
 * Column storage, over the column types of {@code io.numacol.storage.types} (a type and its
 * codec, which says how its values are encoded): the Dictionaries (sorted distinct values of a column part,
 * off-heap; a value's position is its vid), the bit-packed IndexVector of vids, the optional
 * Index (vid to positions), columns, table parts, tables and the catalog, and each statement's
 * view of the catalog (the version it plans against, and the dropped or altered tables it may
 * still read until it ends).
 */
package io.numacol.storage;
