package io.numacol.storage;

/**
 * A NULL refused by a NOT NULL column (SQLSTATE 23502), in PostgreSQL's words: {@code null value
 * in column "x" of relation "t" violates not-null constraint}. An IllegalArgumentException, as
 * every other refused value is: nothing of the row, nor of its statement, is kept.
 */
public final class NotNullViolationException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String column;

    private NotNullViolationException(String column, String message, Throwable cause) {
        super(message, cause);
        this.column = column;
    }

    /** A NULL for {@code column}, of a table not yet known. */
    public static NotNullViolationException of(String column) {
        return new NotNullViolationException(column, "null value in column \"" + column + "\" violates not-null constraint", null);
    }

    /** A NULL for {@code column} of {@code table}, in the row (counted from 1) {@code row}, or 0 when no row is counted. */
    public static NotNullViolationException of(String table, String column, long row, Throwable cause) {
        return new NotNullViolationException(column, "null value in column \"" + column + "\" of relation \"" + table
                + "\" violates not-null constraint" + (row > 0 ? " (row " + row + ")" : ""), cause);
    }

    /** This violation's message after {@code prefix} (a line of a COPY's input, say). */
    public NotNullViolationException prefixed(String prefix) {
        return new NotNullViolationException(column, prefix + getMessage(), this);
    }

    /** The column that got the NULL. */
    public String column() {
        return column;
    }
}
