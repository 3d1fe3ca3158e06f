/**
 * numacol as Calcite sees it: the {@code main} schema of numacol tables, the {@code sys} schema
 * (nodes, tables, columns, placements), and the mapping between numacol's column types and
 * Calcite's. The schemas and tables sit below the planner and numacol's convention: what they and
 * the DDL need of them (a view's columns, the scan a table plans as, the INSERT that fills a
 * CREATE TABLE AS) they ask through {@link io.numacol.calcite.Planning}, which the planner
 * implements and the connection hands in. {@link io.numacol.calcite.PrepareContexts} reads a
 * query's names where it belongs, and gives a session's time zone. Planner rules and numacol's
 * convention live in subpackages.
 */
package io.numacol.calcite;
