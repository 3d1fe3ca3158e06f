package io.numacol.exec;

/**
 * Up to a block of rows as primitive column arrays, what {@link NumericKernel} computes on: a
 * {@link Batch} decoded from a table part, or a {@link Chunk} between pipeline operators.
 */
interface ColumnVectors {
    int size();

    /** Changes whenever the rows do, so that a kernel shared by two expressions computes once per block. */
    int generation();

    /** The stored longs of a LONG-stored column, 0 where NULL. */
    long[] longs(int column);

    /** The values of a DOUBLE-stored column, 0 where NULL. */
    double[] doubles(int column);

    /** The NULL flags of a column, or null when none of these rows is NULL. */
    boolean[] nulls(int column);
}
