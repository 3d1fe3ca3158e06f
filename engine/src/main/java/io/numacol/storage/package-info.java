/**
 * Column storage: column types and how their values are encoded, the Dictionaries (sorted
 * distinct values of a column part, off-heap; a value's position is its vid), index vectors,
 * columns and table parts.
 */
package io.numacol.storage;
