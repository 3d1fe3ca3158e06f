/**
 * numacol's planning: {@link io.numacol.calcite.plan.NumacolPrepare} registers numacol's planner
 * rules with every statement's planner (numacol's convention, its DML, and the rewrites that keep
 * TPC-H's OR-ed join conditions from becoming cross products).
 */
package io.numacol.calcite.plan;
