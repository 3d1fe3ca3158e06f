/**
 * numacol's own Calcite {@link org.apache.calcite.plan.Convention}: scans, filters, projections,
 * aggregates, sorts and hash joins over numacol tables become {@link
 * io.numacol.calcite.rel.NumacolRel}s ({@link io.numacol.calcite.rel.NumacolRules}), which {@link
 * io.numacol.calcite.rel.NumacolToEnumerableConverter} hands to the engine ({@link
 * io.numacol.calcite.rel.NumacolQuery}) as one {@link io.numacol.exec.PlanNode} tree: a one-table
 * plan as a {@link io.numacol.exec.PlanNode.VidScan}, anything else as joins, aggregates and
 * sorts over scans. What numacol cannot run stays in Calcite's Enumerable operators above the
 * converter.
 */
package io.numacol.calcite.rel;
