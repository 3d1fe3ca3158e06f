/**
 * Flyway's database plugin for numacol: Flyway finds {@link io.numacol.flyway.NumacolDatabaseType}
 * through its service file ({@code META-INF/services/org.flywaydb.core.extensibility.Plugin}) and
 * handles every {@code jdbc:numacol:} URL with it. The classes say, each for one of Flyway's
 * database concepts (the database, a connection, a schema, a table), how numacol does what Flyway
 * asks: its schema history table in numacol's own DDL, the current schema as the JDBC connection's,
 * a schema's tables, views and sequences read from {@code information_schema} (for clean). The
 * SQL of the migrations is split into statements by Flyway's generic parser, which reads numacol's
 * quoting (double quotes for identifiers, single quotes for strings) as it is.
 */
package io.numacol.flyway;
