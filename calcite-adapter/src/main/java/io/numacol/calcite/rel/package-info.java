/**
 * numacol's own Calcite {@link org.apache.calcite.plan.Convention}: scans, filters, projections,
 * aggregates, sorts and hash joins over numacol tables become {@link
 * io.numacol.calcite.rel.NumacolRel}s ({@link io.numacol.calcite.rel.NumacolRules}), which {@link
 * io.numacol.calcite.rel.NumacolToEnumerableConverter} hands to the engine ({@link
 * io.numacol.calcite.rel.NumacolQuery}) as one {@link io.numacol.exec.PlanNode} tree. Each rel
 * translates itself: into a one-table plan, one {@link io.numacol.exec.PlanNode.VidScan} ({@link
 * io.numacol.calcite.rel.OneTableImplementor}), or into its own node of joins, aggregates and sorts
 * over scans ({@link io.numacol.calcite.rel.PipelineImplementor}). What numacol cannot run stays in
 * Calcite's Enumerable operators above the converter.
 */
package io.numacol.calcite.rel;
