package io.numacol.memory;

/** A reservation that would pass numacol's memoryLimit ({@link MemoryLimit}); nothing was reserved. */
public final class MemoryLimitException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MemoryLimitException(String message) {
        super(message);
    }
}
