package io.numacol.storage;

/** A sequence without CYCLE was asked for a number past its MAXVALUE (or MINVALUE counting down): SQLSTATE 2200H. */
public final class SequenceLimitException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    SequenceLimitException(String message) {
        super(message);
    }
}
