/**
 * numacol's SQL parser and DDL inside Calcite's statement flow (Calcite 1.42's core parser has no
 * DDL, and its server module is not published for 1.42): {@link
 * io.numacol.calcite.ddl.NumacolParserFactory} recognises CREATE/DROP TABLE, CREATE TABLE AS,
 * ALTER TABLE (columns, name, SET PLACEMENT), TRUNCATE, CREATE/DROP INDEX, VIEW and SCHEMA, SET
 * SCHEMA, COPY ... FROM a CSV file and CALL dbgen(sf = n), the TPC-H generator, by {@link
 * io.numacol.calcite.ddl.DdlParser}, and hands everything else to Calcite's parser (refusing
 * MERGE), reading binary minus as {@link io.numacol.calcite.ddl.DatetimeMinus}; Calcite then
 * passes the DDL node to {@link io.numacol.calcite.ddl.NumacolDdlExecutor}, which plans the
 * queries of CREATE TABLE AS and CREATE VIEW through the connection's {@link
 * io.numacol.calcite.Planning}: the planner parses with this package's parser, so the DDL does not
 * name it. {@link io.numacol.calcite.ddl.TimeLiterals} holds the TIMESTAMP and TIME texts numacol's
 * SQL reads beyond Calcite's, for the parser and for numacol's DML. Foreign keys are written as
 * {@link io.numacol.calcite.ddl.ForeignKeySpec}s, resolved against the catalog when their
 * statement runs, and {@link io.numacol.calcite.ddl.Dependents} keeps DDL from breaking them.
 */
package io.numacol.calcite.ddl;
