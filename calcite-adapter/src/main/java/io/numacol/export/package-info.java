/**
 * EXPORT DATABASE and IMPORT DATABASE, as DuckDB has them: a database written to a directory as
 * SQL and CSV ({@code schema.sql}: schemas, sequences, tables, views, indexes; one CSV file per
 * table; {@code load.sql}: a COPY per table, then the foreign keys), and read back by running
 * those scripts on a connection, so that data moves between numacol versions whose file formats
 * differ, or to another database. {@link io.numacol.export.DatabaseExport} writes,
 * {@link io.numacol.export.DatabaseImport} reads, {@link io.numacol.export.SqlScript} splits a
 * script into its statements.
 */
package io.numacol.export;
