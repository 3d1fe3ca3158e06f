/**
 * Query operators over table parts: vid predicates per part ({@link io.numacol.exec.ColumnFilter}),
 * projection, two-phase aggregation and top-N, cut into NUMA-aware tasks by {@link io.numacol.exec.QueryExecutor}.
 * Values are SQL's internal Java values (see {@link io.numacol.exec.InternalValues}).
 */
package io.numacol.exec;
