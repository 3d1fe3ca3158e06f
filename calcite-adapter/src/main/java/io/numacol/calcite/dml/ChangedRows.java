package io.numacol.calcite.dml;

import io.numacol.storage.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The rows one JDBC execution stores, as stored: an INSERT's new rows (their identity numbers and
 * DEFAULTs filled in) and an UPDATE's new versions (a DELETE's deleted rows, as they were), in the order the statement (or the entries of
 * its batch) stored them. The JDBC layer collects them for {@code getGeneratedKeys()} and {@code
 * RETURNING}: they are the rows of this statement alone, whatever other connections insert
 * meanwhile. Bound to the executing thread only while such a result was asked for, so that other
 * statements keep no copy of their rows.
 */
public final class ChangedRows {
    private static final ScopedValue<ChangedRows> CURRENT = ScopedValue.newInstance();

    private Table table;
    private final List<Object[]> rows = new ArrayList<>();
    /** The table {@link #projection} reads the rows of, or null. */
    private final Table projected;
    /** What is kept of each row of {@link #projected} instead of the row, or null. */
    private final UnaryOperator<Object[]> projection;

    /** Keeps each row as stored. */
    public ChangedRows() {
        this(null, null);
    }

    /**
     * Keeps {@code projection}'s answer for each row {@code projected} stores (a RETURNING's
     * row), computed as the row is stored: an expression that fails fails the statement, before
     * it commits, as PostgreSQL's RETURNING does. Rows of another table (which the statement
     * writes only if the table was replaced since the projection was read) are kept as stored.
     */
    public ChangedRows(Table projected, UnaryOperator<Object[]> projection) {
        this.projected = projected;
        this.projection = projection;
    }

    /** Runs {@code op} with every row it stores, in this thread, added here. */
    public <R, X extends Throwable> R collect(ScopedValue.CallableOp<R, X> op) throws X {
        return ScopedValue.where(CURRENT, this).call(op);
    }

    /** The collection the running statement adds its rows to, or null when none was asked for. */
    public static ChangedRows current() {
        return CURRENT.isBound() ? CURRENT.get() : null;
    }

    /** Whether the running statement's rows are wanted (so that a path that would not copy them does). */
    static boolean wanted() {
        return CURRENT.isBound();
    }

    /**
     * Notes a row {@code table} stores (its Java values, one per column): a copy, as an appender may
     * keep or change the array. Rows of another table than the first one's are not kept: a keys
     * result is of one table, and only a plain statement's batch writes to several.
     */
    public static void stored(Table table, Object[] row) {
        ChangedRows current = current();
        if (current == null) {
            return;
        }
        if (current.table == null) {
            current.table = table;
        }
        if (current.table == table) {
            current.rows.add(current.isProjected() ? current.projection.apply(row) : row.clone());
        }
    }

    /** The table the rows are of, or null when the statement stored none. */
    public Table table() {
        return table;
    }

    /** Whether {@link #rows} are the projection's answers rather than the rows as stored. */
    public boolean isProjected() {
        return projection != null && table != null && table == projected;
    }

    /** The rows, as stored (or as projected, {@link #isProjected}), oldest first. */
    public List<Object[]> rows() {
        return rows;
    }
}
