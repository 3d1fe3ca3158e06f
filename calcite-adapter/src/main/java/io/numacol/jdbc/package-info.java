/**
 * The JDBC driver: {@code jdbc:numacol:} (a private in-memory database) and
 * {@code jdbc:numacol:mem:NAME} (one shared by the JVM's connections while any is open), built on
 * Calcite's Avatica connection with numacol's schema, DDL and planner. {@link
 * io.numacol.jdbc.NumacolMeta} wraps the Meta Calcite's public factory makes: it sends batched
 * {@code INSERT ... VALUES (?, ...)} to one appender, runs {@code INSERT ... ON CONFLICT} (which
 * Calcite's parser does not know) as its INSERT and DO UPDATE's values planned apart ({@link
 * io.numacol.jdbc.UpsertStatement}), and turns failures while rows are computed into SQLExceptions. Nothing here lives in Calcite's packages.
 */
package io.numacol.jdbc;
