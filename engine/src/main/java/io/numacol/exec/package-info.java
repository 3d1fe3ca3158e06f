/**
 * The query engine: one plan language ({@link io.numacol.exec.PlanNode} trees), one executor that
 * cuts a plan into morsel-driven pipelines at its breakers and schedules them as NUMA-aware tasks
 * ({@link io.numacol.exec.PipelineExecutor}, {@link io.numacol.exec.Execution}), and the operators,
 * a class each: the {@link io.numacol.exec.TableScan} with vid predicates per part ({@link
 * io.numacol.exec.ColumnFilter}), {@link io.numacol.exec.FilterOperator}, {@link
 * io.numacol.exec.ProjectOperator}, {@link io.numacol.exec.HashJoinBuild} and {@link
 * io.numacol.exec.HashJoinProbe}, {@link io.numacol.exec.HashAggregate}, the sort ({@link
 * io.numacol.exec.RowSorter}), and the one-table operators on vids: the perfect-hash {@link
 * io.numacol.exec.VidAggregate} and the {@link io.numacol.exec.RowScan} with its top-N and
 * streamed rows. Values are SQL's internal Java values (see {@link
 * io.numacol.exec.InternalValues}).
 */
package io.numacol.exec;
