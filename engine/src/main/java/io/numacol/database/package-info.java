/**
 * The embedding API: a {@link io.numacol.database.Database} (topology, node-placed memory,
 * catalog, scheduler) opened in process, and the {@link io.numacol.database.Appender} for bulk
 * loads (rows, or CSV text read as {@link io.numacol.database.CsvFormat} says; each load is
 * published whole or not at all), and the {@code TableChange} of an UPDATE or DELETE, which runs
 * the referential actions of the foreign keys that name its table ({@code ReferentialActions}:
 * ON DELETE / ON UPDATE CASCADE, SET NULL, SET DEFAULT) in the same transaction. The JDBC driver opens one of these per URL. A database keeps
 * where its tables' parts go in its {@code TablePlacements} (each table's placement, a PP
 * table's partitioning, the nodes new parts take in turn; SET PLACEMENT moves or re-deals the
 * parts), merges small parts in the background ({@code PartMerger}), samples its utilization
 * and, where the configuration says so, runs the DataPlacer, which moves, cuts and merges table
 * parts between nodes as the load asks.
 */
package io.numacol.database;
