/**
 * The JDBC driver: {@code jdbc:numacol:} (a private in-memory database) and
 * {@code jdbc:numacol:mem:NAME} (one shared by the JVM's connections while any is open), built on
 * Calcite's Avatica connection with numacol's schema, DDL and planner. {@link
 * io.numacol.jdbc.NumacolMeta} sends batched {@code INSERT ... VALUES (?, ...)} to one appender;
 * {@link io.numacol.jdbc.NumacolJdbcFactory} makes result sets whose fetch errors are SQLExceptions.
 */
package io.numacol.jdbc;
