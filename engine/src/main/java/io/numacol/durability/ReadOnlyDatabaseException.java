package io.numacol.durability;

/**
 * A change refused because the database is open read-only (SQLSTATE 25006, PostgreSQL's
 * read_only_sql_transaction): nothing of it was made.
 */
public final class ReadOnlyDatabaseException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public ReadOnlyDatabaseException(String message) {
        super(message);
    }
}
