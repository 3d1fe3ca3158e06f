/**
 * numacol's DDL inside Calcite's statement flow: {@link io.numacol.calcite.ddl.NumacolParserFactory}
 * recognises CREATE TABLE, DROP TABLE, COPY ... FROM a CSV file and CALL dbgen(sf = n), the TPC-H generator (Calcite 1.42's core parser has no DDL, and its server
 * module is not published for 1.42) and hands everything else to Calcite's parser, refusing UPDATE, DELETE and MERGE for now; Calcite then
 * passes the DDL node to {@link io.numacol.calcite.ddl.NumacolDdlExecutor}.
 */
package io.numacol.calcite.ddl;
