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

    /**
     * Decodes all 1024 rows of {@code block} of {@code iv} into {@code out[0, 1024)}, as
     * {@link IndexVector#decodeBlock} does; {@code words} is scratch of at least
     * {@code 32 * bitcase} ints. The vector kernel decodes a position of 16 lanes per instruction,
     * where the JIT leaves the 32-lane loops of the portable decoder mostly scalar (6x slower).
     */
    void decodeBlock(IndexVector iv, int block, int[] words, int[] out);

    /**
     * Moves the values of the rows selected in {@code selection} (bit {@code i} of word
     * {@code i / 64}: row {@code i}) among the first {@code rows} of {@code values} to its front, in
     * order: a filtered block's decoded column packed in place, as selection vectors are consumed.
     * Entries past the returned count are unspecified.
     *
     * @return how many rows are selected
     * @throws IndexOutOfBoundsException when {@code values} holds fewer than {@code rows} entries
     *         rounded up to a multiple of 32 ({@link IndexVector#LANES}), or {@code selection} fewer than their bits
     */
    int compact(int[] values, long[] selection, int rows);

    /** {@code scalar} or {@code vector}, as the {@code numacol.scan} property names them. */
    String name();
}
