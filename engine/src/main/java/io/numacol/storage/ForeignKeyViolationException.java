package io.numacol.storage;

/**
 * A change refused because a row would reference a parent row that does not exist, or a parent
 * row still referenced would be deleted or get another key (SQLSTATE 23503): nothing of the
 * statement, or of the committing transaction, is kept.
 */
public final class ForeignKeyViolationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ForeignKeyViolationException(String message) {
        super(message);
    }
}
