/**
 * numacol's own Calcite {@link org.apache.calcite.plan.Convention}: scans, filters, projections,
 * aggregates and sorts over numacol tables become {@link io.numacol.calcite.rel.NumacolRel}s
 * ({@link io.numacol.calcite.rel.NumacolRules}), which
 * {@link io.numacol.calcite.rel.NumacolToEnumerableConverter} hands to the engine as one
 * {@link io.numacol.exec.QueryPlan}. What numacol cannot run stays in Calcite's Enumerable operators.
 */
package io.numacol.calcite.rel;
