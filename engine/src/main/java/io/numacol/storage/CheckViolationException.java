package io.numacol.storage;

/**
 * A row refused by a CHECK constraint (SQLSTATE 23514), in PostgreSQL's words: {@code new row for
 * relation "t" violates check constraint "c"}, with the row; or, when ALTER TABLE finds a stored
 * row that fails a check, {@code check constraint "c" of relation "t" is violated by some row}.
 * An IllegalArgumentException, as every other refused value is: nothing of the row, nor of its
 * statement, is kept.
 */
public final class CheckViolationException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String table;
    private final String constraint;

    private CheckViolationException(String table, String constraint, String message, Throwable cause) {
        super(message, cause);
        this.table = table;
        this.constraint = constraint;
    }

    /** A new row of {@code table} that {@code constraint} refuses; {@code row} is its values as text, as PostgreSQL shows them. */
    public static CheckViolationException of(String table, String constraint, String row) {
        return new CheckViolationException(table, constraint, "new row for relation \"" + table + "\" violates check constraint \""
                + constraint + "\": Failing row contains " + row + ".", null);
    }

    /** A row already stored in {@code table} that {@code constraint} refuses, found by ALTER TABLE (as PostgreSQL words it). */
    public static CheckViolationException bySomeRow(String table, String constraint, Throwable cause) {
        return new CheckViolationException(table, constraint, "check constraint \"" + constraint + "\" of relation \"" + table
                + "\" is violated by some row", cause);
    }

    /** This violation's message after {@code prefix} (a line of a COPY's input, say). */
    public CheckViolationException prefixed(String prefix) {
        return new CheckViolationException(table, constraint, prefix + getMessage(), this);
    }

    /** The table whose check refused the row. */
    public String table() {
        return table;
    }

    /** The name of the check that refused the row. */
    public String constraint() {
        return constraint;
    }
}
