package io.numacol.memory;

/** The kernel refused memory numacol asked for (out of memory on a node, or a failed page move). */
public final class NumaMemoryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public NumaMemoryException(String message) {
        super(message);
    }
}
