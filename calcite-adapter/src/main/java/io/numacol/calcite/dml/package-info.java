/**
 * numacol's DML: {@link io.numacol.calcite.dml.NumacolTableModify} carries out an INSERT's rows
 * into an {@link io.numacol.database.Appender} and publishes them when the statement ends, so
 * readers see all of a statement or none of it (Calcite's own EnumerableTableModify adds rows
 * one by one to a collection and has no end-of-statement hook). UPDATE, DELETE and MERGE are
 * refused with a clear error.
 */
package io.numacol.calcite.dml;
