package io.numacol.calcite;

/**
 * A CHECK constraint refused as it is defined (CREATE TABLE, ALTER TABLE .. ADD CHECK): not a
 * boolean expression over one row's columns that numacol can run. The message names the
 * constraint and says why; {@link #sqlState()} is PostgreSQL's code for what is wrong, or null
 * when the cause (Calcite's validator naming an unknown column or function) says it.
 */
public final class InvalidCheckException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** Not a valid definition of the constraint: a subquery, an aggregate, a non-deterministic function, a parameter. */
    public static final String INVALID_DEFINITION = "42P17";
    /** The expression is not of type BOOLEAN (PostgreSQL's datatype_mismatch). */
    public static final String NOT_BOOLEAN = "42804";

    private final String sqlState;

    public InvalidCheckException(String message, String sqlState, Throwable cause) {
        super(message, cause);
        this.sqlState = sqlState;
    }

    /** The SQLSTATE of the refusal, or null when the cause's is meant. */
    public String sqlState() {
        return sqlState;
    }
}
