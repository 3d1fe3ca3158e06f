/**
 * Query operators over table parts and the executors that cut them into NUMA-aware tasks: vid
 * predicates per part ({@link io.numacol.exec.ColumnFilter}), projection, two-phase aggregation
 * and top-N over one table ({@link io.numacol.exec.QueryExecutor}, over {@link
 * io.numacol.exec.QueryPlan}s), and morsel-driven pipelines of scans, filters, projections, hash
 * joins, aggregates and sorts over column chunks ({@link io.numacol.exec.PipelineExecutor}, over
 * {@link io.numacol.exec.PlanNode} trees). Values are SQL's internal Java values (see {@link
 * io.numacol.exec.InternalValues}).
 */
package io.numacol.exec;
