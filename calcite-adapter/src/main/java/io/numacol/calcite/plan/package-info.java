/**
 * numacol's planning: {@link io.numacol.calcite.plan.NumacolPrepare} prepares every statement
 * with numacol's parser settings, converter and planner rules (numacol's convention, its DML, and
 * the rewrites that keep TPC-H's OR-ed join conditions from becoming cross products), and is the
 * {@link io.numacol.calcite.Planning} numacol's schemas, tables and DDL reach it through; {@link
 * io.numacol.calcite.plan.JoinPlanning} runs the rewrite programs and the cost-based phase. The
 * metadata numacol gives Calcite's planner (keys, row counts, selectivity) and numacol's own
 * decorrelator live here too, and the compilation of expressions over one row that no plan runs:
 * a table's CHECK constraints ({@link io.numacol.calcite.plan.CheckConstraints}) and a RETURNING
 * list ({@link io.numacol.calcite.plan.ReturningProjection}). The workarounds for Calcite's
 * defects are in {@link io.numacol.calcite.plan.rewrite}.
 */
package io.numacol.calcite.plan;
