package io.numacol.memory;

/** The kernel refused memory numacol asked for (out of memory on a node, or a failed page move). */
public final class NumaMemoryException extends RuntimeException {
    public NumaMemoryException(String message) {
        super(message);
    }
}
