package io.numacol.storage;

/**
 * A change refused because it would give two rows the same values of a PRIMARY KEY or UNIQUE
 * constraint (SQLSTATE 23505): nothing of the statement, or of the committing transaction, is kept.
 */
public final class KeyViolationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public KeyViolationException(String message) {
        super(message);
    }
}
