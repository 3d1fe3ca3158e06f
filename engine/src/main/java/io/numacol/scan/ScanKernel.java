package io.numacol.scan;

import io.numacol.storage.IndexVector;

/**
 * Evaluates a {@link VidPredicate} over rows {@code [from, to)} of an {@link IndexVector}. Any
 * range within {@code [0, iv.length()]} is allowed, aligned or not. Kernels are stateless and
 * thread-safe; {@link ScanKernels} hands out the one to use.
 */
public interface ScanKernel {

    /**
     * Sets the bits of the matching rows of {@code [from, to)} in {@code out} and clears the
     * others of that range; bits outside it stay untouched (see {@link BitVector} for sharing one
     * among tasks).
     *
     * @throws IndexOutOfBoundsException when {@code [from, to)} is not within the IndexVector's rows
     * @throws IllegalArgumentException when {@code out} has fewer than {@code to} rows
     */
    void scan(IndexVector iv, int from, int to, VidPredicate predicate, BitVector out);

    /**
     * Appends the matching rows of {@code [from, to)} to {@code out} in ascending order.
     *
     * @return how many rows were appended
     * @throws IndexOutOfBoundsException when {@code [from, to)} is not within the IndexVector's rows
     */
    int scanPositions(IndexVector iv, int from, int to, VidPredicate predicate, PositionList out);

    /**
     * Counts the rows of {@code [from, to)} whose vid lies in {@code range} and sums their vids
     * (as unsigned ints), adding to {@code into[0]} and {@code into[1]}: an aggregate computed on
     * the compressed column, decoding each row once and writing no BitVector.
     *
     * @throws IndexOutOfBoundsException when {@code [from, to)} is not within the IndexVector's rows
     */
    void countAndSumVids(IndexVector iv, int from, int to, VidPredicate.Between range, long[] into);

    /** {@code scalar} or {@code vector}, as the {@code numacol.scan} property names them. */
    String name();
}
