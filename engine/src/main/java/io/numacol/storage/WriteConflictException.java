package io.numacol.storage;

/**
 * A transaction's commit refused because another transaction committed a change of the same rows
 * after this one's snapshot (first committer wins): nothing of the transaction was kept, and
 * running it again may succeed (SQLSTATE 40001, serialization failure).
 */
public final class WriteConflictException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public WriteConflictException(String message) {
        super(message);
    }
}
