package io.numacol.calcite.ddl;

/**
 * A DDL statement refused for a reason SQL names by its own SQLSTATE (a foreign key naming no
 * key of its parent: 42830; a table others depend on: 2BP01), which the message's words alone
 * would not tell the JDBC layer.
 */
public final class DdlException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String sqlState;

    DdlException(String sqlState, String message) {
        super(message);
        this.sqlState = sqlState;
    }

    /** A refusal that restates {@code cause} (a stored row that breaks what an ALTER adds) in the statement's terms. */
    DdlException(String sqlState, String message, Throwable cause) {
        super(message, cause);
        this.sqlState = sqlState;
    }

    /** The SQLSTATE the JDBC layer gives the statement's SQLException. */
    public String sqlState() {
        return sqlState;
    }
}
