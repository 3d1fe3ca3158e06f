/**
 * The embedding API: a {@link io.numacol.database.Database} (topology, node-placed memory,
 * catalog, scheduler) opened in process, and the {@link io.numacol.database.Appender} for bulk
 * loads. The JDBC driver opens one of these per URL.
 */
package io.numacol.database;
