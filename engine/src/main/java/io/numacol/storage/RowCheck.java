package io.numacol.storage;

/** A table's CHECK constraints, compiled ({@link CheckCompiler}): which one a row fails. Safe to run on several threads at once. */
@FunctionalInterface
public interface RowCheck {
    /**
     * The first check {@code stored} (a row's values in their stored form, as {@link
     * PartBuilder#convert} gives them) makes FALSE, or null when every check is TRUE or NULL.
     */
    TableSchema.CheckDef failed(Object[] stored);
}
