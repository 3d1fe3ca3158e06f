package io.numacol.storage;

/** A value given a GENERATED ALWAYS AS IDENTITY column (SQLSTATE 428C9): nothing of the statement is kept. */
public final class IdentityViolationException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public IdentityViolationException(String message, Throwable cause) {
        super(message, cause);
    }
}
