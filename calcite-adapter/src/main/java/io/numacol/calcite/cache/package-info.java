/**
 * The plan cache: statements prepared once per normalized text ({@link io.numacol.calcite.cache.SqlTemplate})
 * and reused while the catalog and the statistics they were planned on hold ({@link io.numacol.calcite.cache.PlanCache}).
 */
package io.numacol.calcite.cache;
