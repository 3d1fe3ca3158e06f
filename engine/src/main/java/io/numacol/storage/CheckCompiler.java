package io.numacol.storage;

import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * Reads the CHECK constraints of tables ({@link TableSchema.CheckDef}, SQL the engine does not
 * parse) for the engine: the SQL layer registers one with the {@link Catalog} when it opens a
 * database ({@link Catalog#checkCompiler(CheckCompiler)}). A table's checks are compiled once per
 * version of the table ({@link Table#rowCheck()}), when it is created or altered and a compiler is
 * registered, else at its first new row.
 */
public interface CheckCompiler {
    /**
     * The test of {@code schema}'s checks over a row, which several threads may run at once.
     *
     * @throws IllegalArgumentException (or a subclass) when a check is no boolean expression over
     *     the columns of one row that can run: the message names it and says why
     */
    RowCheck compile(TableSchema schema);

    /**
     * {@code expression}, a check of {@code schema}, with each column it reads named as {@code
     * rename} maps the column's name, written so that it reads the same columns; null when it reads
     * a column {@code rename} maps to null (dropped by ALTER TABLE).
     */
    String renamed(String expression, TableSchema schema, UnaryOperator<String> rename);

    /** Why rows of a table with {@code checks} are refused when no compiler is registered. */
    static String missing(List<TableSchema.CheckDef> checks) {
        return "the table has CHECK constraints (" + checks.stream().map(TableSchema.CheckDef::name).collect(Collectors.joining(", "))
                + ") and the database has no compiler for them (numacol's SQL layer registers one, see Catalog.checkCompiler): "
                + "its rows cannot be checked, so none is written";
    }
}
