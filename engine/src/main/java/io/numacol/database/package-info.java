/**
 * The embedding API: a {@link io.numacol.database.Database} (topology, node-placed memory,
 * catalog, scheduler) opened in process, and the {@link io.numacol.database.Appender} for bulk
 * loads (rows, or CSV text read as {@link io.numacol.database.CsvFormat} says; each load is
 * published whole or not at all). The JDBC driver opens one of these per URL.
 */
package io.numacol.database;
