/**
 * The JDBC driver: {@code jdbc:numacol:} (a private in-memory database) and
 * {@code jdbc:numacol:mem:NAME} (one shared by the JVM's connections while any is open), built on
 * Calcite's Avatica connection with numacol's schema, DDL and planner.
 */
package io.numacol.jdbc;
