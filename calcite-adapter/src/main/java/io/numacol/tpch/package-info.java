/**
 * The built-in TPC-H data generator: the eight tables with the specification's column types,
 * filled with dbgen's values (through the {@code io.trino.tpch} generator) at any scale factor.
 */
package io.numacol.tpch;
