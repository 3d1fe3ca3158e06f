/**
 * numacol's DML: {@link io.numacol.calcite.dml.NumacolTableModify} carries out an INSERT's rows
 * into an {@link io.numacol.database.Appender}, and an UPDATE's or DELETE's rows (found by their
 * row ids, see {@link io.numacol.calcite.dml.ModifyValidator}) into new versions of the parts they
 * change, and publishes them when the statement ends, so readers see all of a statement or none
 * of it (Calcite's own EnumerableTableModify adds rows one by one to a collection and has no
 * end-of-statement hook). INSERT ... VALUES of literals takes a shorter path ({@link
 * io.numacol.calcite.dml.LiteralInsert}, {@link io.numacol.calcite.dml.ValuesInsert}). An INSERT
 * ... ON CONFLICT's rows go to {@link io.numacol.calcite.dml.Upsert}, which skips or updates the
 * rows whose keys exist ({@link io.numacol.calcite.dml.OnConflict} reads the clause). MERGE is
 * refused with a clear error.
 */
package io.numacol.calcite.dml;
