/**
 * numacol as Calcite sees it: the {@code main} schema of numacol tables, the {@code sys} schema
 * (nodes, tables, columns, placements), and the mapping between numacol's column types and
 * Calcite's. Planner rules and numacol's convention live in subpackages.
 */
package io.numacol.calcite;
