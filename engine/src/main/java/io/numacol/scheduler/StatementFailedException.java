package io.numacol.scheduler;

/**
 * Thrown by {@link TaskGroup#await()} when a task of the statement threw; the cause is the first
 * exception a task threw, as it was thrown.
 */
public final class StatementFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StatementFailedException(Statement statement, Throwable cause) {
        super("statement " + statement.id() + " failed: " + cause, cause);
    }
}
